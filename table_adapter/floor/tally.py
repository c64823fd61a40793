"""What a floor run dealt and what the controller answered, and the summary war-floor prints."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jackpot.domain.dayclose import percent
from jackpot.domain.outcomes import Outcome
from table_adapter.game.edge import house_edge
from table_adapter.game.irregularities import Irregularity
from table_adapter.game.profiles import get_profile
from table_adapter.game.records import Round, VoidRound
from table_adapter.game.shoe import Pile, pile_of
from table_adapter.game.strategies import get_strategy, war_share
from table_adapter.link.answers import RoundAnswer, stored_reason
from table_adapter.link.journal import Entry, State
from table_adapter.link.status import LinkState, LinkStatus

if TYPE_CHECKING:
    from table_adapter.floor.plan import FloorPlan


# what a reported round voided at the controller takes back, as the summary lists it
VOIDED = ("rounds", "side_bets", "handle", "fixed", "jackpot", "envy")


@dataclass
class Tally:
    """What the floor dealt and what the controller answered; thread-safe, cents only."""

    run: str  # this run's round-id prefix: answers to older rounds count as recovered
    rounds: int = 0
    void_rounds: int = 0  # rounds whose hands were all void while dealt: never reported
    voids: Counter[str] = field(default_factory=Counter)  # every void round by cause
    irregularities: Counter[str] = field(default_factory=Counter)  # by kind
    returned_wagers: int = 0  # spots' wagers handed back: not dealt, or let out of the hand
    # reported rounds the table then voided at the controller (a Stadium malfunction found
    # at the pays): their side bets and what the controller's answers paid on them
    voided: Counter[str] = field(default_factory=Counter)
    cards: Counter[str] = field(default_factory=Counter)  # out of the shoe: dealt, burned, ...
    initial_wagered: int = 0  # the base game: initial wagers (antes) placed
    base_net: int = 0  # the players' net on their initial and war wagers (ties, dealer apart)
    timer_surrenders: int = 0  # ties the decision timer surrendered (late or no answer)
    closed_rounds: int = 0  # dealt while the side bet was closed
    side_bets: int = 0
    handle: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    fixed: int = 0
    jackpot: int = 0
    envy: int = 0
    jackpots: int = 0
    recovered: int = 0  # earlier runs' reports settled by this one
    journal_errors: list[str] = field(default_factory=list)
    # a voided round's answer may come before or after its void is counted: each table's
    # latest answered pays, and the voided rounds whose answer has not come yet
    _last_pays: dict[str, tuple[str, Counter[str]]] = field(default_factory=dict)
    _awaiting: set[tuple[str, str]] = field(default_factory=set)
    quarantined: list[Entry] = field(default_factory=list)  # settled so by this run
    answered_pools: set[str] = field(default_factory=set)  # pools the answers named
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def dealt(self, played: Round, side_open: bool) -> None:
        """Count a journaled round and its side wagers."""
        sides = [r.bet.side for r in played.results if r.bet.side]
        # the base game the edge is reckoned on: each player's own ante and war wager
        initial = sum(r.bet.initial for r in played.results)
        net = sum(r.settlement.initial + r.settlement.war for r in played.results)
        with self._lock:
            self.cards.update(pile_of(d.role).value for d in played.draws)
            self.irregularities.update(i.kind.value for i in played.irregularities)
            self.returned_wagers += len(played.returned)
            self.initial_wagered += initial
            self.base_net += net
            self.timer_surrenders += sum(r.timed_out for r in played.results)
            self.rounds += 1
            self.closed_rounds += not side_open
            self.side_bets += len(sides)
            self.handle += sum(sides)

    def settled(self, entry: Entry, answer: RoundAnswer | None) -> None:
        """Count the controller's answer to a report."""
        with self._lock:
            if entry.state is State.QUARANTINED:
                self.quarantined.append(entry)
            if answer is None:
                return
            # only the names: answers from different tables arrive in no order, so their
            # meters say nothing about which is newest (meters.py reads the meter itself)
            self.answered_pools.update(pool for pool, _ in answer.pools)
            if not entry.round.startswith(f"{self.run}."):
                self.recovered += 1
                return
            pays: Counter[str] = Counter()
            for bet in answer.bets:
                self.outcomes[bet.outcome] += 1
                pays.update(fixed=bet.pay, jackpot=bet.jackpot, envy=bet.envy)
            self.fixed += pays["fixed"]
            self.jackpot += pays["jackpot"]
            self.envy += pays["envy"]
            self.jackpots += len(answer.jackpots)
            if (entry.table, entry.round) in self._awaiting:
                self._awaiting.discard((entry.table, entry.round))
                self.voided.update(pays)
            else:
                self._last_pays[entry.table] = (entry.round, pays)

    def void_reported(self, played: Round, why: Irregularity) -> None:
        """Count a reported round the table asked the controller to void whole for `why`,
        with what the controller paid on it (its answer now, or when it comes)."""
        with self._lock:
            self.voids[why.kind.value] += 1
            self.irregularities[why.kind.value] += 1
            self.voided.update(
                rounds=1,
                side_bets=sum(1 for r in played.results if r.bet.side),
                handle=sum(r.bet.side for r in played.results),
            )
            answered = self._last_pays.get(played.table)
            if answered is not None and answered[0] == played.round_id:
                self.voided.update(answered[1])
            else:
                self._awaiting.add((played.table, played.round_id))

    def void(self, void: VoidRound) -> None:
        """Count a void round (never reported: its wagers went back) and its cards."""
        with self._lock:
            self.void_rounds += 1
            self.voids[void.cause] += 1
            self.irregularities.update(i.kind.value for i in void.irregularities)
            self.cards.update(pile_of(d.role).value for d in void.draws)

    def journal_failed(self, message: str) -> None:
        with self._lock:
            self.journal_errors.append(message)


