"""A linked group's game: the tables joined through shared pools, and a change of its game.

Tables that share a pool must play the same game at the same odds: the same deck count and
the same paytable (RULES §4). A change of the game is therefore made to the whole linked
group at once: every table that feeds the pool, and every table linked to those through
another pool they share, so no pool is ever left with tables at different odds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from jackpot.conflicts import LinkedTableError
from jackpot.domain.answers import INTEGER, TEXT, Each, Given, OneOf, answer_field
from jackpot.domain.config import TableConfig, TableRecord
from jackpot.domain.paytable import PAYTABLE, Paytable
from jackpot.domain.requests import GAME_CHANGE_REQUEST, GAME_POOLS_FED, GAME_SETS_SOMETHING


@dataclass(frozen=True, slots=True)
class GameChange:
    """A new deck count and/or paytable for a linked group, with the operator's reason."""

    reason: str
    decks: int | None = None
    paytable: Paytable | None = None

    @classmethod
    def from_json(cls, raw: Any) -> GameChange:
        """Validate a `PUT /v1/pools/{pool}/game` body."""
        data = GAME_CHANGE_REQUEST.check(raw)
        if not {"decks", "paytable"} & data.keys():
            raise GAME_SETS_SOMETHING.error()
        paytable = Paytable.from_checked(data["paytable"]) if "paytable" in data else None
        return cls(data["reason"], data.get("decks"), paytable)

    def apply(self, config: TableConfig) -> TableConfig:
        """`config` playing the new game; its pools must feed every percentage it pays."""
        changed = replace(
            config,
            decks=config.decks if self.decks is None else self.decks,
            paytable=config.paytable if self.paytable is None else self.paytable,
        )
        unfed = changed.paytable.meter_pools(changed.pools[0]) - set(changed.pools)
        if unfed:
            raise GAME_POOLS_FED.error(
                message=f"pays a percentage of pool(s) a linked table does not feed: "
                f"{sorted(unfed)}"
            )
        changed.check_qualifying()
        return changed

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.decks is not None:
            out["decks"] = self.decks
        if self.paytable is not None:
            out["paytable"] = self.paytable.to_json()
        return out


class Changed(StrEnum):
    CHANGED = "changed"
    UNCHANGED = "unchanged"  # the same game again: nothing journaled


@dataclass(frozen=True, slots=True)
class Game:
    """The game a pool's linked group plays, as the API answers it: after a change, what the
    change did."""

    NAME: ClassVar[str] = "Game"
    DOC: ClassVar[str] = "the game a pool's linked group plays: every table of it the same"

    pool: str = answer_field(TEXT, "the pool asked about")
    tables: tuple[str, ...] = answer_field(Each(TEXT), "every table of the linked group")
    pools: tuple[str, ...] = answer_field(Each(TEXT), "every pool those tables feed")
    decks: int = answer_field(INTEGER, "decks in each table's shoe")
    paytable: dict[str, Any] = answer_field(Given(PAYTABLE.schema()), "the paytable they pay")
    status: Changed | None = answer_field(OneOf(Changed), "a change: what it did", omitted=True)
    reason: str | None = answer_field(TEXT, "a change: why, as journaled", omitted=True)
    version: str | None = answer_field(
        TEXT, "a change: the tables' configuration version after it", omitted=True
    )

    @classmethod
    def of(cls, pool: str, tables: Sequence[TableRecord]) -> Game:
        """The game `tables` (a linked group's, all playing one game) play."""
        first = tables[0].config
        return cls(
            pool=pool,
            tables=tuple(t.table for t in tables),
            pools=tuple(sorted({p for t in tables for p in t.config.pools})),
            decks=first.decks,
            paytable=first.paytable.to_json(),
        )

    def changed(self, status: str, reason: str, version: str) -> Game:
        """The game after a change: what it did, why, the configuration's version."""
        return replace(self, status=Changed(status), reason=reason, version=version)


def linked_group(pool: str, tables: Mapping[str, TableConfig]) -> list[str]:
    """The tables linked to `pool`: those feeding it, and every table sharing a pool with
    one of them, transitively; sorted."""
    group: set[str] = set()
    pools, frontier = {pool}, {pool}
    while frontier:
        joined = {t for t, c in tables.items() if t not in group and frontier & set(c.pools)}
        group |= joined
        reached = {p for t in joined for p in tables[t].pools}
        frontier = reached - pools
        pools |= reached
    return sorted(group)


def check_linked(table: str, config: TableConfig, tables: Mapping[str, TableConfig]) -> None:
    """Refuse `config` for `table` if it plays another game than a table it shares a pool
    with (the other tables' current configurations are `tables`)."""
    for other, other_config in sorted(tables.items()):
        if other == table:
            continue
        shared = set(other_config.pools) & set(config.pools)
        if not shared:
            continue
        difference = other_config.game_difference(config)
        if difference is not None:
            raise LinkedTableError(table, other, sorted(shared)[0], difference)
