"""Round reports: one script call per round, idempotent under (table, round)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from jackpot import jsonio
from jackpot.conflicts import RoundConflictError, TableDisabledError
from jackpot.domain.auth import ApiKey, digest
from jackpot.domain.config import TableRecord
from jackpot.domain.report import (
    RoundReport,
    body_digest,
    parse_dealt_at,
    parse_report,
)
from jackpot.domain.roundanswers import RoundResult
from jackpot.domain.settlement import Settlement, settle
from jackpot.errors import (
    ControllerInoperableError,
    JackpotError,
    RoundExpiredError,
    ShoeOverdrawnError,
    StoreUnavailableError,
    UnauthenticatedError,
    ValidationError,
)
from jackpot.metrics.instruments import record_round
from jackpot.services.credentials import Credentials
from jackpot.services.selfcheck import SelfCheck
from jackpot.services.tables import MAX_STALE_RETRIES, Tables
from jackpot.store.rounds import MeterPlan, RoundStore, SettleStatus, StoredRound, parse_dynamic


class ArchivedRounds(Protocol):
    """Where rounds that left Redis are found: (digest, static JSON, dynamic JSON) or None."""

    def __call__(self, table: str, round_id: str) -> tuple[str, str, str] | None: ...


@dataclass(frozen=True, slots=True)
class Window:
    """How long Redis keeps a round's record, and how far a table's clock may be off (ms)."""

    retention_ms: int
    skew_ms: int


class Rounds:
    def __init__(
        self,
        store: RoundStore,
        tables: Tables,
        credentials: Credentials,
        archived: ArchivedRounds,
        window: Window,
        clock: Callable[[], int],
        health: SelfCheck,
        day_of: Callable[[int], str] = lambda ms: "",
        handpay_cents: int = 0,
    ) -> None:
        self._health = health
        self._handpay_cents = handpay_cents  # a fixed or envy pay this large is a hand pay
        self._day_of = day_of  # the controller's gaming day of a time (YYYY-MM-DD)
        self._store = store
        self._tables = tables
        self._credentials = credentials
        self._archived = archived
        self._window = window
        self._clock = clock

    def report(self, table: str, round_id: str, body: Any, key: ApiKey, secret: str) -> RoundResult:
        """Settle the report of round `round_id` of `table` (`_report`), its envelope read and
        `table` authorised for `key` by the caller (LinkGroups.report_round, once a round).
        The worker's cached key is trusted only where the round script checks it again: any
        other answer (a 400, a conflict, a replay found outside the script) is given only
        once the key is looked up and still valid, so a revoked key is answered nothing
        (D232)."""
        try:
            answer, by_script = self._report(table, round_id, body, key, secret)
        except (UnauthenticatedError, StoreUnavailableError):
            raise
        except JackpotError:
            self._credentials.recheck(secret)
            raise
        if not by_script:
            self._credentials.recheck(secret)
        return answer

    def _report(
        self, table: str, round_id: str, body: Any, key: ApiKey, secret: str
    ) -> tuple[RoundResult, bool]:
        """Settle a round report: one script call, idempotent under (table, round); with
        whether the round script gave the answer (and so checked the key).

        A round's record stays in Redis for the retention window after it was settled, so a
        report dealt well inside the window is new exactly when the script finds no record.
        A report that may be older than that (dealt near or before the window's start, or
        without `dealt_at`) is first looked up in Redis and the archive: an archived round
        is answered with its first result, and one dealt before the window that was never
        settled is refused as expired rather than settled late (docs/DECISIONS.md D77).
        """
        report_digest = body_digest(body)
        earlier, looked_up = self._look_back(table, round_id, body, report_digest)
        if earlier is not None:
            return earlier, False
        key_digest = digest(secret)
        refresh = False
        for _ in range(MAX_STALE_RETRIES):
            record = self._tables.cached(table, refresh)
            try:
                if not record.config.enabled:
                    raise TableDisabledError(table)
                report = parse_report(body, record.config)
            except (ValidationError, TableDisabledError):
                if not refresh:
                    # this worker's copy of the table may predate the change the report needs
                    refresh = True
                    continue
                # An acknowledged round is always answered, even after its table changed.
                replay = self._replay(table, round_id, report_digest)
                if replay is not None:
                    return replay, False
                raise
            settlement = settle(report, record.config)
            plan = with_shoe(
                plan_round(
                    record, report.round, report_digest, key, key_digest, settlement,
                    self._handpay_cents,
                ),
                report,
                record.config.decks,
            )  # fmt: skip
            if looked_up:
                plan = replace(plan, looked_up=True)
            try:
                # an inoperable controller still answers a resend of a settled round (the
                # script finds it first); it settles nothing new
                stored = self._store.settle(plan, self._health.latest().operable)
            except ShoeOverdrawnError as overdrawn:
                # the store knows the card; the report, the field that shows the copy too many
                overdrawn.field = extra_copy(report, overdrawn)
                raise
            except ControllerInoperableError as refused:
                # check now: record it, journal it, stop the other rounds, and say why
                health = self._health.run()
                if health.operable:
                    refresh = False  # another process's finding, fixed since: once more
                    continue
                raise ControllerInoperableError([p.message for p in health.problems]) from refused
            if stored.status is SettleStatus.STALE:
                refresh = True
                continue
            if stored.status is SettleStatus.FORGOTTEN:
                # its table's filter names it: whatever its dealt_at, the archive decides
                # whether it was settled (docs/DECISIONS.md D225)
                earlier = self._earlier(table, round_id, report_digest)
                if earlier is not None:
                    return earlier, False
                looked_up = True  # a false positive of the filter: settle it
                continue
            if stored.status is SettleStatus.REVOKED:
                self._credentials.forget(key_digest)
                raise UnauthenticatedError("unknown or revoked API key")
            replayed = stored.status is SettleStatus.REPLAYED
            if not replayed:
                record_round(settlement, stored.dynamic["jackpots"])
            return _response(stored, replayed, self._day_of), True
        raise StoreUnavailableError("the table's configuration kept changing; nothing was applied")

    def _look_back(
        self, table: str, round_id: str, body: Any, report_digest: str
    ) -> tuple[RoundResult | None, bool]:
        """Before settling: (the first answer of a round settled earlier, else None; whether
        Redis and the archive were asked). A report dealt ahead of the clock is refused; one
        that may be older than Redis's record is looked up, and one dealt before the window
        that was never settled is refused as expired."""
        dealt = parse_dealt_at(body)
        now, w = self._clock(), self._window
        if dealt is not None and dealt > now + w.skew_ms:
            raise ValidationError(
                "dealt_at",
                f"is more than {w.skew_ms // 1000} s ahead of the controller's clock: "
                "check the table's clock",
                "in_future",
            )
        if dealt is not None and dealt >= now - w.retention_ms + w.skew_ms:
            return None, False  # well inside the window: new exactly when Redis has no record
        earlier = self._earlier(table, round_id, report_digest)
        if earlier is None and dealt is not None and dealt < now - w.retention_ms:
            # a body that is not a valid report is a 400 naming its field, expired or not
            parse_report(body, self._tables.cached(table, False).config)
            raise RoundExpiredError(table, round_id, w.retention_ms // 1000)
        return earlier, True

    def stored(self, table: str, round_id: str) -> RoundResult | None:
        """A reported round's first result, from Redis or the archive, or None."""
        found = self._find(table, round_id)
        return None if found is None else _response(found[1], False, self._day_of)

    def result(self, table: str, round_id: str) -> StoredRound | None:
        """A reported round's stored result (its static and dynamic parts), or None."""
        found = self._find(table, round_id)
        return None if found is None else found[1]

    def _replay(self, table: str, round_id: str, report_digest: str) -> RoundResult | None:
        found = self._find(table, round_id, acknowledge=True)
        if found is None or found[0] != report_digest:
            return None
        return _response(found[1], True, self._day_of)

    def _earlier(self, table: str, round_id: str, report_digest: str) -> RoundResult | None:
        """The first result of a round reported before, a conflict, or None if it never was."""
        found = self._find(table, round_id, acknowledge=True)
        if found is None:
            return None
        if found[0] != report_digest:
            raise RoundConflictError(table, round_id)
        return _response(found[1], True, self._day_of)

    def _find(
        self, table: str, round_id: str, acknowledge: bool = False
    ) -> tuple[str, StoredRound] | None:
        """(digest, first result) of a round from Redis or the archive. To `acknowledge` it
        (answer a resend), one found in Redis must first be on the replicas (a no-op without
        a replica wait): it may have been written a moment ago, on another connection."""
        found = self._store.stored(table, round_id)
        if found is not None:
            if acknowledge:
                self._store.confirm(table, round_id)
            return found
        # Redis forgets a round only after the archive has committed it
        archived = self._archived(table, round_id)
        if archived is None:
            return None
        if not archived[0]:
            # settled once (the house journal says so) but its record was lost before it was
            # archived: never settle it again
            raise RoundConflictError(table, round_id)
        stored = StoredRound(
            SettleStatus.REPLAYED, json.loads(archived[1]), parse_dynamic(archived[2])
        )
        return archived[0], stored


