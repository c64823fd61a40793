"""Two commits' round path side by side, in one sitting (issue 41): the guard that keeps its
speed.

    python bench/compare.py BASE [HEAD] [--rounds 3] [--seconds 8] [--script-rounds 2000]
        [--only e2e|script] [--json-file F]
    python bench/compare.py --quick [BASE [HEAD]]     # a smoke run: HEAD against HEAD

Both trees are checked out as detached `git worktree`s in a temporary directory and sealed,
and both are measured with HEAD's own bench scripts (copied over the base tree's `bench/`),
so that what differs is the product, never the measure. Then, `--rounds` times, each tree
runs in turn, the order alternating (base, head; head, base; ...) so that a machine that
warms up or drifts weighs on both alike:

* the end to end bench, `bench/run.py --fsync always`: a 7-spot round's `POST /v1/rounds`
  per second, `GET /healthz` per second, their ratio, and Redis CPU per round;
* the script bench, `bench/bench_round_script.py`: the round script alone, uncontended,
  through the service's own `rounds.report` in process: Redis time and CPU per call, and the
  process's Python CPU per round (the one script bench every tree since 41b8605 runs), and,
  where valgrind is installed, Redis's instructions per round counted by callgrind, and the
  process's own (Python's) likewise: the figures no other load on the machine moves (to a
  few in 10,000), so the ones to read first, the first for a change to the script, the
  second for a change to the Python between a round's request and its answer.

It prints each figure's median per tree with its spread (lowest..highest), and the ratio head
÷ base of the medians with the spread of the per-round ratios. A change to the round path
shows this table in its commit message (docs/PERFORMANCE.md, "Changing the round path").

Needs what the benches need (redis-server on PATH, the project's venv); it touches nothing
outside its temporary directory and 127.0.0.1. A run of 3 rounds at 10 s takes about 15
minutes on 2 cores.

`--quick` is the same run at the smallest size: BASE defaults to HEAD, one round, each bench
run with its own `--quick`, and no instruction counts (valgrind's, minutes each): a smoke
run of the whole path (worktrees, seal, both benches on both trees, the table), not figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RUNS = itertools.count(1)  # each bench run's own file

#: (name, bench, how to read it from the bench's JSON, higher is better)
FIGURES: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("rounds/s", "e2e", ("configs", 0, "rounds", "per_second"), True),
    ("/healthz req/s", "e2e", ("configs", 0, "healthz", "per_second"), True),
    ("rounds/s ÷ /healthz", "e2e", ("configs", 0, "ratio"), True),
    ("Redis CPU µs/round (e2e)", "e2e", ("configs", 0, "redis", "cpu_us_per_round"), False),
    (
        "worker CPU µs/round",
        "e2e",
        ("configs", 0, "rounds", "cpu", "gunicorn_workers", "us_per_request"),
        False,
    ),
    (
        "worker CPU µs//healthz",
        "e2e",
        ("configs", 0, "healthz", "cpu", "gunicorn_workers", "us_per_request"),
        False,
    ),
    ("script µs/call", "script", ("script", "usec_per_call"), False),
    ("script Redis CPU µs/call", "script", ("script", "cpu_us_per_call"), False),
    ("Python µs/round (in process)", "script", ("script", "python_cpu_us_per_round"), False),
    ("AOF bytes/round", "script", ("script", "aof_bytes_per_round"), False),
    ("Redis instructions/round", "script", ("script", "instructions_per_round"), False),
    (
        "Python instructions/round",
        "script",
        ("script", "python_instructions_per_round"),
        False,
    ),
)


@dataclass
class Tree:
    label: str  # base | head
    commit: str  # full sha
    path: Path
    figures: dict[str, list[float]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base", nargs="?", help="the commit measured against (a sha, tag or branch)")
    p.add_argument("head", nargs="?", default="HEAD", help="the commit measured (default HEAD)")
    p.add_argument("--rounds", type=int, default=3, help="alternations of the two trees")
    p.add_argument("--seconds", type=float, default=8.0, help="run.py's measured seconds")
    p.add_argument("--warmup", type=float, default=2.0, help="run.py's warm-up seconds")
    p.add_argument("--script-rounds", type=int, default=2000, help="bench_script.py's rounds")
    p.add_argument("--only", choices=("e2e", "script"), help="run one of the two benches")
    p.add_argument(
        "--client", choices=("python", "wrk"), default="python", help="run.py's load client"
    )
    p.add_argument("--redis-cpu", type=int, help="run.py's --redis-cpu: Redis on a core alone")
    p.add_argument("--json-file", type=Path, help="write every figure measured to this file")
    p.add_argument("--keep", action="store_true", help="keep the worktrees")
    p.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: one round of each bench's --quick, no instruction counts; BASE "
        "defaults to HEAD",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.rounds = 1
        args.base = args.base or "HEAD"
    if args.base is None:
        p.error("BASE is required (the commit measured against)")
    if not 1 <= args.rounds <= 20:
        p.error("--rounds must be in 1..20")
    return args


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()


def checkout(label: str, commit: str, parent: Path) -> Tree:
    """A detached worktree of `commit` with HEAD's bench scripts, sealed."""
    sha = git("rev-parse", "--verify", f"{commit}^{{commit}}")
    path = parent / f"{label}-{sha[:10]}"
    git("worktree", "add", "--detach", str(path), sha)
    shutil.rmtree(path / "bench")
    shutil.copytree(REPO / "bench", path / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "jackpot.integrity", "seal"],
        cwd=path,
        env=env_for(path),
        check=True,
        capture_output=True,
    )
    return Tree(label, sha, path)


