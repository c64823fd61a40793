"""A pool's books recomputed from its journal's amounts (docs/DECISIONS.md D260, D261).

Walking a pool journal in order, each entry's balances (`value_units`, `reserve_units`) must
follow from the balances before it and that entry's own amounts, as the script that wrote it
moved them (settle_round.lua, void_round.lua, adjust_pool.lua, retire_pool.lua, put_pool.lua);
an entry of no kind those scripts write is a finding. The walk sums the pool hash's counters
as the scripts count them, and gathers each round's amounts for the house journal's entries
and round records to account for (`round_problems`). Pure: it reads field texts only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from jackpot.domain.chain import ChainedEntry
from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.payoutrecord import STEPS
from jackpot.domain.poolsteps import BOUND_BY, PoolStep
from jackpot.domain.triggersteps import Stretch

#: the kinds of entry a pool journal holds, and nothing else
MONEY = ("created", "contribution", "hit", "reset", "adjustment", "transfer", "void")
NO_MONEY = (
    "config",
    "trigger_armed",
    "trigger_revealed",
    "hand_pay",
    "suspended",
    "resumed",
    "change_staged",
    "change_refused",
    "change_cancelled",
)
KINDS = frozenset(MONEY + NO_MONEY + STEPS)
#: the kinds that name a round the house journal settled or voided
OF_A_ROUND = frozenset({"contribution", "hit", "reset", "void"})


@dataclass(slots=True)
class Counters:
    """The pool hash's counters that its entries determine (names as the hash keeps them)."""

    reset_initial_units: int = 0
    contrib_units: int = 0
    overflow_units: int = 0
    in_cents: int = 0
    bets: int = 0
    hits: int = 0
    won_cents: int = 0
    seed_units: int = 0
    adjust_units: int = 0
    void_units: int = 0

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Counters))

    def differences(self, held: Mapping[str, Any]) -> list[str]:
        """Each counter the pool hash holds (`held`: name -> text) unlike the entries' sum."""
        out = []
        for name in self.names():
            text = held.get(name)
            try:
                kept = int(text or 0)
            except ValueError:
                kept = None
            if kept != getattr(self, name):
                out.append(
                    f"the pool's {name} is {text or 0}, its entries sum to {getattr(self, name)}"
                )
        return out


@dataclass(slots=True)
class RoundMoney:
    """What one round moved in one pool, by its entries there."""

    first_seq: int
    to_visible: int = 0
    to_reserve: int = 0
    wagered: int = 0
    bets: int = 0
    contributions: int = 0  # entries
    hits: list[tuple[int, str, int]] = field(default_factory=list)  # (seq, payout, cents)
    resets: list[tuple[int, int, int]] = field(default_factory=list)  # (seq, reserve, seed)


