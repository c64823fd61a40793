"""The pools: their meters, configuration, staged changes, suspension, retirement and game."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import CREATED, POOL, op, ref


def listed(name: str) -> dict[str, Any]:
    """`{"pools": [...]}` of one answer."""
    items = {"type": "array", "items": ref(name)}
    return {"type": "object", "required": ["pools"], "properties": {"pools": items}}


PATHS: dict[str, Any] = {
    "/v1/meters": {
        "get": op(
            "every pool's meters, retired pools included",
            ["operator", "auditor"],
            listed("Meters"),
        )
    },
    "/v1/pools": {"get": op("every pool's public meter", [], listed("Pool"))},
    "/v1/pools/{pool}": {
        "get": op("a pool's public meter and its last 25 hits", [], ref("Pool"), params=POOL),
        "put": op(
            "create or update a pool; updating never moves money",
            ["operator"],
            ref("Meters"),
            "PoolConfig",
            POOL,
            also=CREATED,
        ),
    },
    "/v1/pools/{pool}/meters": {
        "get": op(
            "the regulator's meters, exact units included, and the pool's last 25 hits",
            ["operator", "auditor"],
            ref("Meters"),
            params=POOL,
        ),
    },
    "/v1/pools/{pool}/adjustments": {
        "post": op(
            "an audited manual movement of money, once per id",
            ["operator"],
            ref("Adjusted"),
            body="Adjustment",
            params=POOL,
        ),
    },
    "/v1/pools/{pool}/suspend": {
        "post": op(
            "close the side bet on every linked table (body: {reason}); journaled",
            ["operator"],
            ref("Meters"),
            body="Suspend",
            params=POOL,
        ),
    },
    "/v1/pools/{pool}/resume": {
        "post": op(
            "open the side bet again (body optional: {reason}); journaled",
            ["operator"],
            ref("Meters"),
            body="Resume",
            params=POOL,
            body_required=False,
        ),
    },
    "/v1/pools/{pool}/staged": {
        "post": op(
            "stage a parameter change: at the next suspension, or at effective_at",
            ["operator"],
            ref("Meters"),
            body="StageChange",
            params=POOL,
        ),
    },
    "/v1/pools/{pool}/staged/cancel": {
        "post": op(
            "drop the staged parameter change (body: {reason})",
            ["operator"],
            ref("Meters"),
            body="CancelStaged",
            params=POOL,
        ),
    },
    "/v1/pools/{pool}/retire": {
        "post": op(
            "retire the pool and move its meter and reserve to another pool, once per id",
            ["operator"],
            ref("Retired"),
            body="Retire",
            params=POOL,
        ),
    },
    "/v1/pools/{pool}/game": {
        "get": op(
            "the game the pool's linked group plays: its tables, deck count and paytable",
            ["operator", "auditor"],
            ref("Game"),
            params=POOL,
        ),
        "put": op(
            "change the deck count and/or paytable of every table of the pool's linked "
            "group in one atomic step, journaled once with who and why",
            ["operator"],
            ref("Game"),
            body="GameChange",
            params=POOL,
        ),
    },
}
