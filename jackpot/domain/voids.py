"""Voids: what voiding a settled round, or the bets of some of its spots, takes back
(docs/RULES.md §6). Pure: the plan is computed here from the round's stored result and
applied in one script call by store/lua/void_round.lua.

A void takes back, for the bets it covers:

* the side-bet handle and the table's pays on them (fixed odds and envy received): the house
  journal records them, the gaming day shows them as voided;
* their share of each pool's contribution: the round's contribution to the visible meter and
  to the reserve, each split over the round's wagers; the share of a set of bets is
  floor(contribution × their wagers ÷ the round's wagers) counted over every bet voided so
  far, so the shares of partial voids add up to the whole contribution exactly;
* the jackpots they won: each returns to its pool's meter, and the reset funding that followed
  a hit (from the reserve, and the house's seed) goes back where it came from once every hit
  it followed is void, so a round voided whole leaves the meter where it would be had the
  round never been played. A meter the void leaves below its floor is topped up, as after a
  hit, to the lowest of its reset now, its meter before the void and, in the pool the round
  fed, the floor recorded with the round (its reset then): a reset raised since is not funded
  by a void.

Where the money is now is the store's business: a pool retired since the round holds none of
it, and the void lands in the pool its balance went to (store/lua/void_round.lua).

Envy a voided spot triggered for the others' bets stays paid when only some spots are voided
(their bets were dealt and paid in good faith); a malfunction voids the round whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jackpot.errors import ValidationError


@dataclass(frozen=True, slots=True)
class PoolReversal:
    """What a void takes back from one pool, in units (1/10,000 cent)."""

    pool: str
    to_visible: int  # contributions taken back from the meter
    to_reserve: int  # ... and from the reserve (overflow included)
    jackpots: tuple[tuple[str, int], ...]  # (payout id, cents) returned to the meter
    reset_from_reserve: int  # reset funding that came from the reserve: back to it
    reset_seed: int  # the house's seed of those resets: back to the house
    hand_pays: tuple[str, ...] = ()  # fixed and envy pays held as hand pays: voided
    # the floor a void tops the meter up to, recorded with the round (its reset then, or the
    # meter below it); None for a round recorded before floors were
    floor: int | None = None

    @property
    def jackpot_cents(self) -> int:
        return sum(cents for _, cents in self.jackpots)


@dataclass(frozen=True, slots=True)
class VoidPlan:
    table: str
    round: str
    spots: tuple[int, ...]  # the spots this void covers (none voided before)
    before: tuple[int, ...]  # the round's spots void before it: the plan holds only after them
    whole: bool  # every spot of the round is void once it is applied
    bets: int
    wagered: int  # cents
    fixed: int
    envy: int
    pools: tuple[PoolReversal, ...]

    @property
    def jackpot(self) -> int:
        return sum(p.jackpot_cents for p in self.pools)

    @property
    def pays(self) -> int:
        """Every pay the void takes back, in cents: fixed, envy and jackpots."""
        return self.fixed + self.envy + self.jackpot

    def to_json(self) -> dict[str, Any]:
        """The script's plan: integers as decimal text (cjson keeps 14 digits only)."""
        return {
            "table": self.table,
            "round": self.round,
            "spots": list(self.spots),
            "before": list(self.before),
            "whole": self.whole,
            "bets": self.bets,
            "wagered": str(self.wagered),
            "fixed": str(self.fixed),
            "envy": str(self.envy),
            "jackpot": str(self.jackpot),
            "pools": [
                {
                    "id": p.pool,
                    "to_visible": str(p.to_visible),
                    "to_reserve": str(p.to_reserve),
                    "jackpots": [{"id": i, "amount": str(c)} for i, c in p.jackpots],
                    "reset_from_reserve": str(p.reset_from_reserve),
                    "reset_seed": str(p.reset_seed),
                    "hand_pays": list(p.hand_pays),
                    "floor": "" if p.floor is None else str(p.floor),
                }
                for p in self.pools
            ],
        }


class VoidUnsupportedError(Exception):
    """A round settled before its contributions were recorded per pool."""


