"""Jackpot payouts and their verification (hand pays); the steps are payout_status.lua's."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis import Redis

from jackpot.conflicts import (
    NoVoidAwaitingError,
    PayoutChangedError,
    PayoutStateError,
    RoundVoidHeldError,
    SecondPersonError,
)
from jackpot.domain.payout import Payout, PayoutAfterStep
from jackpot.domain.payoutids import payout_number
from jackpot.domain.payoutrecord import changed_at
from jackpot.domain.people import person_of
from jackpot.domain.requests import WITNESS_IS_NOT_THE_CONFIRMER, WITNESS_IS_NOT_THE_PAYER
from jackpot.domain.voids import covers
from jackpot.errors import JackpotError, NotFoundError
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

SETTLED = ("paid", "void")  # a payout in these owes nothing more


def payout_order(payout: Payout) -> tuple[int, int]:
    """Newest first when reversed: by creation, then by number (P000123, east:P000123)."""
    return int(payout.created), payout_number(payout.id)


def void_order(payout: Payout) -> tuple[int, int, int]:
    """Oldest void request first, then by creation and number."""
    asked = payout.void_request
    return (int(asked.at) if asked else 0, *payout_order(payout))


def _read(raw: str | bytes) -> Payout:
    """A payout as the scripts write it."""
    return Payout.of(json.loads(raw))


class PayoutStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def get(self, payout: str) -> Payout:
        raw = self._r.hget(self._k.payouts, payout)
        if raw is None:
            raise NotFoundError("payout", payout)
        return _read(raw)

    def many(self, ids: list[str]) -> list[Payout]:
        """The payouts with these ids that exist, in one read."""
        raws = self._r.hmget(self._k.payouts, ids) if ids else []
        return [_read(r) for r in raws if r]

    def list(self, status: str | None, limit: int) -> list[Payout]:
        """Payouts, newest first. Those still owing come from their indexes (the console
        reads them every few seconds: never a scan of the history); paid and void ones, and
        all of them, from a scan."""
        if status == "pending":
            return self.many(self._r.zrevrange(self._k.payouts_pending, 0, limit - 1))
        if status in ("awaiting_approval", "disputed"):  # the open index: no scan
            self._build_open()
            found = self.many(self._r.zrange(self._k.payouts_open, 0, -1))
            out = [p for p in found if p.status == status]
            out.sort(key=payout_order, reverse=True)
            return out[:limit]
        out = []
        for _, raw in self._r.hscan_iter(self._k.payouts, count=1000):
            payout = _read(raw)
            if status is None or payout.status == status:
                out.append(payout)
        out.sort(key=payout_order, reverse=True)
        return out[:limit]

    def unsettled(self) -> builtins.list[Payout]:
        """Every jackpot won and not yet paid or voided (pending, awaiting approval,
        disputed): what the floor still owes, read from the pending and open indexes (the
        live floor's payouts, never the history's)."""
        self._build_open()
        with self._r.pipeline(transaction=False) as pipe:
            pipe.zrange(self._k.payouts_pending, 0, -1)
            pipe.zrange(self._k.payouts_open, 0, -1)
            pending, still_open = pipe.execute()
        ids = list(dict.fromkeys([*pending, *still_open]))
        return [p for p in self.many(ids) if p.status not in SETTLED]

    def awaiting_voids(self) -> builtins.list[Payout]:
        """Every payout with a void asked and awaiting a second person's approval, whatever
        its status (paid, awaiting approval, disputed), oldest request first: read from the
        open index, which holds a paid payout too while a void of it is asked (D286)."""
        self._build_open()
        found = self.many(self._r.zrange(self._k.payouts_open, 0, -1))
        return sorted((p for p in found if p.void_request), key=void_order)

    def live(self) -> builtins.list[Payout]:
        """Every payout the archive may not hold as it is now: those still owed (pending,
        awaiting approval, disputed) and those paid or voided since an archive run last took
        their entries (the settled index); read from the indexes, never a scan."""
        self._build_open()
        self._build_settled()
        with self._r.pipeline(transaction=False) as pipe:
            for index in (self._k.payouts_pending, self._k.payouts_open, self._k.payouts_settled):
                pipe.zrange(index, 0, -1)
            found = pipe.execute()
        return self.many(list(dict.fromkeys(i for ids in found for i in ids)))

    def _build_settled(self) -> None:
        """Once per store: put the paid and voided payouts of a store from before the settled
        index existed in it; the next archive run leaves in it only those it has not taken
        yet."""
        self._build_index(
            self._k.payouts_settled,
            self._k.payouts_settled_built,
            lambda p: changed_at(p) if p.status in SETTLED else None,
        )

    def _build_open(self) -> None:
        """Once per store: put the payouts past a first verdict that still owe, made before
        the open index existed, in it. One that a step settles meanwhile may be put in after:
        unsettled() reads each one's status."""
        self._build_index(
            self._k.payouts_open,
            self._k.payouts_open_built,
            lambda p: (
                payout_order(p)[1]
                if p.status not in (*SETTLED, "pending") or p.void_request
                else None
            ),
        )

    def _build_index(self, index: str, built: str, score: Callable[[Payout], int | None]) -> None:
        """Once per store: every payout `score` gives a score into the zset `index` (a scan of
        the payouts, the last one), then `built` set so that it is never scanned again."""
        if self._r.exists(built):
            return
        found = {}
        for payout_id, raw in self._r.hscan_iter(self._k.payouts, count=1000):
            at = score(_read(raw))
            if at is not None:
                found[payout_id] = at
        with self._r.pipeline(transaction=True) as pipe:
            if found:
                pipe.zadd(index, found)
            pipe.set(built, "1")
            pipe.execute()

    def _step_keys(self, pool: str) -> builtins.list[str]:
        """payout_status.lua's keys for a payout of `pool`."""
        k = self._k
        return [
            k.payouts,
            k.payouts_pending,
            k.pool(pool),
            k.pool_journal(pool),
            k.counters,
            k.payouts_open,
            k.payouts_settled,
            k.voids,
            k.activity,
        ]

    def step(
        self,
        payout: str,
        step: str,
        who: str,
        person: str,
        note: str,
        hand_pay: tuple[str, str, str] = ("", "", ""),
        expect: str = "",
        threshold: int = 0,
        ids: tuple[str, str, str] = ("", "", ""),
        old_name: str = "",
    ) -> PayoutAfterStep:
        """One step (payout_status.lua): the payout after it, and whether it changed. A void
        held for a second person's approval comes back in its status, not void (changed:
        newly asked).

        `who` is the key, `person` the one acting as shown (name and number); `hand_pay` is a
        confirmation's (paid_by, witness, slip) as shown; `ids` the register's ids of the one
        acting (a key held by nobody: the key), the payer and the witness, which the script
        compares (D232); `old_name` the acting person's name as compared before the register
        (jackpot.domain.people.person_of), for records written then.
        `expect` is the status the caller last saw ('' = any); `threshold` the amount in
        cents from which an approval is needed (0: none).
        """
        current = self.get(payout)
        result = self._s.payout_status(
            keys=self._step_keys(current.pool),
            args=[
                payout, step, who, note, *hand_pay, expect, threshold, person, *ids,
                person_of(old_name),
            ],
        )  # fmt: skip
        verdict = result[0]
        if verdict == "missing":
            raise NotFoundError("payout", payout)
        after = _read(result[1])
        refused = _STEP_REFUSALS.get(verdict)
        if refused is not None:
            raise refused(_Answer(payout, step, expect, after, result))
        return PayoutAfterStep.from_payout(after, changed=verdict in ("changed", "asked"))


