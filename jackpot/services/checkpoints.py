"""Signed checkpoints of the journals' heads (docs/DECISIONS.md D253-D259): the worker makes
them, the archive keeps them, anyone may fetch them, and `jackpot verify` holds the history to
them, whether the archive's own or ones an auditor kept elsewhere.

What is signed and how: jackpot.domain.checkpoints. The key: a PEM file the settings name
(JACKPOT_CHECKPOINT_KEY), made by `jackpot checkpoints keygen`, never in Redis or the archive;
reading it, and the checkpoints an auditor kept: jackpot.services.checkpointfiles.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from jackpot.archive.checkpoints import CheckpointArchive
from jackpot.archive.verify import Finding
from jackpot.domain import checkpoints as rule
from jackpot.domain.checkpoints import Head
from jackpot.domain.gamingday import EPOCH, MILLISECOND
from jackpot.domain.journals import pool_journal
from jackpot.domain.payoutanswers import PayoutStep
from jackpot.errors import ArchiveUnavailableError
from jackpot.services.checkpointfiles import CHECKPOINTS, NoCheckpointKeyError, read_key
from jackpot.services.checkpointfindings import (
    Where,
    compare,
    edited_rows,
    gaps,
    signed_by,
    signed_heads,
)
from jackpot.store.checkpoints import HeadStore

log = logging.getLogger("jackpot.checkpoints")

STAMP_MARGIN_MS = 300_000  # how far an entry's stamp may be ahead of a checkpoint's clock
SHORT_FOR_MS = 5_000  # how long the signs show a latest checkpoint before reading it again
LOCK_MS = 60_000  # a run's lock lapses after this long, should its worker die holding it
CLOSE_WAIT_S = 5.0  # how long a day's close waits for another run's lock before giving up


@dataclass(slots=True)
class CheckpointCheck:
    """What holding the history to a set of checkpoints found."""

    checked: int = 0  # checkpoints whose signature verified and whose heads were compared
    heads: int = 0  # signed heads compared with the history
    key: str = ""  # the fingerprint of the key they were checked with
    key_source: str = ""  # where that key came from
    unchecked: str | None = None  # why they could not be checked at all
    findings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "heads": self.heads,
            "key": self.key,
            "key_source": self.key_source,
            "findings": [f.to_json() for f in self.findings],
        }


class Checkpoints:
    def __init__(
        self,
        archive: CheckpointArchive,
        stores: Callable[[], list[HeadStore]],  # one per link group, the main group's first
        key_file: Path,
        clock: Callable[[], int],
        seal: Callable[[], str],  # the running software's digest (jackpot.integrity)
    ) -> None:
        self._archive = archive
        self._stores = stores
        self.key_file = key_file
        self._clock = clock
        self._seal = seal
        self._short: dict[str, Any] | None = None
        self._short_read = -SHORT_FOR_MS

    # --- making them -----------------------------------------------------------------------

    def heads(self) -> list[Head]:
        """Every journal's head; each link group's read in one transaction."""
        return [h for store in self._stores() for h in store.heads()]

    def make(self, reason: str, day: str | None = None) -> dict[str, Any] | None:
        """Sign and keep a checkpoint of the heads now, unless (`reason` "interval") none moved
        since the last one; the checkpoint, or None. NoCheckpointKeyError without a key."""
        key = read_key(self.key_file)
        main = self._stores()[0]
        token = secrets.token_hex(8)
        if not main.take_lock(token, LOCK_MS):
            return None  # another worker's run is making one
        try:
            return self._make_holding_lock(key, reason, day)
        finally:
            main.release_lock(token)

    def _make_holding_lock(
        self, key: Ed25519PrivateKey, reason: str, day: str | None
    ) -> dict[str, Any] | None:
        """The checkpoint of the heads now, chained to the latest one and kept (None when,
        for an "interval" one, no head moved since it, or the archive does not add it)."""
        latest = self._archive.latest()
        heads = self.heads()
        signed = {h.journal: [h.seq, h.hash] for h in heads}
        if reason == "interval" and latest is not None and latest["heads"] == signed:
            return None
        made = rule.make(
            key,
            1 if latest is None else int(latest["id"]) + 1,
            self._clock(),
            heads,
            self._seal(),
            "" if latest is None else str(latest["hash"]),
            reason,
            day,
        )
        return made if self._archive.add(made) else None

    def sign_close(self, day: str) -> dict[str, Any] | None:
        """The checkpoint signed at gaming day `day`'s close, made now unless one names the
        day already: whatever closed it (the worker, `jackpot accounting close`) calls this
        (D265). None, said at ERROR, without a key or when no run could take the lock."""
        deadline = time.monotonic() + CLOSE_WAIT_S
        while True:
            found = self._archive.of_day(day)
            if found is not None:
                return found
            try:
                made = self.make("day_close", day)
            except NoCheckpointKeyError as exc:
                log.error("checkpoints: the close of %s is not signed: %s", day, exc)
                return None
            if made is not None:
                log.info("gaming day %s: checkpoint #%d signed at its close", day, made["id"])
                return made
            if time.monotonic() > deadline:  # another run held the lock all along
                log.error("checkpoints: the close of %s is not signed: the lock stayed held", day)
                return None
            time.sleep(0.05)

    def at_close(self, day: str) -> dict[str, Any] | None:
        """The short form of the checkpoint signed at gaming day `day`'s close (None: none)."""
        return rule.summary(self._archive.of_day(day))

    def unsigned_why(self) -> str:
        """Why a closed day has no checkpoint of its close, as an operator is told it."""
        try:
            self.public_key()
        except NoCheckpointKeyError as exc:
            return str(exc)
        return "none was made at its close; `jackpot accounting close` for the day signs one"

    # --- reading them ----------------------------------------------------------------------

    def public_key(self) -> Ed25519PublicKey:
        return read_key(self.key_file).public_key()

    def latest(self) -> dict[str, Any] | None:
        return self._archive.latest()

    def latest_short(self) -> dict[str, Any] | None:
        """The latest checkpoint's short form for the signs, read at most every SHORT_FOR_MS
        (a sign process asks each second); None while the archive does not answer."""
        now = self._clock()
        if now - self._short_read >= SHORT_FOR_MS:
            try:
                self._short = rule.summary(self._archive.latest())
            except ArchiveUnavailableError as exc:
                log.warning("the latest checkpoint could not be read: %s", exc)
                self._short = None
            self._short_read = now
        return self._short

    def get(self, number: int) -> dict[str, Any] | None:
        return self._archive.get(number)

    def after(self, number: int, limit: int) -> list[dict[str, Any]]:
        return self._archive.after(number, limit)

    def covering(self, journal: str, seq: int, since_ts: int) -> dict[str, Any] | None:
        """The short form of the first checkpoint covering entry `seq` of `journal` (stamped
        `since_ts`); None: not yet covered."""
        return rule.summary(self._archive.covering(journal, seq, since_ts))

    def of_payout(self, journal: str, step: PayoutStep) -> dict[str, Any] | None:
        """The short form of the first checkpoint covering a payout's step in its pool's
        `journal` (its newest, for its full record: jackpot.services.payouthistory); None:
        not yet covered."""
        # stamps are Redis's clock, a checkpoint's the worker's: a margin for their skew
        return self.covering(journal, step.seq, step.at - STAMP_MARGIN_MS)

    def of_day(self, statement: dict[str, Any]) -> dict[str, Any] | None:
        """The short form of the checkpoint made at a closed day's close; else the first made
        since the day began covering every head the day recorded; None: not yet covered."""
        found = self._archive.of_day(str(statement["day"]))
        first = self._archive.first_at(_ms(str(statement["start"])))
        if found is None and first is not None:
            heads: dict[str, list[Any]] = statement["heads"]
            found = next(
                (
                    c
                    for c in self._archive.walk(first - 1)
                    if all(rule.covers(c, j, int(p[0])) for j, p in heads.items())
                ),
                None,
            )
        return rule.summary(found)

    # --- holding the history to them -------------------------------------------------------

    def check_stored(self, since: int | None = None) -> CheckpointCheck:
        """The archive's own checkpoints (those made from `since`, epoch ms, and the one
        before them; None: all): numbered without a gap, each naming the one before by its
        hash, each signed by the controller's key, each head the history's."""
        out = CheckpointCheck(key_source="the controller's key")
        after = self._walked_after(since)
        if after is None:
            return out
        rows = list(self._archive.walk_rows(after))
        stored = [body for body, _ in rows]
        if not stored:
            return out
        out.findings += edited_rows(rows)
        try:
            key = self.public_key()
        except NoCheckpointKeyError as exc:
            # a host without the key (it belongs on the worker's): not a finding of history;
            # `jackpot verify` says they were not checked (D258)
            out.unchecked = str(exc)
            return out
        out.findings += gaps(stored, after)
        self._check(stored, key, out)
        return out

    def _walked_after(self, since: int | None) -> int | None:
        """The number after which check_stored walks the archive's checkpoints: the one
        before the first made from `since` (None: from the first); None when none was."""
        if since is None:
            return 0
        first = self._archive.first_at(since)
        return None if first is None else max(first - 2, 0)

    def stored_unchecked(self) -> str | None:
        """Why the archive's own checkpoints cannot be checked here (no key), if they exist."""
        if self._archive.latest() is None:
            return None
        try:
            self.public_key()
        except NoCheckpointKeyError as exc:
            return str(exc)
        return None

    def check(
        self, given: Sequence[dict[str, Any]], key: Ed25519PublicKey | None, source: str
    ) -> CheckpointCheck:
        """Checkpoints kept outside the controller: each signed by `key` (None: the
        controller's own), each head the entry the history holds at that seq."""
        out = CheckpointCheck(key_source=source)
        if key is None:
            out.key_source = f"the controller's key ({self.key_file})"
            try:
                key = self.public_key()
            except NoCheckpointKeyError as exc:
                out.findings.append(Finding(CHECKPOINTS, None, str(exc)))
                return out
        self._check(given, key, out)
        return out

    def _check(
        self, given: Iterable[dict[str, Any]], key: Ed25519PublicKey, out: CheckpointCheck
    ) -> None:
        out.key = rule.fingerprint(key)
        sound, unsound = signed_by(given, key)
        out.findings += unsound
        out.checked = len(sound)
        where, ends = self._journals()
        signed, gone = signed_heads(sound, where, ends)
        out.findings += gone
        for journal, pairs in sorted(signed.items()):
            out.heads += len(pairs)
            store, in_pool = where[journal]
            out.findings += compare(journal, pairs, self._hashes(journal, store, in_pool, pairs))

    def _journals(self) -> tuple[dict[str, Where], dict[str, int]]:
        """Where each journal is, and the seq each ends at now."""
        where: dict[str, Where] = {}
        ends: dict[str, int] = {}
        for store in self._stores():
            heads = store.heads()
            house = heads[0].journal
            where[house] = (store, None)
            for pool in store.pools():
                where[pool_journal(pool)] = (store, pool)
            ends.update((h.journal, h.seq) for h in heads)
        return where, ends

    def _hashes(
        self,
        journal: str,
        store: HeadStore,
        pool: str | None,
        heads: list[tuple[int, str, int]],
    ) -> dict[int, str]:
        """The history's hash at each signed seq: the archive's, else Redis's tail's."""
        seqs = [seq for seq, _, _ in heads]
        found = self._archive.hashes_at(journal, seqs)
        live = [s for s in seqs if s not in found]
        if live:
            found.update(store.hashes_at(pool, live))
        return found


def _ms(iso: str) -> int:
    """An ISO 8601 instant with its offset, as a statement writes it, in epoch ms."""
    return (datetime.fromisoformat(iso) - EPOCH) // MILLISECOND
