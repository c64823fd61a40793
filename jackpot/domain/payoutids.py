"""A payout's id, and the link group it names: `P000123` is payout 123 of the main group,
`east:P000123` payout 123 of group `east`. The round script numbers payouts with the
group's prefix (store/rounds.py); routing a payout to its group reads it back here."""

from __future__ import annotations

from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ValidationError


def payout_prefix(group: str) -> str:
    """What comes before a payout id of `group` (nothing in the main group, `east:` in
    group east)."""
    return "" if group == MAIN_GROUP else f"{group}:"


def payout_id(group: str, number: int) -> str:
    """The id of payout `number` of `group` (P000123, east:P000123)."""
    return f"{payout_prefix(group)}P{number:06d}"


def payout_group(payout: str) -> str:
    """The link group a payout id names."""
    group, _, _ = payout.rpartition(":")
    return group or MAIN_GROUP


def payout_number(payout: str) -> int:
    """The number a payout id carries (123 of east:P000123)."""
    return int(payout.rpartition(":")[2][1:])


def parse_payout_id(raw: str) -> str:
    """A payout as the floor names it: its id (P000123, east:P000123), or its number (123,
    east:123); payouts are numbered from 1, so 0 and -1 name none and are refused."""
    group, colon, rest = raw.rpartition(":")
    if colon and group == MAIN_GROUP:
        raise ValidationError(
            "payout", "the main link group's payouts carry no group: P000123, or 123"
        )
    number = _payout_number_named(rest)
    return parse_identifier(f"{group}{colon}P{number:06d}", "payout")


def _payout_number_named(rest: str) -> int:
    """The number an id (P000123) or a number (123) names, what follows its group."""
    number = rest[1:] if rest[:1] in ("P", "p") else rest
    digits = number.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 15):
        raise ValidationError(
            "payout", "must be a payout's id (P000123, east:P000123) or its number (123)"
        )
    if digits != number or int(digits) < 1:
        raise ValidationError("payout", "must be a payout's number, from 1", "out_of_range")
    return int(digits)