PAST = {
    "confirm": "confirmed",
    "approve": "approved",
    "dispute": "disputed",
    "void": "voided",
    "approve_void": "voided",
    "refuse_void": "refused a void",
}


@dataclass(frozen=True, slots=True)
class _Answer:
    """A step as payout_status.lua answered it: what was asked, and the payout after it."""

    payout: str
    step: str
    expect: str
    after: Payout
    result: list[Any]


def _void_held(a: _Answer) -> RoundVoidHeldError:
    """The void awaiting a second person's approval that covers the payout (the script's
    third value)."""
    held = json.loads(a.result[2])
    return RoundVoidHeldError(
        a.payout,
        a.after.table,
        a.after.round,
        covers(held.get("plan") or {}),
        str(held.get("label") or held.get("who") or "someone"),
        str(held.get("reason") or ""),
    )


# what payout_status.lua refuses a step with, as the error each refusal raises
_STEP_REFUSALS: dict[str, Callable[[_Answer], JackpotError]] = {
    "stale": lambda a: PayoutChangedError(a.payout, a.after.status, a.expect),
    "refused": lambda a: PayoutStateError(a.payout, a.after.status, PAST[a.step]),
    "same_person": lambda a: SecondPersonError(a.payout, a.step),
    "witness_paid": lambda _: WITNESS_IS_NOT_THE_PAYER.error(),
    "witness_confirms": lambda _: WITNESS_IS_NOT_THE_CONFIRMER.error(),
    "nothing": lambda a: NoVoidAwaitingError(a.payout, a.after.status),
    "void_held": _void_held,
}
