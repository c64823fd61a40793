"""`jackpot math`: the exact odds of the side bet and the return of a paytable."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from jackpot.cli.argtypes import non_negative, positive
from jackpot.cli.formatting import money
from jackpot.domain.config import LevelType, PoolConfig
from jackpot.domain.odds import (
    MAX_DECKS,
    BaseGame,
    LongRunReturn,
    OutcomeReturn,
    PaytableReturn,
    PoolTerms,
    base_game,
    long_run_return,
    paytable_return,
)
from jackpot.domain.paytable import FULL_METER_BP, SEED_PAYTABLE, PayLine, Paytable
from jackpot.domain.returns import fed_below, won_from
from jackpot.errors import ValidationError
from jackpot.settings import Settings

DEFAULT_DECKS = (6, 7, 8)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `math` subcommand."""
    parser = sub.add_parser(
        "math",
        help="exact odds and return of the progressive side bet",
        description="Exact odds of every outcome and the return of a paytable, per deck count.",
    )
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
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the odds and return tables; 2 on a bad paytable file."""
    try:
        paytable = _load_paytable(args.paytable)
    except (OSError, ValueError, ValidationError) as exc:
        print(f"jackpot math: --paytable: {_describe(exc)}", file=sys.stderr)
        return 2
    results = [
        paytable_return(
            paytable,
            decks,
            war=not args.surrender,
            wager=args.wager,
            meter=args.meter,
            other_bets=args.other_bets,
        )
        for decks in (args.decks or DEFAULT_DECKS)
    ]
    games = [
        (base_game(decks, tie_bonus=True), base_game(decks, tie_bonus=False))
        for decks in (args.decks or DEFAULT_DECKS)
    ]
    long_run: list[LongRunReturn] = []
    below: dict[str, Fraction] = {}
    if args.pool:
        pools = dict(args.pool)
        share_bp = args.below_share
        if share_bp is None:
            share_bp = Settings.from_env().below_qualifying_share_bp
        if share_bp >= FULL_METER_BP:
            print("jackpot math: --below-share: must be under 10000", file=sys.stderr)
            return 2
        below = fed_below(
            won_from(paytable, list(pools), pools),
            dict.fromkeys(pools, args.min_wager),
            args.wager,
            Fraction(share_bp, FULL_METER_BP),
        )
        try:
            long_run = [
                long_run_return(
                    paytable,
                    decks,
                    pools,
                    war=not args.surrender,
                    wager=args.wager,
                    other_bets=args.other_bets,
                    fed_below=below,
                )
                for decks in (args.decks or DEFAULT_DECKS)
            ]
        except ValueError as exc:
            print(f"jackpot math: --pool: {exc}", file=sys.stderr)
            return 2
    if args.json:
        body = {
            "paytable": paytable.to_json(),
            "results": [_to_json(r) for r in results],
            "base_game": [_game_json(bonus, plain) for bonus, plain in games],
        }
        if long_run:
            body["below_qualifying_share"] = {p: _number(x) for p, x in below.items()}
            body["long_run"] = [
                _long_run_json(r.decks, lr, dict(args.pool))
                for r, lr in zip(results, long_run, strict=True)
            ]
        print(json.dumps(body, indent=2))
    else:
        parts = [_table(r, paytable) for r in results]
        parts += [
            _long_run(r.decks, lr, dict(args.pool))
            for r, lr in zip(results, long_run, strict=False)
        ]
        if below:
            share = next(iter(below.values()))
            parts.append(
                f"assumed: bets below a qualifying wager bring {_percent(share)} of the handle "
                f"of {', '.join(sorted(below))} (fed, not won by them; priced for a "
                f"{money(args.wager)} bet that can win it: --below-share)"
            )
        print("\n\n".join([*parts, _games(games)]))
    return 0


def _won_by(terms: PoolTerms) -> str:
    """A trigger level's kind and range, for its line of the table."""
    assert terms.trigger is not None
    low, high = terms.trigger
    if terms.level is LevelType.MUST_HIT_BY:
        return f"must hit by {money(high)}"
    return f"mystery {money(low)}-{money(high)}"


def _long_run(decks: int, result: LongRunReturn, pools: dict[str, PoolTerms]) -> str:
    """Each level from its own pool: how often it hits and what it gives back over time (a
    must-hit-by or mystery level: its cycle from its reset to its mean trigger)."""
    names = [
        lv.pool if terms.trigger is None else f"{lv.pool} ({_won_by(terms)})"
        for lv, terms in zip(result.levels, pools.values(), strict=True)
    ]
    width = max(14, *(len(name) for name in names))
    lines = [
        f"{decks} decks, over the long run, each level from its own pool",
        f"{'pool':<{width}} {'hits 1 in':>12} {'contributes':>12} {'resets':>9} {'returns':>9}"
        f" {'house funds':>12} {'reserve keeps':>14}",
    ]
    for lv, name in zip(result.levels, names, strict=True):
        cycle = f"{float(lv.cycle):,.1f}" if lv.cycle is not None else "never"
        lines.append(
            f"{name:<{width}} {cycle:>12} {_percent(lv.contribution):>12}"
            f" {_percent(lv.resets):>9} {_percent(lv.total):>9}"
            f" {_percent(lv.house_funding):>12} {_percent(lv.reserve_surplus):>14}"
        )
    lines += _totals(
        ("fixed-pay return", result.fixed),
        ("envy return", result.envy),
        ("long-run return", result.total),
        ("house edge", result.house_edge),
    )
    return "\n".join(lines)


