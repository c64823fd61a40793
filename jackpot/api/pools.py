"""Pools: the public meter read, configuration, regulator meters, adjustments."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body, request_body
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.meter import LinkState, PoolState
from jackpot.domain.poolanswers import PoolMeters, PublicPool
from jackpot.domain.requests import CANCEL_STAGED_REQUEST, RESUME_REQUEST, SUSPEND_REQUEST
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ValidationError

bp = Blueprint("pools", __name__, url_prefix="/v1/pools")


def meters(state: PoolState, **step: Any) -> dict[str, Any]:
    """The regulator's meters of a pool, with what a step on it did (`status`, `changed`,
    `last_hits`)."""
    group = services().groups.of_pool(state.pool).name
    return to_json(PoolMeters.of_state(state, group, **step))


@bp.get("")
def list_pools() -> Response:
    return jsonify({"pools": [to_json(PublicPool.of(p)) for p in services().pools.all_public()]})


@bp.get("/<pool>")
def get_pool(pool: str) -> Response:
    parse_identifier(pool, "pool")
    pools = services().groups.pools_of(pool)
    return jsonify(to_json(PublicPool.of(pools.public(pool), pools.last_hits(pool))))


@bp.put("/<pool>")
@require(Role.OPERATOR)
def put_pool(pool: str) -> tuple[Response, int]:
    parse_identifier(pool, "pool")
    status, state = services().placement.put_pool(pool, json_body(), current_key().who)
    return jsonify(meters(state, status=status)), 201 if status == "created" else 200


@bp.get("/<pool>/meters")
@require(Role.OPERATOR, Role.AUDITOR)
def get_meters(pool: str) -> Response:
    parse_identifier(pool, "pool")
    pools = services().groups.pools_of(pool)
    return jsonify(meters(pools.get(pool), last_hits=pools.last_hits(pool)))


@bp.post("/<pool>/adjustments")
@require(Role.OPERATOR)
def adjust(pool: str) -> Response:
    parse_identifier(pool, "pool")
    adjusted = services().groups.pools_of(pool).adjust(pool, json_body(), current_key().who)
    return jsonify(to_json(adjusted))


@bp.post("/<pool>/suspend")
@require(Role.OPERATOR)
def suspend(pool: str) -> Response:
    """Close the side bet on every table linked to the pool (journaled, with the reason)."""
    parse_identifier(pool, "pool")
    if not request_body():
        raise ValidationError("reason", "a suspension names its reason", "missing")
    reason = str(SUSPEND_REQUEST.check(json_body())["reason"])
    return _link(pool, LinkState.SUSPENDED, reason)


@bp.post("/<pool>/resume")
@require(Role.OPERATOR)
def resume(pool: str) -> Response:
    """Open the side bet again (body optional: {reason})."""
    parse_identifier(pool, "pool")
    reason = str(RESUME_REQUEST.check(json_body()).get("reason", "")) if request_body() else ""
    return _link(pool, LinkState.RUNNING, reason)


@bp.post("/<pool>/retire")
@require(Role.OPERATOR)
def retire(pool: str) -> Response:
    """Retire the pool and move its whole balance to another pool, in one journaled step."""
    parse_identifier(pool, "pool")
    retired = services().placement.retire_pool(pool, json_body(), current_key().who)
    return jsonify(to_json(retired))


@bp.post("/<pool>/staged")
@require(Role.OPERATOR)
def stage(pool: str) -> Response:
    """Stage a change of the pool's parameters: at its next suspension, or at a set time."""
    parse_identifier(pool, "pool")
    return jsonify(
        meters(services().groups.pools_of(pool).stage(pool, json_body(), current_key().who))
    )


@bp.post("/<pool>/staged/cancel")
@require(Role.OPERATOR)
def cancel_staged(pool: str) -> Response:
    """Drop the staged change, with the reason."""
    parse_identifier(pool, "pool")
    if not request_body():
        raise ValidationError("reason", "a cancellation names its reason", "missing")
    reason = str(CANCEL_STAGED_REQUEST.check(json_body())["reason"])
    changed, now = services().groups.pools_of(pool).cancel_staged(pool, reason, current_key().who)
    return jsonify(meters(now, changed=changed))


def _link(pool: str, state: LinkState, reason: str) -> Response:
    changed, now = services().groups.pools_of(pool).set_link(pool, state, reason, current_key().who)
    return jsonify(meters(now, changed=changed))


@bp.get("/<pool>/game")
@require(Role.OPERATOR, Role.AUDITOR)
def get_game(pool: str) -> Response:
    """The game the pool's linked group plays: its tables, deck count and paytable."""
    parse_identifier(pool, "pool")
    return jsonify(to_json(services().groups.tables_of_pool(pool).game(pool)))


@bp.put("/<pool>/game")
@require(Role.OPERATOR)
def change_game(pool: str) -> Response:
    """Change the deck count and/or paytable of every table of the linked group at once."""
    parse_identifier(pool, "pool")
    changed = (
        services().groups.tables_of_pool(pool).change_game(pool, json_body(), current_key().who)
    )
    return jsonify(to_json(changed))
