"""What `jackpot math` works out from its options: the odds and return of the paytable per
deck count, the base game's house edge, and with --pool each level's long run."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from jackpot.domain.odds import (
    BaseGame,
    LongRunReturn,
    PaytableReturn,
    PoolTerms,
    base_game,
    long_run_return,
    paytable_return,
)
from jackpot.domain.paytable import FULL_METER_BP, SEED_PAYTABLE, Paytable
from jackpot.domain.returns import fed_below, won_from
from jackpot.errors import ValidationError
from jackpot.settings import Settings

DEFAULT_DECKS = (6, 7, 8)


class OptionError(Exception):
    """An option's value the figures cannot be worked out from (exit 2)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")


@dataclass(frozen=True)
class Figures:
    paytable: Paytable
    wager: int
    results: list[PaytableReturn]  # one per deck count
    games: list[tuple[BaseGame, BaseGame]]  # with the tie-after-war bonus, and without
    pools: dict[str, PoolTerms]
    long_run: list[LongRunReturn]  # one per deck count, with --pool
    below: dict[str, Fraction]  # share of each level's handle from bets that cannot win it


def figures(args: argparse.Namespace) -> Figures:
    """The figures for `args`; OptionError naming the option at fault."""
    paytable = _paytable(args.paytable)
    decks = args.decks or DEFAULT_DECKS
    results = [
        paytable_return(
            paytable,
            d,
            war=not args.surrender,
            wager=args.wager,
            meter=args.meter,
            other_bets=args.other_bets,
        )
        for d in decks
    ]
    games = [(base_game(d, tie_bonus=True), base_game(d, tie_bonus=False)) for d in decks]
    pools: dict[str, PoolTerms] = dict(args.pool or [])
    below = _fed_below(args, paytable, pools) if pools else {}
    long_run = _long_run(args, paytable, decks, pools, below) if pools else []
    return Figures(paytable, args.wager, results, games, pools, long_run, below)


def _paytable(path: Path | None) -> Paytable:
    if path is None:
        return SEED_PAYTABLE
    try:
        return Paytable.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError) as exc:
        raise OptionError("--paytable", _describe(exc)) from None


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return f"{exc.field}: {exc}"
    return str(exc)


def _fed_below(
    args: argparse.Namespace, paytable: Paytable, pools: dict[str, PoolTerms]
) -> dict[str, Fraction]:
    """The share of each level's handle assumed to come from bets below its qualifying
    wager, where the table takes them (--below-share, --min-wager)."""
    share_bp = args.below_share
    if share_bp is None:
        share_bp = Settings.from_env().below_qualifying_share_bp
    if share_bp >= FULL_METER_BP:
        raise OptionError("--below-share", "must be under 10000")
    return fed_below(
        won_from(paytable, list(pools), pools),
        dict.fromkeys(pools, args.min_wager),
        args.wager,
        Fraction(share_bp, FULL_METER_BP),
    )


def _long_run(
    args: argparse.Namespace,
    paytable: Paytable,
    decks: tuple[int, ...] | list[int],
    pools: dict[str, PoolTerms],
    below: dict[str, Fraction],
) -> list[LongRunReturn]:
    try:
        return [
            long_run_return(
                paytable,
                d,
                pools,
                war=not args.surrender,
                wager=args.wager,
                other_bets=args.other_bets,
                fed_below=below,
            )
            for d in decks
        ]
    except ValueError as exc:
        raise OptionError("--pool", str(exc)) from None