def extra_copy(report: RoundReport, overdrawn: ShoeOverdrawnError) -> str:
    """The field of the report's copy of the card that goes over what the shoe holds: with
    `before` copies in the shoe's earlier rounds, this round's (decks - before + 1)th, in the
    order the report shows its cards (as a round's own copies are counted, `_check_shoe`)."""
    fields = [f for f, c in report.shown() if str(c) == overdrawn.card]
    return fields[max(0, min(overdrawn.decks - overdrawn.before, len(fields) - 1))]


def with_shoe(plan: MeterPlan, report: RoundReport, decks: int) -> MeterPlan:
    """The plan with the shoe audit's part: the cards the round shows, for the script to
    count with the shoe's earlier rounds (none without a `shoe`)."""
    if report.shoe is None:
        return plan
    shown = Counter(str(card) for _, card in report.shown())
    return replace(plan, shoe=report.shoe, cards=tuple(shown.items()), decks=decks)


def plan_round(
    record: TableRecord,
    round_id: str,
    report_digest: str,
    key: ApiKey,
    key_digest: str,
    s: Settlement,
    handpay_cents: int = 0,
) -> MeterPlan:
    spots = []
    for b in s.bets:
        if b.player is None:
            spot = {"spot": b.spot, "outcome": b.outcome.value, "wager": b.wager, "pay": b.pay,
                    "envy": b.envy}  # fmt: skip
        else:
            spot = {"spot": b.spot, "player": b.player, "outcome": b.outcome.value,
                    "wager": b.wager, "pay": b.pay, "envy": b.envy}  # fmt: skip
        spots.append(spot)
    static = {"table": record.table, "round": round_id, "spots": spots}
    pools = record.config.pools
    return MeterPlan(
        table=record.table,
        round=round_id,
        digest=report_digest,
        table_version=record.version,
        key_digest=key_digest,
        who=key.who,
        pools=pools,
        wagered=s.wagered,
        bets=len(s.bets),
        fixed=s.fixed_paid,
        envy=s.envy_paid,
        hits=tuple(
            {
                "pool": pools.index(h.pool) + 1,
                "bet": h.bet,
                "bp": h.meter_bp,
                "spot": spots[h.bet]["spot"],
                "player": s.bets[h.bet].player,
                "outcome": spots[h.bet]["outcome"],
                # below its qualifying wager: that part of the share (w / q)
                **({"w": h.scale[0], "q": h.scale[1]} if h.scale else {}),
            }
            for h in s.hits
        ),
        envies=tuple(
            {"spot": e.spot, "outcome": e.outcome.value, "receivers": e.receivers, "total": e.total}
            for e in s.envies
        ),
        # fixed and envy pays from the hand-pay threshold up: held for verification
        held=tuple(
            {
                "bet": i,
                "kind": kind,
                "amount": amount,
                "spot": b.spot,
                "player": b.player,
                "outcome": spots[i]["outcome"],
            }
            for i, b in enumerate(s.bets if handpay_cents else ())
            for kind, amount in (("fixed", b.pay), ("envy", b.envy))
            if amount >= handpay_cents
        ),
        static=static,
        static_json=jsonio.dumps(static),
    )


def _response(stored: StoredRound, replayed: bool, day_of: Callable[[int], str]) -> RoundResult:
    return RoundResult.of(stored.static, stored.dynamic, replayed, day_of)
