"""Stacks measured in turn under the same round load, and their ratios to the first one.

    results = in_turns([(name, service, secret), ...], TABLES, seconds, concurrency, pairs)
    summary(results)

Each stack's phase is measured in turn (A B C A B C ...), so whatever else loads the machine
weighs on all of them alike; a ratio is taken within each turn, and their median reported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from loadgen import LoadGenerator, PhaseResult, Target
from service import Service


def arguments(doc: str, turns: str) -> argparse.Namespace:
    """--seconds, --pairs and --concurrency, as every benchmark of stacks in turn takes them,
    and --quick: one turn of 0.5 s phases after 0.2 s of warm-up, 4 connections (a smoke run)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each measured phase")
    parser.add_argument("--pairs", type=int, default=3, help=f"turns of {turns}")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: one turn of 0.5 s phases"
    )
    args = parser.parse_args()
    args.warmup = 1.0
    if args.quick:
        args.seconds, args.pairs, args.concurrency, args.warmup = 0.5, 1, 4, 0.2
    return args


def header(redis_server: str, args: argparse.Namespace) -> None:
    """What the figures were measured with."""
    version = subprocess.run([redis_server, "--version"], capture_output=True, text=True)
    print(f"redis: {version.stdout.strip()}; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cpus; {args.concurrency} connections, "
          f"{args.seconds:.0f} s phases")  # fmt: skip


def measure(
    name: str, service: Service, secret: str, tables: list[str], seconds: float,
    concurrency: int, turn: int, warmup: float = 1.0,
) -> PhaseResult:  # fmt: skip
    """One phase of rounds (16 connections' worth by default) after a second's warm-up."""
    target = Target(service.host, service.port, secret, tables, f"{name}-{turn}-{time.time_ns()}")
    load = LoadGenerator(target, concurrency, processes=2, seed=turn)
    try:
        load.run("rounds", warmup)  # warm: connections, caches
        return load.run("rounds", seconds)
    finally:
        load.close()


def in_turns(
    stacks: list[tuple[str, Service, str]], tables: list[str], seconds: float,
    concurrency: int, pairs: int,
    watch: Callable[[str], Callable[[PhaseResult], str]] | None = None,
    warmup: float = 1.0,
) -> dict[str, list[PhaseResult]]:  # fmt: skip
    """Each stack's phases, measured in turn; each printed as it ends. `watch(name)`, called
    before a phase, returns what to call with its result after it: what it returns is
    printed on the phase's line."""
    results: dict[str, list[PhaseResult]] = {name: [] for name, _, _ in stacks}
    width = max(len(name) for name, _, _ in stacks) + 2
    for turn in range(pairs):
        for name, service, secret in stacks:
            done = watch(name) if watch is not None else None
            phase = measure(name, service, secret, tables, seconds, concurrency, turn, warmup)
            results[name].append(phase)
            errors = f" errors {phase.errors}" if phase.errors else ""
            if done is not None:
                errors += f"  {done(phase)}"
            print(f"  turn {turn + 1} {name:{width}s} {phase.rate:8,.0f} rounds/s  "
                  f"p50 {phase.percentile(50):6.2f} ms  p99 {phase.percentile(99):6.2f} ms"
                  f"{errors}")  # fmt: skip
    return results


def summary(results: dict[str, list[PhaseResult]]) -> None:
    """Median rounds/s, the median of the per-turn ratios to the first stack, p50 and p99."""
    names = list(results)
    base = results[names[0]]
    width = max(len(name) for name in names) + 2
    print()
    print(f"{'':{width}s} {'rounds/s':>10s} {'÷ A':>6s} {'p50 ms':>8s} {'p99 ms':>8s}")
    for name in names:
        mine = results[name]
        ratios = [m.ok / m.elapsed / (b.ok / b.elapsed) for m, b in zip(mine, base, strict=True)]
        rate = statistics.median(m.ok / m.elapsed for m in mine)
        p50 = statistics.median(m.percentile(50) for m in mine)
        p99 = statistics.median(m.percentile(99) for m in mine)
        print(f"{name:{width}s} {rate:10,.0f} {statistics.median(ratios):6.2f} "
              f"{p50:8.2f} {p99:8.2f}")  # fmt: skip
