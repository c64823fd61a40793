"""The payouts' history for a shift: search, totals and each payout's full record.

The archive's index (jackpot.archive.payoutindex) answers for every payout whose entries it
has taken; Redis answers for the live edge: the payouts still owed and those paid or voided
since the archive last took their entries (PayoutStore.live). A search reads the live ones
from Redis and asks the archive for every other one, in the page as in the totals: each
payout is counted once, as it is now, without scanning Redis's payouts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from jackpot.archive.store import Archive
from jackpot.domain.auth import ApiKey
from jackpot.domain.journals import pool_journal
from jackpot.domain.payout import Payout
from jackpot.domain.payoutanswers import PayoutPage, PayoutRecord, PayoutStep, StatusTotal
from jackpot.domain.payoutrecord import ENTRY_TYPES, PayoutQuery, cursor_text, order
from jackpot.errors import NotFoundError
from jackpot.services.fanout import GroupedPayouts
from jackpot.store.journal import JournalStore

MAX_PAGE = 1000
# a step's key, and the field naming its holder
NAMED = (("confirmed_by", "confirmer"), ("disputed_by", "disputer"), ("voided_by", "voider"))


class PayoutHistory:
    def __init__(
        self,
        archive: Archive,
        payouts: GroupedPayouts,
        journal: Callable[[str | None], JournalStore],  # a pool's, in its group
        keys: Callable[[], list[tuple[ApiKey, bool]]],
        covering: Callable[[str, PayoutStep], dict[str, Any] | None],
    ) -> None:
        self._covering = covering  # the signed checkpoint covering a journal's step (D257)
        self._archive = archive
        self._payouts = payouts
        self._journal = journal
        self._keys = keys

    def holders(self) -> dict[str, str]:
        """Each key's `who` to its holder's name ('' when it was given none)."""
        return {key.who: key.label for key, _ in self._keys()}

    def search(self, query: PayoutQuery, limit: int) -> PayoutPage:
        """A page of the payouts `query` matches, newest first (at most `limit`), with the
        totals of every match by status."""
        live = {p.id: p for p in self._payouts.live()}
        # each payout counted once, by whichever side holds it as it is now: the live ones
        # from Redis, the archive asked for the others (so a run that commits meanwhile
        # changes nothing here)
        found = self._archive.search_payouts(query, limit + 1, list(live))
        found += [p for p in live.values() if query.matches(p)]
        found.sort(key=order, reverse=True)
        page = found[:limit]
        every = replace(query, before=None)
        totals = self._archive.payout_totals(every, list(live))
        for now in live.values():
            if every.matches(now):
                _count(totals, now)
        holders = self.holders()
        return PayoutPage(
            tuple(self._named(p, holders) for p in page),
            {status: StatusTotal(n, cents) for status, (n, cents) in sorted(totals.items())},
            cursor_text(order(page[-1])) if len(found) > limit else None,
        )

    def record(self, payout: str) -> PayoutRecord:
        """The payout as it is, and every step it took: what, when, which key and person,
        and what the step recorded, each with its place in its pool's journal; and the signed
        checkpoint covering its newest step."""
        live = self._payouts.many([payout])
        current = live[0] if live else self._archive.payout_records([payout]).get(payout)
        if current is None:
            raise NotFoundError("payout", payout)
        pool = current.pool
        journal = pool_journal(pool)
        holders = self.holders()
        steps = tuple(
            PayoutStep.of(fields, seq, hash_ or None, holders.get(fields.get("who", "")) or None)
            for seq, (fields, hash_) in sorted(self._entries(payout, pool, current).items())
        )
        covered = self._covering(journal, steps[-1]) if steps else None
        return PayoutRecord(self._named(current, holders), journal, steps, covered)

    def _entries(
        self, payout: str, pool: str, current: Payout
    ) -> dict[int, tuple[dict[str, str], str]]:
        """The payout's entries by seq, each with its stored hash ('' for those in Redis)."""
        tip, _ = self._archive.tip(pool_journal(pool))  # before the index: a run between overlaps
        _, archived = self._archive.payout_entries(payout)
        steps = {e.seq: (e.by_name(), hash_) for e, hash_ in archived}
        # the steps the archive has not taken yet: the journal's tail past its tip, from the
        # payout's making on (in Redis; the making found by the tail's time index)
        after = max(tip, self._journal(pool).seq_at(pool, int(current.created)) - 1)
        for entry in self._journal(pool).scan(pool, after):
            if entry.fields.get("payout") == payout and entry.fields.get("type") in ENTRY_TYPES:
                steps.setdefault(entry.seq, ({k: str(v) for k, v in entry.fields.items()}, ""))
        return steps

    @staticmethod
    def _named(payout: Payout, holders: dict[str, str]) -> Payout:
        """The payout as the history shows it: the holders of the keys that confirmed,
        disputed and voided it named (`confirmer`, `disputer`, `voider`: the archive's entries
        name the keys), the people as compared left out."""
        named: dict[str, Any] = {}
        for step_key, holder in NAMED:
            key = getattr(payout, step_key)
            if key and not getattr(payout, holder):
                named[holder] = holders.get(key) or key
        return replace(payout, people=None, **named)


def _count(totals: dict[str, tuple[int, int]], payout: Payout) -> None:
    status = str(payout.status)
    n, cents = totals.get(status, (0, 0))
    totals[status] = (n + 1, cents + int(payout.amount))
