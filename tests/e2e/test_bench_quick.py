"""Every bench script's `--quick` smoke run (bench/README.md): run as a user runs it, a
subprocess of `python bench/<script> --quick` from the repository's root, it exits 0 and
prints its report. A bench that no longer imports, or whose use cases moved, fails here, not
the next time someone measures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.browser import needs_chromium
from tests.support.cluster import cluster_unsupported
from tests.support.postgres_server import PostgresUnavailable, binaries
from tests.support.proxy import needs_nginx

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
TIMEOUT = 240  # seconds a quick run may take: a few on a quiet machine, more on a busy one


def _no_postgres() -> str | None:
    try:
        binaries()
    except PostgresUnavailable as exc:
        return str(exc)
    return None


needs_postgres = pytest.mark.skipif(_no_postgres() is not None, reason=str(_no_postgres()))
needs_cluster = pytest.mark.skipif(
    cluster_unsupported() is not None, reason=str(cluster_unsupported())
)

#: (script and its arguments after --quick, what its report must show: a regex, per line)
CASES = [
    pytest.param(["run.py"], r"^/metrics: jackpot_rounds_total [\d,]+ vs \d+ acknowledged: OK",
                 id="run.py"),
    # wrkload.py's path; without wrk the quick run says so and uses loadgen
    pytest.param(["run.py", "--client", "wrk"], r"^\(a\) POST /v1/rounds +[\d,.]+ ",
                 id="run.py-wrk"),
    # HEAD against HEAD: both benches on both trees, and the table of their figures
    pytest.param(["compare.py"],
                 r"(?s)^rounds/s .*higher is better\)$.*^script µs/call .*lower is better\)$",
                 id="compare.py"),
    pytest.param(["bench_round_script.py"], r"^redis-server .* EVALSHA [\d.]+ us",
                 id="bench_round_script.py"),
    pytest.param(["bench_script.py"], r"^skeleton \(same commands\) +[\d.]+ +[\d.]+$",
                 id="bench_script.py"),
    pytest.param(["profile_round.py"], r"^self time, by function$", id="profile_round.py"),
    pytest.param(["bench_engine.py"], r"^engine wisconsin .* rounds/s dealt and settled",
                 id="bench_engine.py"),
    pytest.param(["bench_floor.py"], r"^\| 2 \| \d+ \| [\d,.]+ \|", id="bench_floor.py"),
    pytest.param(["bench_archive.py"], r"^gaming day of 200 rounds closed .*balanced: True\)$",
                 id="bench_archive.py"),
    pytest.param(["bench_payout_search.py"], r"^postgresql: 300 past payouts",
                 id="bench_payout_search.py", marks=needs_postgres),
    pytest.param(["bench_day_report.py"], r"^  printed \(PDF\) +[\d.]+ +[\d.]+$",
                 id="bench_day_report.py", marks=needs_chromium),
    pytest.param(["bench_verify.py"], r"^one day of 300 rounds: .* intact: True$",
                 id="bench_verify.py"),
    pytest.param(["bench_scale.py"], r"^floor big / small", id="bench_scale.py"),
    pytest.param(["bench_replication.py"], r"^B-replica-wait-always: .* WAIT 1 -> 1$",
                 id="bench_replication.py"),
    pytest.param(["bench_cluster.py"], r"^  C-cluster-six-groups +busiest master",
                 id="bench_cluster.py", marks=needs_cluster),
    pytest.param(["bench_signs.py"], r"^round -> sign p50/p99, loaded .*, 0 missed\)$",
                 id="bench_signs.py"),
    pytest.param(["bench_slow_clients.py"], r"^  /healthz answered under attack +3 of 3",
                 id="bench_slow_clients.py", marks=needs_nginx),
]  # fmt: skip


def test_every_runnable_bench_script_has_a_quick_case() -> None:
    runnable = {
        path.name for path in BENCH.glob("*.py") if 'if __name__ == "__main__":' in path.read_text()
    }
    covered = {param.values[0][0] for param in CASES}  # type: ignore[index]
    assert runnable == covered


@pytest.mark.parametrize(("argv", "report"), CASES)
def test_quick_run_exits_0_and_prints_its_report(argv: list[str], report: str) -> None:
    script, *more = argv
    env = {k: v for k, v in os.environ.items() if not k.startswith("JACKPOT_")}
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--quick", *more],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    took = time.monotonic() - began
    output = f"--- stdout ({took:.1f} s)\n{done.stdout}\n--- stderr\n{done.stderr}"
    assert done.returncode == 0, output
    assert re.search(report, done.stdout, re.MULTILINE), output
    assert "Traceback" not in done.stderr, output
    assert " failed: " not in done.stdout, output  # compare.py: a bench that failed on a tree
