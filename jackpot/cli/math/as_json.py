"""`jackpot math --json`: every figure exact (a fraction) and as a float."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from jackpot.cli.math.figures import Figures
from jackpot.cli.math.text import exact
from jackpot.domain.odds import BaseGame, LongRunReturn, PaytableReturn, PoolTerms


def as_json(figures: Figures) -> dict[str, Any]:
    body = {
        "paytable": figures.paytable.to_json(),
        "results": [_to_json(r) for r in figures.results],
        "base_game": [_game_json(bonus, plain) for bonus, plain in figures.games],
    }
    if figures.long_run:
        body["below_qualifying_share"] = {p: _number(x) for p, x in figures.below.items()}
        body["long_run"] = [
            _long_run_json(r.decks, lr, figures.pools)
            for r, lr in zip(figures.results, figures.long_run, strict=True)
        ]
    return body


def _number(value: Fraction) -> dict[str, Any]:
    return {"exact": exact(value), "float": float(value)}


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
