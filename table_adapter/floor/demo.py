"""`war-floor demo`: a few tables dealing at a watchable pace into a DEMO pool whose paytable
hits every minute or so, and a supervisor who confirms each jackpot after a short wait.

Everything here is labelled DEMO (pool, tables, paytable, the view): the livelier paytable
pays the whole meter on four of a kind or better, which no real game should. This is the
demo's plan; the command that runs it, with its controller, sign and supervisor, is
table_adapter/cli/demo.py.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from jackpot.domain.outcomes import Outcome
from jackpot.domain.paytable import FULL_METER_BP, SEED_PAYTABLE, Paytable
from table_adapter.floor.plan import STRATEGIES, FloorPlan
from table_adapter.game.profiles import PROFILES, get_profile

# named as patrons read it on the sign, the meter page and the console (D280)
DEMO_POOL = {
    "reset": 100_000,
    "rate_bp": 500,
    "reserve_rate_bp": 100,
    "name": "Casino War Progressive",
}
# The seed paytable's odds, but four of a kind and the suited double tie win the whole meter
# too (the seed: only the suited four of a kind, 1 in 496,512 bets). With players always at
# war that is one bet in about 1,670; at the demo's pace (4 tables, 3 rounds/s each, ~60 side
# bets/s), a jackpot every 30 s or so.
METER_OUTCOMES = frozenset(
    {Outcome.FOUR_OF_A_KIND, Outcome.SUITED_DOUBLE_TIE, Outcome.SUITED_FOUR_OF_A_KIND}
)
DEMO_PAYTABLE = Paytable(
    tuple(
        (outcome, replace(line, meter_bp=FULL_METER_BP) if outcome in METER_OUTCOMES else line)
        for outcome, line in SEED_PAYTABLE.lines
    )
)
LABEL = "DEMO paytable: four of a kind or better wins the whole meter"
SIDE_SHARE = 1.0  # every seated player takes the side bet


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="war-floor demo",
        description=(
            "Serve the controller on its embedded store (JACKPOT_BIND, default 127.0.0.1:8000) "
            "and feed it DEMO tables with a livelier DEMO paytable; a supervisor confirms each "
            "jackpot after a short wait. Ctrl-C stops; the next start continues the meters."
        ),
    )
    p.add_argument("--tables", type=_count(1), default=4, help="tables (default 4)")
    p.add_argument(
        "--rate",
        type=float,
        default=3.0,
        help="rounds per second per table (default 3; 0: as fast as answers come)",
    )
    p.add_argument(
        "--rounds", type=_count(0), default=0, help="per table, then stop (default 0: never)"
    )
    p.add_argument("--profile", choices=sorted(PROFILES), default="wisconsin")
    p.add_argument("--strategy", choices=STRATEGIES, default="war", help="on a tie (default war)")
    p.add_argument("--seed", type=int, default=None, help="deal reproducibly")
    p.add_argument(
        "--confirm-after",
        type=float,
        default=8.0,
        metavar="SECONDS",
        help="the supervisor confirms a jackpot this long after it hit (default 8)",
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("JACKPOT_DATA_DIR", "var")),
        help="the embedded store and the tables' journal (default var, or JACKPOT_DATA_DIR)",
    )
    return p


def _count(least: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"at least {least}")
        return value

    return parse


def plan(args: argparse.Namespace) -> FloorPlan:
    """The demo floor: DEMO-main fed by DEMO-1.. (Stadium tables get their own pool: linked
    tables play one game)."""
    stadium = get_profile(args.profile).stadium
    return FloorPlan(
        tables=args.tables,
        rounds=args.rounds or None,
        profile=args.profile,
        strategy=args.strategy,
        seed=args.seed,
        rate=max(args.rate, 0.0),
        pool="DEMO-stadium" if stadium else "DEMO-main",
        table_prefix="DEMO-S" if stadium else "DEMO-",
        side_share=SIDE_SHARE,
        paytable=DEMO_PAYTABLE,
    )