def trigger_won(dynamic: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The jackpot by which the round won a must-hit-by or mystery level, if it did: such a
    round is never voided (docs/DECISIONS.md D224). Its trigger was revealed at the hit and the
    next one armed from the reset: given back, the meter would stand at or past a trigger
    everyone now knows, under one drawn for another meter."""
    for jp in dynamic.get("jackpots") or []:
        if jp.get("level"):
            return dict(jp)
    return None


def spots_of(static: Mapping[str, Any]) -> list[int]:
    """The round's spots that hold a bet, in order."""
    return sorted({int(b["spot"]) for b in static["spots"]})


def parse_spots(raw: Any, static: Mapping[str, Any]) -> frozenset[int] | None:
    """The spots a void request names (None: the round whole): spots of the round's bets."""
    if raw is None:
        return None
    if not isinstance(raw, list) or not raw:
        raise ValidationError("spots", "must be a non-empty list of spot numbers, or left out")
    held = set(spots_of(static))
    return frozenset(_held_spot(f"spots[{i}]", spot, held) for i, spot in enumerate(raw))


def _held_spot(name: str, spot: Any, held: set[int]) -> int:
    """One spot the request names: a spot number, of one of the round's bets."""
    if isinstance(spot, bool) or not isinstance(spot, int):
        raise ValidationError(name, "must be a spot number")
    if spot not in held:
        raise ValidationError(
            name,
            f"spot {spot} holds no side bet in this round "
            f"(its bets are on spots {', '.join(map(str, sorted(held))) or 'none'})",
            "unknown_spot",
        )
    return spot


def plan_void(
    static: Mapping[str, Any],
    dynamic: Mapping[str, Any],
    voided: Iterable[int],
    wanted: frozenset[int] | None,
) -> VoidPlan:
    """The void of `wanted` spots (None: every spot) of a round whose spots `voided` are void
    already; covers only what is not void yet (no spots: nothing left to take back)."""
    bets = static["spots"]
    before = frozenset(voided)
    every = frozenset(int(b["spot"]) for b in bets)
    new = (every if wanted is None else wanted) - before
    after = before | new
    mine = [b for b in bets if int(b["spot"]) in new]
    pools = _reversals(dynamic, bets, before, new)
    return VoidPlan(
        table=str(static["table"]),
        round=str(static["round"]),
        spots=tuple(sorted(new)),
        before=tuple(sorted(before)),
        whole=after == every,
        bets=sum(1 for b in mine if int(b["wager"]) > 0),
        wagered=_summed(mine, "wager"),
        fixed=_summed(mine, "pay"),
        envy=_summed(mine, "envy"),
        pools=pools,
    )


def _reversals(
    dynamic: Mapping[str, Any],
    bets: list[Mapping[str, Any]],
    before: frozenset[int],
    new: frozenset[int],
) -> tuple[PoolReversal, ...]:
    """What the void takes back from each pool, in pool order, with the floor the round
    recorded for it."""
    taken = _taken_by_pool(dynamic, bets, before, new)
    floors: Mapping[str, Any] = dynamic.get("floors") or {}
    return tuple(taken[pool].reversal(pool, floors.get(pool)) for pool in sorted(taken))


def _taken_by_pool(
    dynamic: Mapping[str, Any],
    bets: list[Mapping[str, Any]],
    before: frozenset[int],
    new: frozenset[int],
) -> dict[str, _Taken]:
    """What voiding the `new` spots takes back from each pool it touches."""
    total = _summed(bets, "wager")
    fed: Mapping[str, Any] = dynamic.get("fed") or {}
    if total and new and not fed:
        raise VoidUnsupportedError("the round was settled before voids recorded its contributions")
    taken: dict[str, _Taken] = {}
    if new and total:
        _take_contributions(taken, fed, bets, before, new, total)
    _take_jackpots(taken, dynamic, bets, before | new, new)
    _take_hand_pays(taken, dynamic, bets, new)
    return taken


@dataclass(slots=True)
class _Taken:
    """What a void takes back from one pool, as plan_void gathers it."""

    to_visible: int = 0
    to_reserve: int = 0
    jackpots: list[tuple[str, int]] = field(default_factory=list)
    from_reserve: int = 0
    seed: int = 0
    hand_pays: list[str] = field(default_factory=list)

    def reversal(self, pool: str, floor: Any) -> PoolReversal:
        return PoolReversal(
            pool,
            self.to_visible,
            self.to_reserve,
            tuple(self.jackpots),
            self.from_reserve,
            self.seed,
            tuple(self.hand_pays),
            None if floor is None else int(floor),
        )


def _take_contributions(
    taken: dict[str, _Taken],
    fed: Mapping[str, Any],
    bets: list[Mapping[str, Any]],
    before: frozenset[int],
    new: frozenset[int],
    total: int,
) -> None:
    """Each pool's contribution share of the `new` spots' wagers: the share of every bet void
    after this one less that of those void before, so partial voids add up exactly."""
    wagers_before = sum(int(b["wager"]) for b in bets if int(b["spot"]) in before)
    wagers_after = wagers_before + sum(int(b["wager"]) for b in bets if int(b["spot"]) in new)
    for pool, (visible, reserve) in sorted(fed.items()):
        t = taken.setdefault(pool, _Taken())
        t.to_visible = _share(int(visible), wagers_after, total) - _share(
            int(visible), wagers_before, total
        )
        t.to_reserve = _share(int(reserve), wagers_after, total) - _share(
            int(reserve), wagers_before, total
        )


def _take_jackpots(
    taken: dict[str, _Taken],
    dynamic: Mapping[str, Any],
    bets: list[Mapping[str, Any]],
    after: frozenset[int],
    new: frozenset[int],
) -> None:
    """The jackpots the `new` spots won, and the reset funding of each hit once every hit it
    followed is void (`after`) and one of them is voided now."""
    # a hit's reset follows the last of the hits it covers (`reset`: [from reserve, seed, n])
    seen: dict[str, list[int]] = {}
    for jp in dynamic.get("jackpots") or []:
        pool, spot = str(jp["pool"]), int(bets[int(jp["bet"])]["spot"])
        seen.setdefault(pool, []).append(spot)
        if spot in new:
            taken.setdefault(pool, _Taken()).jackpots.append((str(jp["id"]), int(jp["amount"])))
        reset = jp.get("reset")
        if reset:
            _take_reset(taken, pool, reset, seen[pool], after, new)


def _take_reset(
    taken: dict[str, _Taken],
    pool: str,
    reset: list[Any],
    seen: list[int],
    after: frozenset[int],
    new: frozenset[int],
) -> None:
    """A hit's reset funding (`reset`: [from reserve, seed, n]) back where it came from, once
    the n hits it followed (the last n `seen`) are all void and one of them is voided now."""
    covered = seen[-int(reset[2]) :]
    if all(s in after for s in covered) and any(s in new for s in covered):
        t = taken.setdefault(pool, _Taken())
        t.from_reserve += int(reset[0])
        t.seed += int(reset[1])


def _take_hand_pays(
    taken: dict[str, _Taken],
    dynamic: Mapping[str, Any],
    bets: list[Mapping[str, Any]],
    new: frozenset[int],
) -> None:
    # fixed and envy pays held as hand pays (JACKPOT_HANDPAY_CENTS): voided with their bets
    for hp in dynamic.get("hand_pays") or []:
        if int(bets[int(hp["bet"])]["spot"]) in new:
            taken.setdefault(str(hp["pool"]), _Taken()).hand_pays.append(str(hp["id"]))


def _summed(bets: Iterable[Mapping[str, Any]], key: str) -> int:
    """A sum over bets of one of their amounts (cents)."""
    return sum(int(b[key]) for b in bets)


def _share(amount: int, part: int, whole: int) -> int:
    return amount * part // whole


def covers(plan: Mapping[str, Any]) -> str:
    """What a void's stored plan covers, in people's words: "the whole round" (a first void
    of every spot), else "spot(s) 2, 3"."""
    spots = plan.get("spots") or []
    if plan.get("whole") and not plan.get("before"):
        return "the whole round"
    return "spot(s) " + ", ".join(str(int(s)) for s in spots)
