"""Rounds whose records have left Redis, a filter a table: no report settles one again.

A round's record stays in Redis for the retention window, then the archiver trims it. A
report of a round must never be settled twice, whatever its `dealt_at` says, yet looking
every report up in the archive would cost every round. So the archiver puts each trimmed
round's id into its table's filter (a layered Bloom filter, lua/forgotten.lua) in the same
script call that deletes the record, and the round script tests a report against it when it
finds no record: a round the filter names is looked up in the archive before it may settle
(docs/DECISIONS.md D225).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterable

from redis import Redis

from jackpot.store.keys import Keys
from jackpot.store.scripts import source

PROBES = 7  # bits a round sets in its layer: at 16 bits a round, 0.07 % false positives
_PROBES = struct.Struct(f">{PROBES}I")  # the digest's first 7 four-byte words, big-endian


def probes(table: str, round_id: str) -> list[int]:
    """The round's probes: seven numbers below 2^32 from the SHA-256 of its table and id."""
    return list(_PROBES.unpack_from(hashlib.sha256(f"{table}\x00{round_id}".encode()).digest()))


def probes_json(table: str, round_id: str) -> str:
    return json.dumps(probes(table, round_id), separators=(",", ":"))


class ForgottenRounds:
    """The forget_rounds script over one link group's keys."""

    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys
        self._script = client.register_script(source("forget_rounds"))

    def call(self, mode: str, rounds: Iterable[tuple[str, str]]) -> int:
        """Each (table, round) into its table's filter; with 'trim' its record deleted too
        (the archiver: archived and past the window). How many records were deleted."""
        keys: list[str] = []
        args: list[str] = [mode]
        for table, round_id in rounds:
            keys += [self._k.round(table, round_id), self._k.table(table), self._k.forgotten(table)]
            args.append(probes_json(table, round_id))
        if len(args) == 1:
            return 0
        return int(self._script(keys=keys, args=args))

    def carry(self, table: str, into: ForgottenRounds, rounds: Iterable[str]) -> None:
        """A moving table's filter into its new group (OR-ed with any it had there from an
        earlier stay), and the rounds whose records were copied there: those copies expire
        rather than being trimmed. Runs while the table is sealed, after the copy: a record
        trimmed here meanwhile is in the filter read now, or was copied."""
        bits, theirs = self._bits(table), into._bits(table)
        held = int(self._r.hget(self._k.table(table), "forgotten") or 0)
        theirs_held = int(into._r.hget(into._k.table(table), "forgotten") or 0)
        size = max(len(bits), len(theirs))
        merged = bytes(
            a | b for a, b in zip(bits.ljust(size, b"\0"), theirs.ljust(size, b"\0"), strict=True)
        )
        if merged:
            with into._r.pipeline(transaction=True) as pipe:
                pipe.set(into._k.forgotten(table), merged)
                # the layers of both: as many rounds as the two held (a layer counted too many
                # is only tested, never wrongly trusted)
                pipe.hset(into._k.table(table), "forgotten", held + theirs_held)
                pipe.execute()
        into.call("remember", ((table, r) for r in rounds))

    def _bits(self, table: str) -> bytes:
        """The table's filter as it is stored (bytes, whatever the client decodes)."""
        raw = self._r.execute_command("GET", self._k.forgotten(table), NEVER_DECODE=[])
        return bytes(raw or b"")
