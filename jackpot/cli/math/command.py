"""`jackpot math`: its options and their types, and the command that prints the figures."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from jackpot.cli.argtypes import non_negative, positive
from jackpot.cli.math.as_json import as_json
from jackpot.cli.math.figures import OptionError, figures
from jackpot.cli.math.text import text
from jackpot.domain.config import LevelType, PoolConfig
from jackpot.domain.odds import MAX_DECKS, PoolTerms
from jackpot.errors import ValidationError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `math` subcommand."""
    parser = sub.add_parser(
        "math",
        help="exact odds and return of the progressive side bet",
        description="Exact odds of every outcome and the return of a paytable, per deck count.",
    )
    _add_bet_options(parser)
    _add_pool_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _add_bet_options(parser: argparse.ArgumentParser) -> None:
    """The game and the bet priced: decks, strategy, paytable, wager, meter, other bets."""
    parser.add_argument(
        "--decks", type=_decks, nargs="+", metavar="N", help="deck counts (default: 6 7 8)"
    )
    parser.add_argument(
        "--surrender", action="store_true", help="the player always surrenders instead of war"
    )
    parser.add_argument(
        "--paytable", type=Path, metavar="FILE", help="JSON paytable (default: seed)"
    )
    parser.add_argument("--wager", type=positive, default=500, metavar="CENTS")
    parser.add_argument(
        "--meter",
        type=non_negative,
        default=100_000,
        metavar="CENTS",
        help="meter assumed when a percentage pay hits (default: 100000)",
    )
    parser.add_argument(
        "--other-bets",
        type=non_negative,
        default=6,
        metavar="N",
        help="other qualifying bets at the table, each on its own spot (default: 6)",
    )


def _add_pool_options(parser: argparse.ArgumentParser) -> None:
    """The pools the table feeds, each level priced from its own over the long run."""
    parser.add_argument(
        "--pool",
        type=_pool,
        action="append",
        metavar="NAME=RESET,RATE_BP,RESERVE_RATE_BP[,LEVEL]",
        help="a pool the table feeds (repeat it; the first is the table's first pool): "
        "prices each level from its own pool over the long run, e.g. main=100000,400,100; "
        "LEVEL makes it won by a hidden trigger: must_hit_by:CEILING or mystery:LOW:HIGH "
        "(cents), each with an optional :qualifying=CENTS, e.g. "
        "hourly=10000,200,0,must_hit_by:50000",
    )
    parser.add_argument(
        "--min-wager",
        type=positive,
        default=100,
        metavar="CENTS",
        help="the least wager a table feeding the pools takes (default: 100): below a line's or "
        "level's qualifying wager a bet feeds it but cannot win it",
    )
    parser.add_argument(
        "--below-share",
        type=non_negative,
        default=None,
        metavar="BP",
        help="share of such a level's handle from bets below its qualifying wager, basis points "
        "(default: JACKPOT_BELOW_QUALIFYING_SHARE_BP): a bet that can win it is priced as "
        "getting their contributions too",
    )


def run(args: argparse.Namespace) -> int:
    """Print the odds and return tables; 2 on a bad paytable file, --below-share or --pool."""
    try:
        found = figures(args)
    except OptionError as exc:
        print(f"jackpot math: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(as_json(found), indent=2) if args.json else text(found))
    return 0


def _decks(text: str) -> int:
    value = int(text)
    if not 1 <= value <= MAX_DECKS:
        raise argparse.ArgumentTypeError(f"must be 1..{MAX_DECKS}")
    return value


def _pool(text: str) -> tuple[str, PoolTerms]:
    """NAME=RESET,RATE_BP,RESERVE_RATE_BP[,LEVEL] (cents and basis points); LEVEL is
    must_hit_by:CEILING or mystery:LOW:HIGH, then optionally :qualifying=CENTS."""
    name, _, terms = text.partition("=")
    parts = terms.split(",")
    reset, rate, reserve = _reset_and_rates(name, parts[:3])
    if len(parts) == 3:
        return name, PoolTerms(reset, rate, reserve)
    if len(parts) != 4:
        raise argparse.ArgumentTypeError("takes at most one LEVEL after the rates")
    return name, _level(reset, rate, reserve, parts[3])


def _reset_and_rates(name: str, numbers: list[str]) -> tuple[int, int, int]:
    """A named pool's reset and rates, each 0 or more, the rates at most 10000 together."""
    try:
        reset, rate, reserve = (int(part) for part in numbers)
    except ValueError:
        raise argparse.ArgumentTypeError(
            "must be NAME=RESET,RATE_BP,RESERVE_RATE_BP[,LEVEL], e.g. main=100000,400,100"
        ) from None
    if not name or min(reset, rate, reserve) < 0 or rate + reserve > 10_000:
        raise argparse.ArgumentTypeError(
            "needs a name, a reset and rates of 0 or more, the rates at most 10000 together"
        )
    return reset, rate, reserve


def _level(reset: int, rate: int, reserve: int, text: str) -> PoolTerms:
    """A must-hit-by or mystery level's terms, checked as a pool's configuration is."""
    kind, *rest = text.split(":")
    qualifying = 0
    if rest and rest[-1].startswith("qualifying="):
        qualifying = _cents(rest.pop().removeprefix("qualifying="))
    body: dict[str, Any] = {"reset": reset, "rate_bp": rate, "reserve_rate_bp": reserve,
                            "level": kind, "qualifying_wager": qualifying}  # fmt: skip
    if kind == LevelType.MUST_HIT_BY and len(rest) == 1:
        body["cap"] = _cents(rest[0])
    elif kind == LevelType.MYSTERY and len(rest) == 2:
        body["trigger_low"], body["trigger_high"] = _cents(rest[0]), _cents(rest[1])
    else:
        raise argparse.ArgumentTypeError(
            "LEVEL is must_hit_by:CEILING or mystery:LOW:HIGH (cents), e.g. must_hit_by:50000"
        )
    try:
        config = PoolConfig.from_json(body)
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(f"{exc.field}: {exc}") from None
    return PoolTerms(
        reset, rate, reserve, config.trigger_span, config.qualifying_wager, config.level
    )


def _cents(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of cents") from None
