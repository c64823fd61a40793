"""Throughput of the table side: vectorised side-bet hands/s and full-engine rounds/s.

Run from the repository root: `python bench/bench_engine.py [--hands N] [--rounds N]`.
Not a test: it prints one line per measurement, best of `--repeat` runs, on one core.
`--quick` is a smoke run: every measurement once, at 20,000 hands and 50 rounds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

# One core: keep any threaded numpy backend to a single thread (set before numpy loads).
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

from table_adapter.game.bets import Bet  # noqa: E402
from table_adapter.game.engine import Table  # noqa: E402
from table_adapter.game.report import round_report  # noqa: E402
from table_adapter.game.strategies import MIX, SURRENDER, WAR, Strategy  # noqa: E402


def best_of(repeat: int, run: Callable[[], int]) -> float:
    """The best rate (units per second) of `repeat` runs of `run`, which returns its units."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        units = run()
        rates.append(units / (time.perf_counter() - start))
    return max(rates)


def bench_montecarlo(hands: int, repeat: int) -> None:
    from table_adapter.floor import montecarlo

    montecarlo.simulate(10_000, seed=0)  # warm up
    for decks in (6, 8):
        for war in (True, False):

            def run(d: int = decks, w: bool = war) -> int:
                return sum(montecarlo.simulate(hands, d, war=w, seed=1).values())

            rate = best_of(repeat, run)
            mode = "war" if war else "surrender"
            print(
                f"montecarlo decks={decks} {mode:9}: {rate / 1e6:6.2f} M side-bet hands/s "
                f"({hands:,} hands dealt and evaluated)"
            )


def bench_engine(rounds: int, repeat: int) -> None:
    live = [Bet(s, 1000, tie=100, side=500, player=f"p{s}") for s in range(1, 8)]
    strategies: list[Strategy] = [WAR, SURRENDER, MIX]
    stadium = [
        Bet(h, 1000, side=100, player=f"p{p}", strategy=strategies[p])
        for p in range(3)
        for h in range(1, 8)
    ]
    cases = [
        ("wisconsin", live, "7 spots"),
        ("massachusetts", live, "7 spots"),
        ("south_dakota", live, "7 spots"),
        ("stadium", stadium, "7 hands x 3 players"),
    ]
    for profile, bets, shape in cases:

        def run(p: str = profile, b: list[Bet] = bets) -> int:
            table = Table("BENCH", p, seed=1)
            for _ in range(rounds):
                table.play_round(b)
            return rounds

        def run_reported(p: str = profile, b: list[Bet] = bets) -> int:
            table = Table("BENCH", p, seed=1)
            for _ in range(rounds):
                rnd = table.play_round(b)
                if hasattr(rnd, "report"):
                    round_report(rnd)
            return rounds

        dealt = best_of(repeat, run)
        reported = best_of(repeat, run_reported)
        print(
            f"engine {profile:13} {shape:19}: {dealt:9,.0f} rounds/s dealt and settled, "
            f"{reported:9,.0f} rounds/s with the report built"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5_000_000)
    parser.add_argument("--rounds", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--quick", action="store_true", help="every measurement once, at the smallest size"
    )
    args = parser.parse_args()
    if args.quick:
        args.hands, args.rounds, args.repeat = 20_000, 50, 1
    print(f"python {sys.version.split()[0]}, one core")
    try:
        bench_montecarlo(args.hands, args.repeat)
    except ImportError:
        print("montecarlo: skipped (numpy is the `sim` extra)")
    bench_engine(args.rounds, args.repeat)


if __name__ == "__main__":
    main()
