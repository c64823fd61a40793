"""A payout's fields as the commands print them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.cli.formatting import cell, fields, money, when

# how `show` orders a payout's fields; any other field the API adds follows them
ORDER = (
    "id", "status", "amount", "pool", "table", "round", "spot", "player", "outcome", "created",
    "paid_by", "witness", "slip", "confirmer", "confirmed_by", "confirmed_at", "approver",
    "approved_by", "approved_at", "paid_at", "disputer", "disputed_by", "disputed_at", "voider",
    "voided_by", "voided_at", "voided_from", "void_request", "void_requester",
    "void_requested_by", "void_requested_at", "void_approver", "note",
)  # fmt: skip


LEVELS = {"must_hit_by": "must-hit-by", "mystery": "mystery"}


def won_by(p: dict[str, Any]) -> str:
    """What a payout was won by, in a person's words: the hand's outcome for a meter's
    jackpot; a must-hit-by or mystery level's trigger (the hand's outcome is beside the
    point, often none); a fixed or envy pay held as a hand pay, as such."""
    level = LEVELS.get(str(p.get("level") or ""))
    if level is not None:
        trigger = p.get("trigger")
        return f"{level} trigger" + (f" {money(int(trigger))}" if trigger is not None else "")
    kind = str(p.get("kind") or "")
    outcome = cell(p.get("outcome"))
    return f"{kind} pay: {outcome}" if kind in ("fixed", "envy") else outcome


def pool_of(p: dict[str, Any]) -> str:
    """The pool a payout is paid from: none for a fixed or envy pay (the table's rack pays
    it; it is journaled in the table's first pool's journal, which it does not move)."""
    return "-" if p.get("kind") in ("fixed", "envy") else str(p["pool"])


def payout_detail(p: dict[str, Any], zone: ZoneInfo) -> str:
    """Every field of a payout, the known ones first, money and times formatted."""
    names = [n for n in ORDER if n in p] + sorted(n for n in p if n not in ORDER)
    return fields((name.replace("_", " "), _value(name, p[name], p, zone)) for name in names)


def _value(name: str, value: Any, p: dict[str, Any], zone: ZoneInfo) -> str:
    special = _SPECIAL.get(name)
    shown = special(value, p, zone) if special is not None else None
    if shown is not None:
        return shown
    if isinstance(value, int) and not isinstance(value, bool):
        if name in ("amount", "trigger"):
            return money(value)
        if name == "created" or name.endswith("_at"):
            return when(value, zone)
    return cell(value)


def _checkpoint(value: Any, _p: dict[str, Any], zone: ZoneInfo) -> str:
    """The signed checkpoint covering it (D257)."""
    if not isinstance(value, dict):
        return "not yet covered"
    return f"#{value['id']} {value['short']} at {when(int(value['ts']), zone)}"


def _void_request(value: Any, _p: dict[str, Any], zone: ZoneInfo) -> str | None:
    if not isinstance(value, dict):
        return None
    return (
        f"asked by {value.get('person') or value.get('requested_by')} "
        f"({value.get('requested_by')}) at {when(int(value.get('at') or 0), zone)} from "
        f"{value.get('from')}: {value.get('reason')}; awaits another person's approval"
    )


def _outcome(_value: Any, p: dict[str, Any], _zone: ZoneInfo) -> str:
    return won_by(p)


def _pool(value: Any, p: dict[str, Any], _zone: ZoneInfo) -> str:
    return pool_of(p) if pool_of(p) != "-" else f"none: paid at the table (journaled in {value})"


# the fields shown otherwise than by their type (None: by their type after all)
_SPECIAL: dict[str, Callable[[Any, dict[str, Any], ZoneInfo], str | None]] = {
    "checkpoint": _checkpoint,
    "void_request": _void_request,
    "outcome": _outcome,
    "pool": _pool,
}