@dataclass(slots=True)
class BooksWalk:
    """One pool journal's entries fed in order: balance continuity, counters, rounds.

    `balances` is where the walk starts ((value, reserve) units after the entry before the
    first fed; None: unknown, taken from the first entry that records them)."""

    pool: str
    balances: tuple[int, int] | None = None
    counters: Counters = field(default_factory=Counters)
    problems: list[tuple[int, str]] = field(default_factory=list)
    # by (table, round, stamp): a round's entries share its house entry's stamp
    rounds: dict[tuple[str, str, str], RoundMoney] = field(default_factory=dict)
    voids: list[tuple[int, str, str, str]] = field(default_factory=list)  # seq, table, round, ts
    last_ts: int = 0
    # the operators' steps met (adjustments, transfers), for the house journal to bind (D271)
    steps: list[PoolStep] = field(default_factory=list)
    journal: str = ""
    # a trigger level's contributions' bets' steps (TriggerAudit's), for the records (D272)
    stretches: list[Stretch] = field(default_factory=list)

    def step(self, entry: ChainedEntry) -> None:
        """Keep `entry` if an operator's money step wrote it (its hash is needed)."""
        kind = entry.get("type") or ""
        if kind in BOUND_BY:
            self.steps.append(
                PoolStep(
                    self.journal,
                    self.pool,
                    entry.seq,
                    entry.hash,
                    kind,
                    entry.get(kind) or "",
                    _int(entry.get("ts")),
                    entry.get("who") or "",
                )
            )

    def feed(self, seq: int, e: Mapping[str, str]) -> None:
        kind = e.get("type") or ""
        self.last_ts = max(self.last_ts, _int(e.get("ts")))
        if kind not in KINDS:
            self.problems.append((seq, f"an entry of no kind a pool journal holds ({kind!r})"))
            return
        try:
            expected = self._moved(seq, kind, e)
        except (KeyError, ValueError) as exc:
            self.problems.append((seq, f"a {kind} entry without its amounts ({exc})"))
            return
        self._follow(seq, kind, e, expected)

    def _follow(
        self, seq: int, kind: str, e: Mapping[str, str], expected: tuple[int, int] | None
    ) -> None:
        """The balances the entry records, held to those its amounts lead to (`expected`;
        None: unknown), become the pool's."""
        if "value_units" not in e:
            if kind in MONEY:
                self.problems.append((seq, f"a {kind} entry without the balances after it"))
            return
        recorded = (_int(e.get("value_units")), _int(e.get("reserve_units")))
        if expected is not None and expected != recorded:
            self.problems.append(
                (
                    seq,
                    f"its balances ({recorded[0]} and {recorded[1]} units) do not follow from "
                    f"the balances before it and its {kind} amounts ({expected[0]} and "
                    f"{expected[1]} units)",
                )
            )
        self.balances = recorded

    def _moved(self, seq: int, kind: str, e: Mapping[str, str]) -> tuple[int, int] | None:
        """The balances the entry's amounts lead to from the ones before it (None: unknown);
        the counters and the round's amounts summed on the way."""
        if kind == "created":
            self.counters.reset_initial_units += int(e["value_units"])
            return None  # the opening balance: nothing before it
        moved = _MOVES.get(kind)
        return self.balances if moved is None else moved(self, seq, e)  # None: no money moves

    def _contribution(self, seq: int, e: Mapping[str, str]) -> tuple[int, int] | None:
        money = self._round(seq, e)
        tv, tr = int(e["to_visible_units"]), int(e["to_reserve_units"])
        wagered, bets = int(e["wagered"]), int(e["bets"])
        if wagered <= 0 or bets <= 0:
            self.problems.append((seq, "a contribution of no bet"))
        money.to_visible += tv
        money.to_reserve += tr
        money.wagered += wagered
        money.bets += bets
        money.contributions += 1
        c = self.counters
        c.contrib_units += tv + tr
        c.overflow_units += _int(e.get("overflow_units"))
        c.in_cents += wagered
        c.bets += bets
        return _moved_by(self.balances, tv, tr)

    def _hit(self, seq: int, e: Mapping[str, str]) -> tuple[int, int] | None:
        money = self._round(seq, e)
        amount = int(e["amount"])
        money.hits.append((seq, _text(e, "payout"), amount))
        self.counters.hits += 1
        self.counters.won_cents += amount
        return _moved_by(self.balances, -amount * UNITS_PER_CENT, 0)

    def _reset(self, seq: int, e: Mapping[str, str]) -> tuple[int, int] | None:
        money = self._round(seq, e)
        fr, seed = int(e["from_reserve_units"]), int(e["seed_units"])
        money.resets.append((seq, fr, seed))
        self.counters.seed_units += seed
        return _moved_by(self.balances, fr + seed, -fr)

    def _adjustment(self, seq: int, e: Mapping[str, str]) -> tuple[int, int] | None:
        amount = int(e["amount_units"])
        self.counters.adjust_units += amount
        if e.get("target") == "visible":
            return _moved_by(self.balances, amount, 0)
        return _moved_by(self.balances, 0, amount)

    def _transfer(self, seq: int, e: Mapping[str, str]) -> tuple[int, int] | None:
        amount = int(e["amount_units"])
        self.counters.adjust_units += amount
        before = self.balances
        if before is None:
            return None
        if "to" in e:  # out of a retiring pool: all of it
            return (0, 0) if before[0] + before[1] == -amount else (-1, -1)
        if "to_visible_units" not in e:  # an older entry: its sum only
            moved = _int(e.get("value_units")) + _int(e.get("reserve_units"))
            if moved - before[0] - before[1] != amount:
                self.problems.append((seq, f"its balances did not move by {amount} units"))
            return None
        return before[0] + int(e["to_visible_units"]), before[1] + int(e["to_reserve_units"])

    def _void(self, seq: int, e: Mapping[str, str]) -> tuple[int, int] | None:
        """A void's balances as void_round.lua moves them (docs/RULES.md §6)."""
        seeded, change = _int(e.get("seed_units")), int(e["void_units"])
        self.counters.seed_units += seeded
        self.counters.void_units += change - seeded
        self.voids.append((seq, _text(e, "table"), _text(e, "round"), _text(e, "ts")))
        if self.balances is None:
            return None
        v0, r0 = self.balances
        fr, seed = _int(e.get("reset_from_reserve_units")), _int(e.get("seed_returned_units"))
        v = v0 - int(e["to_visible_units"]) + int(e["jackpots_cents"]) * UNITS_PER_CENT - fr - seed
        r = r0 - int(e["to_reserve_units"]) + fr
        if r < 0:  # a reserve spent since: the meter gives it back
            v, r = v + r, 0
        level, over = _int(e.get("to_level_reserve_units")), _int(e.get("overflow_units"))
        top_r, top_s = _int(e.get("topup_from_reserve_units")), _int(e.get("topup_seed_units"))
        v, r = v - level - over + top_r + top_s, r + level + over - top_r
        if (v + r) - (v0 + r0) != change:
            self.problems.append(
                (seq, f"its void_units ({change}) is not what it moved ({(v + r) - (v0 + r0)})")
            )
        return v, r

    def _round(self, seq: int, e: Mapping[str, str]) -> RoundMoney:
        key = (_text(e, "table"), _text(e, "round"), _text(e, "ts"))
        found = self.rounds.get(key)
        if found is None:
            found = self.rounds[key] = RoundMoney(seq)
        return found


