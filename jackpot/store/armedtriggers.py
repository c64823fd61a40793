"""The self-check of the pools' armed triggers: each is the one its commitment and journal
vouch for, as settle_round.lua checks it when it pays (`committed`, `superseded`)."""

from __future__ import annotations

from redis import Redis

from jackpot.domain.triggers import revealed
from jackpot.store.keys import Keys


class ArmedTriggers:
    #: the pool hash's fields the check reads (ConfigStore.meter_fields)
    FIELDS = ("trigger", "trigger_salt", "commitment", "draw", "armed_seq")

    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys
        # the self-check's scan for a newer draw (problems): per pool, the arming it checked
        # (commitment, draw, seq armed at) and the journal seq it has read up to, so that
        # each pass reads only the entries appended since the last one
        self._scanned: dict[str, tuple[tuple[str, str, int], int]] = {}

    def problems(self, meters: dict[str, list[str | None]]) -> list[str]:
        """Each armed trigger that is not the one committed (the self-check's, as the round
        script checks it when it pays, settle_round.lua `committed`): its trigger and salt
        open its commitment, and the journal entry that armed it, while Redis holds it,
        names that commitment and draw, and nothing after it armed or revealed a trigger (it
        is the newest draw). `meters`: each pool's FIELDS. Read here and never returned: the
        trigger and salt stay hidden."""
        found = []
        for pool, fields in meters.items():
            problem = self._problem(pool, fields)
            if problem is not None:
                found.append(problem)
        return found

    def _problem(self, pool: str, fields: list[str | None]) -> str | None:
        """What is wrong with `pool`'s armed trigger, checked in that order; None if nothing
        is (or none is armed)."""
        trigger, salt, commitment, draw, seq = fields
        if commitment is None:
            return None
        if not _opens(commitment, pool, trigger, salt):
            return f"pool {pool}: its armed trigger and salt do not open draw {draw}'s commitment"
        at, armed = self._armed_entry(pool, seq)
        if not _arms(armed, commitment, draw):
            return (
                f"pool {pool}: its armed commitment is not the one its journal armed for draw "
                f"{draw}"
            )
        if self._superseded(pool, (commitment, draw or "", at)):
            return (
                f"pool {pool}: its armed draw {draw} is not the newest: its journal armed or "
                "revealed a trigger after it"
            )
        return None

    def _superseded(self, pool: str, armed: tuple[str, str, int]) -> bool:
        """Whether `pool`'s journal, after the seq `armed` names, arms another trigger or
        reveals one (an entry naming `trigger_cents`), as settle_round.lua `superseded`
        checks at a hit: the armed draw is then an old one put back. Incremental: a pass
        reads only the entries appended since the last pass checked the same arming."""
        journal = self._k.pool_journal(pool)
        held = self._scanned.get(pool)
        upto = held[1] if held is not None and held[0] == armed else armed[2]
        while True:
            batch = self._r.xrange(journal, f"{upto + 1}-0", "+", count=512)
            for entry_id, entry in batch:
                if "trigger_cents" in entry or entry.get("type") == "trigger_armed":
                    self._scanned.pop(pool, None)
                    return True
                upto = _seq(entry_id)
            if len(batch) < 512:
                self._scanned[pool] = (armed, upto)
                return False

    def _armed_entry(self, pool: str, seq: str | None) -> tuple[int, dict[str, str] | None]:
        """The seq and the journal entry that armed `pool`'s trigger (by the seq the pool
        keeps, or the newest `trigger_armed`), None once archived and trimmed (seq 0 for a
        trigger armed before the pool kept its seq); an entry that should be there and is
        not: an empty one."""
        journal = self._k.pool_journal(pool)
        if seq is not None and seq.isdigit():
            return int(seq), self._entry_at(journal, seq)
        return self._newest_armed(journal)

    def _entry_at(self, journal: str, seq: str) -> dict[str, str] | None:
        """The journal's entry at `seq`: None once archived and trimmed, {} if it should be
        there and is not."""
        rows = self._r.xrange(journal, f"{seq}-0", f"{seq}-0")
        if rows:
            return dict(rows[0][1])
        first = self._r.xrange(journal, "-", "+", count=1)
        trimmed = not first or _seq(first[0][0]) > int(seq)
        return None if trimmed else {}

    def _newest_armed(self, journal: str) -> tuple[int, dict[str, str] | None]:
        """The seq and entry of the journal's newest `trigger_armed`, read back from its end
        (0 and None when it holds none)."""
        upto = "+"
        while True:
            batch = self._r.xrevrange(journal, upto, "-", count=256)
            for entry_id, entry in batch:
                if entry.get("type") == "trigger_armed":
                    return _seq(entry_id), dict(entry)
            if len(batch) < 256:
                return 0, None
            before = _seq(batch[-1][0]) - 1
            if before < 1:
                return 0, None
            upto = f"{before}-0"


def _opens(commitment: str, pool: str, trigger: str | None, salt: str | None) -> bool:
    """Whether the armed trigger and salt open the commitment."""
    return (trigger or "").isdigit() and revealed(commitment, pool, int(trigger or "0"), salt or "")


def _arms(entry: dict[str, str] | None, commitment: str, draw: str | None) -> bool:
    """Whether the journal entry armed this commitment and draw (None: archived and
    trimmed, nothing to compare)."""
    return entry is None or (
        entry.get("type") == "trigger_armed"
        and (entry.get("commitment"), entry.get("draw")) == (commitment, draw)
    )


def _seq(entry_id: object) -> int:
    """A journal entry's seq: its stream id's first part."""
    return int(str(entry_id).split("-")[0])
