"""The use cases the in-process benches drive on a built `Services`, on this tree and on the
trees from before issue 41's router (item 3) that bench/compare.py measures with these same
bench scripts (every tree since 41b8605): pools and tables are put through `placement`
(before: `pools`, `tables`), a round is reported through `groups.report_round` (before:
`rounds.report`)."""

from __future__ import annotations

from typing import Any


def put_pool(svc: Any, pool: str, body: Any, who: str) -> Any:
    placement = getattr(svc, "placement", None)
    if placement is None:
        return svc.pools.put(pool, body, who)
    return placement.put_pool(pool, body, who)


def put_table(svc: Any, table: str, body: Any, who: str) -> Any:
    placement = getattr(svc, "placement", None)
    if placement is None:
        return svc.tables.put(table, body, who)
    return placement.put_table(table, body, who)


def report_round(svc: Any, body: Any, key: Any, secret: str) -> dict[str, Any]:
    report = getattr(getattr(svc, "groups", None), "report_round", None)
    if report is None:
        return svc.rounds.report(body, key, secret)  # type: ignore[no-any-return]
    return report(body, key, secret)  # type: ignore[no-any-return]


def pool_state(svc: Any, pool: str) -> Any:
    return svc.groups.on_pool(pool, lambda g: g.pools).get(pool)