#: how each kind of entry that moves money moves the balances (a void: `BooksWalk._void`)
_MOVES: dict[str, Callable[[BooksWalk, int, Mapping[str, str]], tuple[int, int] | None]] = {
    "contribution": BooksWalk._contribution,
    "hit": BooksWalk._hit,
    "reset": BooksWalk._reset,
    "adjustment": BooksWalk._adjustment,
    "transfer": BooksWalk._transfer,
    "void": BooksWalk._void,
}


def _moved_by(before: tuple[int, int] | None, value: int, reserve: int) -> tuple[int, int] | None:
    """The balances `before` moved by these amounts (None: unknown)."""
    return None if before is None else (before[0] + value, before[1] + reserve)


@dataclass(frozen=True, slots=True)
class HouseRound:
    """A house journal's `round` entry: what it settled and the digest of what it gave."""

    seq: int
    wagered: int
    bets: int
    dynamic: str  # SHA-1 of the round record's dynamic part ('' before entries committed it)
    ts: int
    result: str = ""  # SHA-256 of its static part (the bets' wagers among it)


def round_problems(
    pool: str, money: RoundMoney, house: HouseRound, dynamic: Mapping[str, Any] | None
) -> list[tuple[int, str]]:
    """One round's entries in `pool` against the house entry that settled it and the round
    record's dynamic part it commits (None: not at hand; then the house entry alone)."""
    out = _wager_problems(money, house)
    if dynamic is None:
        return out
    jackpots = [j for j in dynamic.get("jackpots") or [] if j.get("pool") == pool]
    out += _hit_problems(money, jackpots)
    if "floors" not in dynamic:  # a record from before it kept what each pool took in
        return out
    return out + _fed_problems(pool, money, dynamic) + _reset_problems(money, jackpots)


def _wager_problems(money: RoundMoney, house: HouseRound) -> list[tuple[int, str]]:
    """The round's contributions against the wagers and bets the house entry settled."""
    if not money.contributions or (money.wagered, money.bets) == (house.wagered, house.bets):
        return []
    return [
        (
            money.first_seq,
            f"its contributions count {money.wagered} cents wagered by {money.bets} bets, "
            f"the house entry that settled the round {house.wagered} by {house.bets}",
        )
    ]


def _hit_problems(money: RoundMoney, jackpots: list[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """The round's hits against the jackpots its record paid from the pool."""
    paid = [(str(j.get("id")), int(j.get("amount") or 0)) for j in jackpots]
    hits = [(payout, cents) for _, payout, cents in money.hits]
    if hits == paid:
        return []
    at = money.hits[0][0] if money.hits else money.first_seq
    told = paid or "nothing"
    return [(at, f"its hits pay {hits or 'nothing'}, the round's record {told}")]


def _fed_problems(
    pool: str, money: RoundMoney, dynamic: Mapping[str, Any]
) -> list[tuple[int, str]]:
    """The round's contributions against what its record says the pool took in."""
    fed = (dynamic.get("fed") or {}).get(pool)
    told_fed = (int(fed[0]), int(fed[1])) if fed is not None else None
    if not (money.contributions or fed is not None):
        return []
    if told_fed == (money.to_visible, money.to_reserve):
        return []
    return [
        (
            money.first_seq,
            f"its contributions put {money.to_visible} units on the meter and "
            f"{money.to_reserve} in the reserve, the round's record "
            f"{told_fed or 'nothing'}",
        )
    ]


def _reset_problems(money: RoundMoney, jackpots: list[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """The round's resets against the resets its record's jackpots funded."""
    funded = [(int(j["reset"][0]), int(j["reset"][1])) for j in jackpots if j.get("reset")]
    resets = [(fr, seed) for _, fr, seed in money.resets]
    if resets == funded:
        return []
    at = money.resets[0][0] if money.resets else money.first_seq
    return [
        (at, f"its resets fund {resets or 'nothing'}, the round's record {funded or 'nothing'}")
    ]


def _int(text: str | None) -> int:
    return int(text or 0)


def _text(e: Mapping[str, str], name: str) -> str:
    return e.get(name) or ""
