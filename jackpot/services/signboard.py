"""What the progressive signs show, read from the store in a few calls for all of them.

`meters()` is the fast read, made several times a second by each sign process: every shown
pool's visible meter and hit count in one pipeline, whatever the number of signs. `states()`
is the full picture, read about once a second and at once after a hit: each sign's levels
(name, meter, reset, cap, open or closed and why, the paytable in words) and its recent
winners (pending ones as "awaiting verification", disputed and void ones never).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jackpot.domain.config import TableRecord
from jackpot.domain.meter import UNITS_PER_CENT, LinkState, PoolState
from jackpot.domain.signs import Sign, closed_reason, hit_words, paytable_words
from jackpot.store.signs import SignStore

if TYPE_CHECKING:
    from jackpot.services.fanout import GroupedConfig, GroupedPayouts

WINNERS = 10  # recent winners a sign lists
SHOWN = {
    "pending": "awaiting verification",
    "awaiting_approval": "awaiting verification",
    "paid": "verified",
}  # fmt: skip  (disputed and void hits are never shown)


@dataclass(frozen=True, slots=True)
class Meters:
    time: int  # the controller's clock when the read began, ms
    values: dict[str, int]  # pool -> visible meter, cents
    hits: dict[str, int]  # pool -> hits so far (a change means a hit to announce)


class SignBoard:
    def __init__(
        self,
        signs: SignStore,
        config: GroupedConfig,
        last_hits: Callable[[str], list[dict[str, object]]],  # a pool's, read in its group
        payouts: GroupedPayouts,
        clock: Callable[[], int],
        offline_after_ms: int,
        inoperable: Callable[[list[str]], set[str]],
        software_authentic: Callable[[], bool] = lambda: True,
        checkpoint: Callable[[], dict[str, Any] | None] = lambda: None,
    ) -> None:
        self._checkpoint = checkpoint  # the latest signed checkpoint's short form (D257)
        self._inoperable = inoperable  # of these pools, those whose store is inoperable
        self._software_authentic = software_authentic  # checked once, then as cached
        self._signs = signs
        self._config = config
        self._last_hits = last_hits
        self._payouts = payouts
        self._clock = clock
        self._offline_after_ms = offline_after_ms

    def definitions(self) -> list[Sign]:
        return self._signs.all()

    def meters(self, pools: list[str]) -> Meters:
        """The shown pools' meters and hit counts, in one round trip, with the time the read
        began (every round acknowledged before that time is in these values)."""
        now = self._clock()
        raw = self._config.meter_fields(pools, ("value", "hits"))
        values = {p: int(f[0]) // UNITS_PER_CENT for p, f in raw.items() if f[0] is not None}
        hits = {p: int(f[1] or 0) for p, f in raw.items() if f[0] is not None}
        return Meters(now, values, hits)

    def states(self, signs: list[Sign]) -> dict[str, dict[str, Any]]:
        """Every sign's full state."""
        now = self._clock()
        pools = {p.pool: p for p in self._config.pools()}
        tables = self._config.tables()
        wanted = sorted({pool for s in signs for pool in s.pools})
        closed = set(wanted) if not self._software_authentic() else self._inoperable(wanted)
        hits, status = self._hits(wanted, pools)
        checkpoint = self._checkpoint()
        floor = _Floor(pools, tables, hits, status, now, closed, self._offline_after_ms)
        return {s.sign: {**_state(s, floor), "checkpoint": checkpoint} for s in signs}

    def _hits(
        self, wanted: list[str], pools: dict[str, PoolState]
    ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, str]]:
        """The shown pools' last hits, and each hit's payout status now, by payout id."""
        hits = {pool: self._last_hits(pool) for pool in wanted if pool in pools}
        ids = [str(h["id"]) for shown in hits.values() for h in shown]
        return hits, {p.id: p.status for p in self._payouts.many(ids)}


@dataclass(frozen=True, slots=True)
class _Floor:
    """What every sign of one read is drawn from."""

    pools: dict[str, PoolState]
    tables: list[TableRecord]
    hits: dict[str, list[dict[str, Any]]]  # each shown pool's last hits
    status: dict[str, str]  # a shown hit's payout status now, by payout id
    now: int
    inoperable: set[str]  # shown pools whose store is inoperable (every one: tampered software)
    offline_after_ms: int

    def feeding(self, pool: str) -> list[TableRecord]:
        return [t for t in self.tables if pool in t.config.pools]


def _state(sign: Sign, floor: _Floor) -> dict[str, Any]:
    pools = floor.pools
    # a sign's own label for a level, else the pool's display name, else its id (D280)
    names = {
        lv.pool: lv.shown_name(pools[lv.pool].name if lv.pool in pools else "")
        for lv in sign.levels
    }
    # a paytable line paying a pool the sign does not show names it as the pool is named
    called = {p: state.name for p, state in pools.items() if state.name} | names
    levels = []
    for level in sign.levels:
        pool = pools.get(level.pool)
        if pool is None or pool.link is LinkState.RETIRED or not pool.public:
            continue  # a pool gone from the floor leaves the sign
        levels.append(_level(pool, names[level.pool], called, floor))
    winners = _winners(sign, names, floor)
    return {"sign": sign.to_json(), "time": floor.now, "levels": levels, "winners": winners}


def _level(pool: PoolState, name: str, called: dict[str, str], floor: _Floor) -> dict[str, Any]:
    feeding = floor.feeding(pool.pool)
    config = pool.config
    operable = pool.pool not in floor.inoperable
    return {
        "pool": pool.pool,
        "name": name,
        "value": pool.value,
        "reset": config.reset,
        "cap": config.cap,
        # what wins it: a must-hit-by level shows its ceiling, never its trigger; a trigger
        # level's published commitment, for the sign's small print, and the smallest wager
        # that can win it (D281): never a mystery's range
        "kind": config.level.value,
        "qualifying_wager": config.qualifying_wager,
        "trigger": pool.trigger.to_json() if pool.trigger is not None else None,
        "closed": closed_reason(pool, feeding, operable, floor.now, floor.offline_after_ms),
        "paytable": _paytable(feeding, called),
    }


def _paytable(feeding: list[TableRecord], called: dict[str, str]) -> list[dict[str, str]]:
    """The linked game's paytable in words, as the first table feeding the pool plays it
    (every table of a linked group plays the same game), from the group's smallest wager."""
    if not feeding:
        return []
    first = feeding[0].config
    return paytable_words(
        first.paytable, first.pools[0], called, min(t.config.min_wager for t in feeding)
    )


def _winners(sign: Sign, names: dict[str, str], floor: _Floor) -> list[dict[str, Any]]:
    """The sign's recent winners, newest first: pending and paid ones, never disputed or
    void ones."""
    by_table = {t.table: t for t in floor.tables}
    winners = []
    for level in sign.levels:
        for h in floor.hits.get(level.pool, []):
            shown = SHOWN.get(floor.status.get(str(h["id"]), str(h.get("status", ""))))
            if shown is not None:
                table = by_table.get(str(h.get("table")))
                winners.append(_winner(h, level.pool, names[level.pool], shown, table))
    winners.sort(key=lambda w: int(w["time"] or 0), reverse=True)
    return winners[:WINNERS]


def _winner(
    hit: dict[str, Any], pool: str, name: str, shown: str, table: TableRecord | None
) -> dict[str, Any]:
    return {
        "id": hit["id"],
        "pool": pool,
        "level": name,
        "amount": hit["amount"],
        "outcome": hit_words(hit),
        "status": shown,
        "time": hit.get("created"),
        "asset": table.config.asset if table else "",
        "location": table.config.location if table else "",
    }