@dataclass(frozen=True, slots=True)
class FloorResult:
    """A finished run: the tally, each link's final status, the pools' final meters."""

    plan: FloorPlan
    tally: Tally
    links: tuple[LinkStatus, ...]
    pools: dict[str, int]
    elapsed: float
    controller: str
    journal: Path
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        """Nothing rejected or quarantined, nothing left undelivered, the journal never failed."""
        return not (
            self.interrupted
            or self.tally.journal_errors
            or any(s.rejected or s.quarantined or s.pending for s in self.links)
        )

    def summary(self) -> dict[str, Any]:
        """The JSON summary war-floor prints last (money in cents)."""
        return {
            **self._dealt(),
            "base_game": self._base_game(),
            **self._side_bets(),
            **self._delivery(),
            **self._run(),
        }

    def _dealt(self) -> dict[str, object]:
        """What the tables dealt: rounds, voids, irregularities, cards."""
        t = self.tally
        return {
            "tables": self.plan.tables,
            "rounds": t.rounds,
            "rounds_per_table": self.plan.rounds,
            "void_rounds": t.void_rounds,
            "voids": dict(sorted(t.voids.items())),
            "irregularities": dict(sorted(t.irregularities.items())),
            "returned_wagers": t.returned_wagers,
            "voided_at_controller": {k: t.voided.get(k, 0) for k in VOIDED},
            "cards": {pile.value: t.cards.get(pile.value, 0) for pile in Pile},
        }

    def _base_game(self) -> dict[str, object]:
        """The base game's hold beside the exact house edge of the game played."""
        t, p = self.tally, self.plan
        # the strategy's share of ties taken to war, less the late and silent players', whom
        # the decision timer surrenders
        share = war_share(get_strategy(p.strategy)) * (1 - Fraction(p.slow_players))
        edge = house_edge(get_profile(p.profile), p.decks, share)
        return {
            "initial_wagered": t.initial_wagered,
            "player_net": t.base_net,
            "hold_percent": percent(-t.base_net, t.initial_wagered),
            "edge_percent": percent(edge.numerator, edge.denominator),
            "timer_surrenders": t.timer_surrenders,
        }

    def _side_bets(self) -> dict[str, object]:
        """The progressive side bets: handle, outcomes, what was paid, the meters at the end."""
        t = self.tally
        return {
            "side_bets": t.side_bets,
            "handle": t.handle,
            "outcomes": {o.value: t.outcomes.get(o.value, 0) for o in Outcome},
            "paid": {
                "fixed": t.fixed,
                "jackpot": t.jackpot,
                "envy": t.envy,
                "total": t.fixed + t.jackpot + t.envy,
            },
            "jackpots": t.jackpots,
            "pools": {pool: {"value": value} for pool, value in sorted(self.pools.items())},
        }

    def _delivery(self) -> dict[str, object]:
        """How the reports fared at the controller, over every table's link."""
        t, links = self.tally, self.links
        return {
            "acked": sum(s.acked for s in links),
            "replayed": sum(s.replayed for s in links),
            "rejected": sum(s.rejected for s in links),
            "quarantined": sum(s.quarantined for s in links),
            "quarantined_rounds": self._quarantined_rounds(),
            "pending": sum(s.pending for s in links),
            "held": self._held(),
            "recovered": t.recovered,
            "closed_rounds": t.closed_rounds,
            "retries": sum(s.retries for s in links),
            "journal_errors": len(t.journal_errors),
        }

    def _quarantined_rounds(self) -> list[dict[str, object]]:
        """The reports this run saw quarantined, each with why."""
        return [
            {
                "table": e.table,
                "round": e.round,
                "seq": e.seq,
                "status": e.status,
                "reason": stored_reason(e.status, e.answer),
            }
            for e in self.tally.quarantined
        ]

    def _held(self) -> list[dict[str, str]]:
        """The tables the controller refuses as such (a key not theirs, a table disabled)."""
        return [
            {"table": s.table, "reason": s.last_error or ""}
            for s in self.links
            if s.state is LinkState.HELD
        ]

    def _run(self) -> dict[str, object]:
        """The run itself: how long, how fast, what was played against which controller."""
        p = self.plan
        return {
            "elapsed_seconds": round(self.elapsed, 3),
            "rounds_per_second": round(self.tally.rounds / self.elapsed, 1)
            if self.elapsed
            else None,
            "profile": p.profile,
            "decks": p.decks,
            "strategy": p.strategy,
            "seed": p.seed,
            "controller": self.controller,
            "journal": str(self.journal),
            "interrupted": self.interrupted,
            "ok": self.ok,
        }
