"""Link groups: sets of pools and the tables feeding them, each settled on its own keys
(docs/DECISIONS.md D160, "Link groups"). The main group is every pool's and table's unless it was
put in another. Which group a new pool or table joins is decided here (placement); where
each one is, is the registry's (jackpot.store.groups)."""

from __future__ import annotations

from collections.abc import Sequence

from jackpot.conflicts import LinkGroupError
from jackpot.domain.validate import parse_group
from jackpot.errors import NotFoundError, ValidationError

# the link group every pool and table is in unless it was put in another
MAIN_GROUP = "main"


def group_name(raw: object, field: str = "group") -> str:
    """A link group's name as given in a request (absent: the main group)."""
    return MAIN_GROUP if raw is None else parse_group(raw, field)


# --- placement: which group a pool or table is put in ---------------------------------------


def pool_placement(pool: str, requested: object, current: str | None) -> str:
    """The link group a pool is put in. A new pool (`current` None) goes to the group its
    request names (`group`), the main group when it names none; an existing one stays where
    it is, and naming another group is refused (409 link_group): a pool's meters and journal
    never leave their group's keys."""
    wanted = group_name(requested) if requested is not None else current or MAIN_GROUP
    if current is not None and wanted != current:
        raise LinkGroupError("pool", pool, current, wanted, "a pool stays in its group")
    return wanted


def pools_group(pools: Sequence[tuple[str, str | None]]) -> str:
    """The one link group of the pools a table feeds, given as (pool, its group or None when
    no such pool exists) in the order the request names them: 404 naming the first unknown
    pool, 400 naming the first pool of another group than the ones before it."""
    seen: dict[str, str] = {}
    for i, (pool, group) in enumerate(pools):
        if group is None:
            raise NotFoundError("pool", pool, f"pools[{i}]")
        if seen and group not in seen.values():
            first = next(iter(seen))
            raise ValidationError(
                f"pools[{i}]",
                f"pool {pool!r} is in link group {group!r} and pool {first!r} in "
                f"{seen[first]!r}: a table feeds the pools of one link group",
                "link_group",
            )
        seen[pool] = group
    return next(iter(seen.values()))


def table_placement(
    table: str, pools: Sequence[tuple[str, str | None]], current: str | None
) -> str:
    """The link group a table is put in: its pools' one group (pools_group). An existing
    table (`current`) stays in its group: feeding another group's pools is a move (409
    link_group)."""
    wanted = pools_group(pools)
    if current is not None and wanted != current:
        raise LinkGroupError(
            "table",
            table,
            current,
            wanted,
            "move it with POST /tables/{id}/move, naming the new group's pools",
            field="pools",
        )
    return wanted