def _long_run_json(
    decks: int, result: LongRunReturn, pools: dict[str, PoolTerms]
) -> dict[str, Any]:
    return {
        "decks": decks,
        "levels": [
            {
                "pool": lv.pool,
                "level": pools[lv.pool].level.value,
                "trigger_range": list(pools[lv.pool].trigger or ()) or None,
                "hit": _number(lv.hit),
                "cycle_bets": float(lv.cycle) if lv.cycle is not None else None,
                "contribution": _number(lv.contribution),
                "resets": _number(lv.resets),
                "return": _number(lv.total),
                "house_funding": _number(lv.house_funding),
                "reserve_surplus": _number(lv.reserve_surplus),
            }
            for lv in result.levels
        ],
        "fixed_return": _number(result.fixed),
        "envy_return": _number(result.envy),
        "long_run_return": _number(result.total),
        "house_edge": _number(result.house_edge),
    }


def _game_json(bonus: BaseGame, plain: BaseGame) -> dict[str, Any]:
    return {
        "decks": bonus.decks,
        "house_edge_always_war_tie_bonus": _number(bonus.war_edge),
        "house_edge_always_war_no_tie_bonus": _number(plain.war_edge),
        "house_edge_always_surrender": _number(bonus.surrender_edge),
    }


def _games(games: list[tuple[BaseGame, BaseGame]]) -> str:
    """The base game's house edge (the initial wager's), beside the side bet's."""
    lines = [
        "base game house edge, of the initial wager",
        f"{'decks':>5}  {'always war, tie bonus':>22} {'always war, no bonus':>21}"
        f" {'always surrender':>17}",
    ]
    for bonus, plain in games:
        lines.append(
            f"{bonus.decks:>5}  {_percent(bonus.war_edge):>22} {_percent(plain.war_edge):>21}"
            f" {_percent(bonus.surrender_edge):>17}"
        )
    lines.append(
        "(war won +1, lost -2; a tie at war +2 with the tie-after-war bonus, +1 without; "
        "surrender -1/2)"
    )
    return "\n".join(lines)


def _load_paytable(path: Path | None) -> Paytable:
    if path is None:
        return SEED_PAYTABLE
    return Paytable.from_json(json.loads(path.read_text(encoding="utf-8")))


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return f"{exc.field}: {exc}"
    return str(exc)


def _exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _number(value: Fraction) -> dict[str, Any]:
    return {"exact": _exact(value), "float": float(value)}


def _to_json(result: PaytableReturn) -> dict[str, Any]:
    return {
        "decks": result.decks,
        "war": result.war,
        "wager": result.wager,
        "meter": result.meter_cents,
        "other_bets": result.other_bets,
        "outcomes": [
            {
                "outcome": row.outcome.value,
                "probability": _number(row.probability),
                "one_in": float(1 / row.probability) if row.probability else None,
                "fixed": _number(row.fixed),
                "meter": _number(row.meter),
                "envy": _number(row.envy),
            }
            for row in result.outcomes
        ],
        "fixed_return": _number(result.fixed),
        "meter_return": _number(result.meter),
        "envy_return": _number(result.envy),
        "total_return": _number(result.total),
        "house_edge": _number(result.house_edge),
    }


def _table(result: PaytableReturn, paytable: Paytable) -> str:
    play = "always surrenders" if not result.war else "always goes to war"
    lines = [
        f"{result.decks} decks, player {play}; wager {money(result.wager)}, "
        f"meter {money(result.meter_cents)}, {result.other_bets} other bets",
        f"{'outcome':<22} {'1 in':>11}  {'probability':<20} {'pays':<40}"
        f" {'fixed':>8} {'meter':>8} {'envy':>8}",
    ]
    for row in result.outcomes:
        lines.append(_row(row, paytable.line(row.outcome), result.wager))
    lines += _totals(
        ("fixed-pay return", result.fixed),
        ("meter return", result.meter),
        ("envy return", result.envy),
        ("total return", result.total),
        ("house edge", result.house_edge),
    )
    return "\n".join(lines)


def _totals(*rows: tuple[str, Fraction]) -> list[str]:
    """A table's closing lines: a label and a percentage each."""
    return [f"{label:<18} {_percent(value):>9}" for label, value in rows]


def _row(row: OutcomeReturn, line: PayLine | None, wager: int) -> str:
    one_in = f"{float(1 / row.probability):,.1f}" if row.probability else "never"
    return (
        f"{row.outcome.value:<22} {one_in:>11}  {_exact(row.probability):<20}"
        f" {_pays(line, wager):<40} {_percent(row.fixed):>8} {_percent(row.meter):>8}"
        f" {_percent(row.envy):>8}"
    )


def _pays(line: PayLine | None, wager: int) -> str:
    if line is None:
        return "loses"
    parts = [f"{line.odds} to 1"]
    if line.meter_bp:
        parts.append(f"+ {line.meter_bp * 100 / FULL_METER_BP:g}% meter")
    if line.envy is not None:
        parts.append(f"+ envy {money(line.envy.pay_for(wager))}")
    return " ".join(parts)


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


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
    try:
        reset, rate, reserve = (int(part) for part in parts[:3])
    except ValueError:
        raise argparse.ArgumentTypeError(
            "must be NAME=RESET,RATE_BP,RESERVE_RATE_BP[,LEVEL], e.g. main=100000,400,100"
        ) from None
    if not name or reset < 0 or rate < 0 or reserve < 0 or rate + reserve > 10_000:
        raise argparse.ArgumentTypeError(
            "needs a name, a reset and rates of 0 or more, the rates at most 10000 together"
        )
    if len(parts) == 3:
        return name, PoolTerms(reset, rate, reserve)
    if len(parts) != 4:
        raise argparse.ArgumentTypeError("takes at most one LEVEL after the rates")
    return name, _level(reset, rate, reserve, parts[3])


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