def env_for(path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JACKPOT_")}
    env["PYTHONPATH"] = str(path)
    env["PYTHONHASHSEED"] = "0"
    return env


def dig(data: Any, keys: tuple[Any, ...]) -> float:
    for key in keys:
        data = data[key]
    return float(data)


def measure(
    tree: Tree, bench: str, args: argparse.Namespace, scratch: Path, count: bool = True
) -> None:
    """One run of one bench on one tree; its figures appended to the tree's. The script
    bench `count`s instructions too (deterministic: the first round is enough)."""
    out = scratch / f"{tree.label}-{bench}-{next(RUNS)}.json"
    if bench == "e2e":
        command = [
            sys.executable, "bench/run.py", "--fsync", "always", "--seconds",
            str(args.seconds), "--warmup", str(args.warmup), "--json-file", str(out),
            "--client", args.client,
        ]  # fmt: skip
        if args.quick:
            command.append("--quick")
        if args.redis_cpu is not None:
            command += ["--redis-cpu", str(args.redis_cpu)]
    else:
        command = [sys.executable, "bench/bench_round_script.py", "--rounds",
                   str(args.script_rounds), "--json"]  # fmt: skip
        if args.quick:
            command.append("--quick")
        elif count and shutil.which("valgrind") and shutil.which("callgrind_control"):
            command += ["--instructions", "200", "--python-instructions", "600"]
    print(f"  {tree.label} {tree.commit[:10]}: {bench} ...", flush=True)
    done = subprocess.run(
        command, cwd=tree.path, env=env_for(tree.path), capture_output=True, text=True
    )
    if bench == "script" and done.returncode == 0:
        text = done.stdout[done.stdout.index("\n{") + 1 :]
        out.write_text(text)
    if done.returncode != 0 or not out.exists():
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        tree.failures.append(f"{bench}: exit {done.returncode}: {last[0]}")
        return
    data = json.loads(out.read_text())
    for name, which, keys, _ in FIGURES:
        if which == bench:
            try:
                value = dig(data, keys)
            except KeyError:  # a figure this run could not take (no valgrind)
                continue
            tree.figures.setdefault(name, []).append(value)


def spread(values: list[float]) -> str:
    return f"{fmt(min(values))}..{fmt(max(values))}"


def fmt(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.2f}"


def report(base: Tree, head: Tree) -> list[dict[str, Any]]:
    """Each figure: both trees' medians and spreads, head ÷ base, and the spread of the
    per-round ratios (round i of head against round i of base)."""
    rows = []
    for name, _, _, higher_better in FIGURES:
        b, h = base.figures.get(name, []), head.figures.get(name, [])
        if not b or not h:
            continue
        pairs = [y / x for x, y in zip(b, h, strict=False) if x]
        rows.append(
            {
                "figure": name,
                "higher_is_better": higher_better,
                "base": b,
                "head": h,
                "base_median": statistics.median(b),
                "head_median": statistics.median(h),
                "ratio": statistics.median(h) / statistics.median(b),
                "ratio_low": min(pairs),
                "ratio_high": max(pairs),
            }
        )
    width = max(len(r["figure"]) for r in rows) if rows else 10
    print()
    print(f"base {base.commit[:10]}  head {head.commit[:10]}  (median, lowest..highest)")
    print(f"{'figure':{width}s}  {'base':>22s}  {'head':>22s}  head ÷ base (per round)")
    for r in rows:
        better = "higher is better" if r["higher_is_better"] else "lower is better"
        print(
            f"{r['figure']:{width}s}  "
            f"{fmt(r['base_median']):>8s} {spread(r['base']):>13s}  "
            f"{fmt(r['head_median']):>8s} {spread(r['head']):>13s}  "
            f"{r['ratio']:.3f} ({r['ratio_low']:.3f}..{r['ratio_high']:.3f}; {better})"
        )
    for tree in (base, head):
        for failure in tree.failures:
            print(f"{tree.label} {tree.commit[:10]} failed: {failure}")
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    benches = [args.only] if args.only else ["e2e", "script"]
    parent = Path(tempfile.mkdtemp(prefix="jackpot-compare-"))
    trees: list[Tree] = []
    try:
        trees = [checkout("base", args.base, parent), checkout("head", args.head, parent)]
        base, head = trees
        if args.quick:
            print("quick: one round of each bench's --quick; no instruction counts", flush=True)
        for i in range(args.rounds):
            print(f"round {i + 1} of {args.rounds}", flush=True)
            order = (base, head) if i % 2 == 0 else (head, base)
            for bench in benches:
                for tree in order:
                    measure(tree, bench, args, parent, count=i == 0)
        rows = report(base, head)
        if args.json_file:
            args.json_file.write_text(
                json.dumps(
                    {
                        "base": base.commit,
                        "head": head.commit,
                        "rounds": args.rounds,
                        "seconds": args.seconds,
                        "figures": rows,
                        "failures": {t.label: t.failures for t in trees},
                    },
                    indent=2,
                )
                + "\n"
            )
        return 1 if any(t.failures for t in trees) else 0
    finally:
        for tree in trees:
            if args.keep:
                print(f"kept {tree.path}")
            else:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(tree.path)],
                    cwd=REPO,
                    check=False,
                    capture_output=True,
                )
        if not args.keep:
            shutil.rmtree(parent, ignore_errors=True)
            git("worktree", "prune")


if __name__ == "__main__":
    sys.exit(main())
