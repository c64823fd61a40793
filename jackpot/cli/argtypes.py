"""argparse types shared by the `jackpot` and `war-floor` commands."""

from __future__ import annotations

import argparse
from datetime import date

from jackpot.domain.gamingday import parse_day
from jackpot.errors import ValidationError


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def gaming_day(text: str) -> date:
    """A gaming day named YYYY-MM-DD."""
    try:
        return parse_day(text, "day")
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
