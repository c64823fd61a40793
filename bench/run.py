"""Benchmark of issue 2: round reports per second against the service's own HTTP floor.

    python bench/run.py [--seconds S] [--concurrency C] [--json] [--quick]

For each configuration (by default the production one, AOF `appendfsync always`, then the
same with `appendfsync everysec`, labelled as such), in one run:

  1. start a private redis-server (the embedded store's `server_args`, free port, temp dir)
     and gunicorn exactly as `jackpot serve` does, with JACKPOT_REDIS_URL pointing at it;
  2. provision a pool and 7-spot tables with `jackpot keys create` and the operator API;
  3. warm up both endpoints, then measure GET /healthz (b) and POST /v1/rounds (a) for S
     seconds each, alternating in --slices slices (whatever else loads the machine weighs
     on both alike). Rounds: 7 spots, each with a side wager, random deals with wars
     (bench/reports.py), unique round ids; each rounds slice sits between two
     `INFO everything` snapshots (commands and Redis CPU per round);
  4. a short MONITOR sample of rounds, to tell the commands the service sent from the ones
     its Lua script ran (INFO commandstats counts both);
  5. read /metrics and check the round counter against the rounds acknowledged.

Same client (bench/loadgen.py), same concurrency, same server for (a) and (b). Everything
is bounded in time and runs on 127.0.0.1 only.

`--quick` runs the same steps at the smallest size (production's configuration alone unless
`--fsync` says otherwise, one slice of 0.5 s a phase, 0.2 s of warm-up, a MONITOR sample of 50
rounds): a smoke run of a few seconds, its figures too short to quote. With `--client wrk`
and no wrk installed, it says so and drives the load with bench/loadgen.py instead.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redisstats
from loadgen import LoadGenerator, PhaseResult, Target
from service import (
    POOL,
    RedisServer,
    Service,
    machine_cpu_seconds,
    proc_cpu_seconds,
    provision,
    start_redis,
    start_service,
)
from wrkload import WrkLoad

TARGET_RATIO = 0.6
TARGET_CPU_US = 50.0
PER_ROUND_WAGER_CENTS = 7 * 500  # deal(): seven spots, $5 each


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds per phase")
    p.add_argument("--warmup", type=float, default=3.0, help="warm-up seconds before each phase")
    p.add_argument("--concurrency", type=int, default=16, help="keep-alive connections")
    p.add_argument(
        "--processes",
        type=int,
        default=2,
        help="client processes the connections are spread over (threads within each)",
    )
    p.add_argument(
        "--slices",
        type=int,
        default=5,
        help="measure (b) and (a) alternately in this many slices each (S/slices seconds)",
    )
    p.add_argument("--tables", type=int, default=8, help="tables the rounds are spread over")
    p.add_argument(
        "--client",
        choices=("python", "wrk"),
        default="python",
        help="the load: bench/loadgen.py's processes, or wrk (bench/wrkload.py, less client CPU)",
    )
    p.add_argument(
        "--fsync",
        default="always,everysec",
        help="comma-separated appendfsync configurations (first: production's `always`)",
    )
    p.add_argument("--monitor-rounds", type=int, default=500, help="rounds in the MONITOR sample")
    p.add_argument(
        "--redis-cpu",
        type=int,
        default=None,
        help="give Redis this CPU alone, and everything else (gunicorn, the load) the others",
    )
    p.add_argument("--json", action="store_true", help="also print the results as JSON")
    p.add_argument("--json-file", type=Path, help="write the JSON results to this file")
    p.add_argument("--tmp", type=Path, default=None, help="parent of the temporary data dirs")
    p.add_argument("--keep", action="store_true", help="keep the temporary data dirs")
    p.add_argument(
        "--quick",
        action="store_true",
        help="the same run at the smallest size (a few seconds): a smoke run, not figures",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.seconds, args.warmup, args.slices, args.monitor_rounds = 0.5, 0.2, 1, 50
        if args.fsync == p.get_default("fsync"):
            args.fsync = "always"  # production's configuration alone
        if args.client == "wrk" and shutil.which("wrk") is None:
            print("quick: wrk is not installed (Debian's wrk): the load is bench/loadgen.py's")
            args.client = "python"
    if args.seconds <= 0 or args.seconds > 600 or args.warmup < 0 or args.warmup > 60:
        p.error("--seconds must be in (0, 600], --warmup in [0, 60]")
    if not 1 <= args.slices <= 100:
        p.error("--slices must be in 1..100")
    if not 1 <= args.concurrency <= 512 or args.processes < 1:
        p.error("--concurrency must be in 1..512, --processes at least 1")
    return args


# measurement helpers --------------------------------------------------------------------


def cpu_sample(
    gen: LoadGenerator | WrkLoad, service: Service, store: RedisServer
) -> dict[str, Any]:
    workers = {pid: proc_cpu_seconds(pid) for pid in service.worker_pids()}
    return {
        "client": gen.client_cpu_seconds(),
        "gunicorn_workers": sum(workers.values()),
        "gunicorn_master": proc_cpu_seconds(service.master_pid),
        "redis": proc_cpu_seconds(store.pid),
        "bench_parent": proc_cpu_seconds(os.getpid()),
        **machine_cpu_seconds(),
        "per_worker": workers,
    }


def cpu_delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    out = {k: after[k] - before[k] for k in after if k != "per_worker"}
    wb, wa = before["per_worker"], after["per_worker"]
    out["per_worker"] = {pid: wa[pid] - wb.get(pid, 0.0) for pid in wa}
    out["workers_changed"] = sorted(wb) != sorted(wa)
    return out


def cpu_sum(deltas: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"per_worker": {}, "workers_changed": False}
    for d in deltas:
        for k, v in d.items():
            if k == "per_worker":
                for pid, sec in v.items():
                    out["per_worker"][pid] = out["per_worker"].get(pid, 0.0) + sec
            elif k == "workers_changed":
                out[k] = out[k] or v
            else:
                out[k] = out.get(k, 0.0) + v
    return out


def cpu_report(delta: dict[str, Any], phase: PhaseResult) -> dict[str, Any]:
    n = max(phase.requests, 1)
    elapsed = phase.elapsed or float("inf")
    out: dict[str, Any] = {}
    total = 0.0
    for key in ("client", "gunicorn_workers", "gunicorn_master", "redis", "bench_parent"):
        seconds = delta[key]
        total += seconds
        out[key] = {"us_per_request": seconds / n * 1e6, "cores": seconds / elapsed}
    out["total"] = {"us_per_request": total / n * 1e6, "cores": total / elapsed}
    # everything else on the machine meanwhile (other jobs sharing the CPUs skew the figures)
    other = max(0.0, delta["machine_busy"] - total)
    out["other_processes"] = {"us_per_request": other / n * 1e6, "cores": other / elapsed}
    for key in ("irq", "steal"):
        sec = delta[f"machine_{key}"]
        out[f"machine_{key}"] = {"us_per_request": sec / n * 1e6, "cores": sec / elapsed}
    out["worker_cores"] = [
        round(delta["per_worker"][pid] / elapsed, 3) for pid in sorted(delta["per_worker"])
    ]
    out["workers_changed"] = delta["workers_changed"]
    return out


def phase_json(phase: PhaseResult) -> dict[str, Any]:
    return {
        "requests": phase.requests,
        "ok": phase.ok,
        "replayed": phase.replayed,
        "errors": phase.errors,
        "seconds": round(phase.elapsed, 3),
        "per_second": round(phase.rate, 1),
        "latency_ms": {
            "p50": phase.percentile(50),
            "p90": phase.percentile(90),
            "p99": phase.percentile(99),
            "max": phase.percentile(100),
        },
        **({"rounds_with_jackpot": phase.jackpot_rounds} if phase.kind == "rounds" else {}),
    }


METRIC_LINE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$")


def metric_values(text: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for line in text.splitlines():
        m = METRIC_LINE.match(line)
        if m:
            values[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return values


def check_metrics(service: Service, acknowledged: int, cut_off: int = 0) -> dict[str, Any]:
    """The service's counters against the rounds the client saw answered. `cut_off`: how
    many more it may have settled, answers the client dropped (wrk closes its connections at
    the end of a phase with a request in flight on each: at most one a connection a phase)."""
    status, body = service.call("GET", "/metrics")
    values = metric_values(body.decode())
    rounds = values.get("jackpot_rounds_total")
    wagered = values.get(f'jackpot_pool_wagered_cents_total{{pool="{POOL}"}}')
    server_errors = sum(
        v
        for k, v in values.items()
        if k.startswith("jackpot_http_requests_total{") and 'status="5' in k
    )
    return {
        "status": status,
        "jackpot_rounds_total": rounds,
        "rounds_acknowledged": acknowledged,
        "rounds_cut_off_allowed": cut_off,
        "rounds_match": rounds is not None and acknowledged <= rounds <= acknowledged + cut_off,
        "pool_wagered_cents": wagered,
        "wagered_expected": (rounds or 0) * PER_ROUND_WAGER_CENTS,
        "wagered_match": wagered == (rounds or 0) * PER_ROUND_WAGER_CENTS,
        "http_5xx": server_errors,
    }


# one configuration ------------------------------------------------------------------------


def run_configuration(args: argparse.Namespace, fsync: str, root: Path) -> dict[str, Any]:
    run_dir = root / f"fsync-{fsync}"
    store = start_redis(
        run_dir / "redis", fsync, None if args.redis_cpu is None else {args.redis_cpu}
    )
    service: Service | None = None
    gen: LoadGenerator | WrkLoad | None = None
    try:
        service = start_service(run_dir / "service", store.url)
        tables = [f"BENCH-{i + 1}" for i in range(args.tables)]
        secret = provision(service, store.url, run_dir / "service", tables)
        target = Target(service.host, service.port, secret, tables, f"r{int(time.time())}")
        if args.client == "wrk":
            gen = WrkLoad(target, args.concurrency, args.processes)
        else:
            gen = LoadGenerator(target, args.concurrency, args.processes)
        acknowledged = 0
        client = store.client()

        # warm both paths, then measure (b) and (a) in alternating slices, so that anything
        # else loading the machine meanwhile weighs on both alike
        gen.run("healthz", args.warmup)
        warm = gen.run("rounds", args.warmup)
        acknowledged += warm.ok
        health_parts, round_parts = [], []
        health_cpu, round_cpu, redis_parts = [], [], []
        slice_seconds = args.seconds / args.slices
        for _ in range(args.slices):
            cpu0 = cpu_sample(gen, service, store)
            health_parts.append(gen.run("healthz", slice_seconds))
            cpu1 = cpu_sample(gen, service, store)
            health_cpu.append(cpu_delta(cpu0, cpu1))

            snap0 = redisstats.snapshot(client)
            cpu2 = cpu_sample(gen, service, store)
            part = gen.run("rounds", slice_seconds)
            cpu3 = cpu_sample(gen, service, store)
            snap1 = redisstats.snapshot(client)
            round_parts.append(part)
            round_cpu.append(cpu_delta(cpu2, cpu3))
            redis_parts.append(redisstats.delta(snap0, snap1, part.requests))
            acknowledged += part.ok
        health = PhaseResult.merge(health_parts)
        rounds = PhaseResult.merge(round_parts)
        stats = redisstats.Delta.merge(redis_parts)

        # who sends what: a small MONITOR sample (not measured: MONITOR costs Redis CPU)
        per_thread = max(1, -(-args.monitor_rounds // args.concurrency))
        monitor = redisstats.Monitor(store.url)
        sampled = gen.run("rounds", 30.0, limit_per_thread=per_thread)
        sample = monitor.stop()
        acknowledged += sampled.ok

        # INFO commandstats also counts what the script runs: tell the two apart
        inside = redisstats.script_commands("settle_round")
        per_round = stats.per_round()
        sent = {k: v for k, v in per_round.items() if k not in inside}
        sampled_sent = sample.as_json(sampled.ok)["client_commands_per_round"]
        sent_in_sample_only = {k: v for k, v in sampled_sent.items() if k in inside}
        evalsha = stats.commands.get("evalsha", {})
        one_evalsha = (
            evalsha.get("calls") == stats.rounds
            and not evalsha.get("failed_calls")
            and not evalsha.get("rejected_calls")
            and set(sent) == {"evalsha"}
            and not sent_in_sample_only
        )

        # wrk drops the answers in flight when a phase ends: the warm-up, the slices and the
        # MONITOR sample
        cut_off = args.concurrency * (args.slices + 2) if args.client == "wrk" else 0
        metrics = check_metrics(service, acknowledged, cut_off)
        problems = service.log_problems()
        ratio = rounds.rate / health.rate if health.rate else float("nan")
        return {
            "label": f"appendfsync {fsync}" + (" (production)" if fsync == "always" else ""),
            "appendfsync": fsync,
            "redis_version": store.version,
            "workers": service.settings.workers,
            # (a tree from before the gevent worker has threads instead: bench/compare.py)
            "max_connections": getattr(service.settings, "max_connections", None),
            "healthz": {**phase_json(health), "cpu": cpu_report(cpu_sum(health_cpu), health)},
            "rounds": {**phase_json(rounds), "cpu": cpu_report(cpu_sum(round_cpu), rounds)},
            "ratio": ratio,
            "ratio_target_met": ratio >= TARGET_RATIO,
            "redis": {
                "rounds": stats.rounds,
                "commands_per_round": per_round,
                "sent_by_service_per_round": sent,
                "run_by_script_per_round": {k: v for k, v in per_round.items() if k in inside},
                "exactly_one_evalsha": one_evalsha,
                "commands": stats.commands,
                "evalsha_usec_per_call": stats.usec_per_call("evalsha"),
                "cpu_us_per_round": stats.cpu_us_per_round,
                "cpu_main_thread_us_per_round": stats.cpu_main_us_per_round,
                "monitor_sample": sample.as_json(sampled.ok + sampled.replayed),
                "monitor_sample_errors": sampled.errors,
            },
            "metrics_check": metrics,
            "warmup_rounds": {"ok": warm.ok, "errors": warm.errors},
            "gunicorn_log_problems": problems[:20],
            "gunicorn_log_problem_count": len(problems),
        }
    finally:
        if gen is not None:
            gen.close()
        if service is not None:
            service.stop()
        store.stop()


# reporting --------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    revision = ""
    try:
        revision = subprocess.run(
            ["git", "--no-optional-locks", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        pass
    from importlib.metadata import version

    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "gunicorn": version("gunicorn"),
        "flask": version("flask"),
        "redis_py": version("redis"),
        "kernel": platform.release(),
        "revision": revision,
    }


def fsync_probe(directory: Path, count: int = 200) -> dict[str, float]:
    """What one AOF fsync costs on the data directory's disk: append 512 bytes, fdatasync
    (what redis-server does after each write batch under appendfsync always)."""
    path = directory / "fsync-probe"
    times = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for _ in range(count):
            t0 = time.perf_counter()
            os.write(fd, b"x" * 512)
            os.fdatasync(fd)
            times.append((time.perf_counter() - t0) * 1000)
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    times.sort()
    return {"p50_ms": times[len(times) // 2], "p99_ms": times[int(len(times) * 0.99) - 1]}


def fmt(x: float | None, digits: int = 1) -> str:
    if x is None or x != x:
        return "-"
    return f"{x:,.{digits}f}"


def verdict(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


LABELS = {
    "total": "= ours (sum)",
    "other_processes": "other processes",
    "machine_irq": "irq + softirq",
    "machine_steal": "steal",
}


def print_human(result: dict[str, Any]) -> None:
    m = result["machine"]
    a = result["args"]
    print(
        f"machine: {m['nproc']} CPUs ({m['cpu']}), Python {m['python']}, "
        f"gunicorn {m['gunicorn']}, Flask {m['flask']}, redis-py {m['redis_py']}, "
        f"redis-server {result['configs'][0]['redis_version']}, revision {m['revision'] or '?'}"
    )
    print(
        f"data dir disk: append+fdatasync p50 {m['data_dir_fsync']['p50_ms']:.2f} ms, "
        f"p99 {m['data_dir_fsync']['p99_ms']:.2f} ms; load average before the run "
        f"{m['loadavg_before'][0]:.2f} (anything else running skews every figure)"
    )
    over = "wrk threads" if a.get("client") == "wrk" else "processes"
    shared = (
        f"redis alone on CPU {a['redis_cpu']}, client and gunicorn on the others"
        if a.get("redis_cpu") is not None
        else f"client, gunicorn and redis share the {m['nproc']} CPUs"
    )
    print(
        f"client: {a['concurrency']} keep-alive connections over {a['processes']} {over}; "
        f"{a['seconds']:g} s measured per phase after {a['warmup']:g} s warm-up; {shared}"
    )
    for c in result["configs"]:
        h, r, rd, mc = c["healthz"], c["rounds"], c["redis"], c["metrics_check"]
        print()
        print(f"== {c['label']}: gunicorn {c['workers']} workers ==")
        print(
            f"{'':22}{'req/s':>10}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}"
            f"{'requests':>10}{'errors':>8}"
        )
        for name, ph in (("(b) GET /healthz", h), ("(a) POST /v1/rounds", r)):
            lat = ph["latency_ms"]
            print(
                f"{name:22}{fmt(ph['per_second']):>10}{fmt(lat['p50'], 2):>9}"
                f"{fmt(lat['p90'], 2):>9}{fmt(lat['p99'], 2):>9}{fmt(lat['max'], 2):>9}"
                f"{ph['requests']:>10}{sum(ph['errors'].values()):>8}"
            )
        print(
            f"ratio (a)/(b): {c['ratio']:.3f}  (target >= {TARGET_RATIO}: "
            f"{verdict(c['ratio_target_met'])})"
        )
        print("CPU per request (us) and cores busy (all processes, all threads):")
        print(f"  {'':18}{'healthz us':>11}{'cores':>7}{'round us':>11}{'cores':>7}")
        for key in (
            "client",
            "gunicorn_workers",
            "gunicorn_master",
            "redis",
            "total",
            "other_processes",
            "machine_irq",
            "machine_steal",
        ):
            hc, rc = h["cpu"][key], r["cpu"][key]
            label = LABELS.get(key, key)
            print(
                f"  {label:18}{fmt(hc['us_per_request'], 0):>11}{fmt(hc['cores'], 2):>7}"
                f"{fmt(rc['us_per_request'], 0):>11}{fmt(rc['cores'], 2):>7}"
            )
        print(
            f"  per gunicorn worker (cores): healthz {h['cpu']['worker_cores']}, "
            f"rounds {r['cpu']['worker_cores']}"
        )
        print(
            f"Redis commands per round (INFO commandstats delta / {rd['rounds']} rounds; "
            "the benchmark's own INFO taken out):"
        )
        print(
            "  sent by the service: "
            + ", ".join(f"{k} {v:.4f}" for k, v in rd["sent_by_service_per_round"].items())
            + f"  (target exactly one EVALSHA and nothing else: "
            f"{verdict(rd['exactly_one_evalsha'])})"
        )
        print(
            "  run inside settle_round.lua: "
            + ", ".join(f"{k} {v:.4f}" for k, v in rd["run_by_script_per_round"].items())
        )
        sample = rd["monitor_sample"]
        print(
            f"  MONITOR sample ({sample['rounds']} rounds, "
            f"{sample['client_connections_seen']} service connections): from the service "
            + (", ".join(f"{k} {v:.3f}" for k, v in sample["client_commands_per_round"].items()))
            + "; from the script "
            + ", ".join(f"{k} {v:.2f}" for k, v in sample["script_commands_per_round"].items())
        )
        cpu_ok = rd["evalsha_usec_per_call"] <= TARGET_CPU_US
        print(
            f"Redis CPU per round: commandstats evalsha {fmt(rd['evalsha_usec_per_call'])} us/call"
            f" (target <= {TARGET_CPU_US:g}: {verdict(cpu_ok)}); INFO cpu (sys+user, whole "
            f"process) {fmt(rd['cpu_us_per_round'])} us"
            + (
                f", main thread {fmt(rd['cpu_main_thread_us_per_round'])} us"
                if rd["cpu_main_thread_us_per_round"] is not None
                else ""
            )
        )
        print(
            f"/metrics: jackpot_rounds_total {fmt(mc['jackpot_rounds_total'], 0)} vs "
            f"{mc['rounds_acknowledged']} acknowledged"
            + (
                f" (+ up to {mc['rounds_cut_off_allowed']} cut off)"
                if mc["rounds_cut_off_allowed"]
                else ""
            )
            + f": {'OK' if mc['rounds_match'] else 'MISMATCH'}"
            f"; pool wagered {fmt(mc['pool_wagered_cents'], 0)} c vs "
            f"{mc['wagered_expected']}: {'OK' if mc['wagered_match'] else 'MISMATCH'}"
            f"; 5xx answered: {fmt(mc['http_5xx'], 0)}"
        )
        if c["gunicorn_log_problem_count"]:
            print(f"gunicorn log: {c['gunicorn_log_problem_count']} problem lines, e.g.:")
            for line in c["gunicorn_log_problems"][:5]:
                print(f"  {line}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    fsyncs = [f.strip() for f in args.fsync.split(",") if f.strip()]
    for f in fsyncs:
        if f not in ("always", "everysec", "no"):
            raise SystemExit(f"unknown appendfsync {f!r}")
    if args.redis_cpu is not None:
        others = os.sched_getaffinity(0) - {args.redis_cpu}
        if args.redis_cpu not in os.sched_getaffinity(0) or not others:
            raise SystemExit(f"--redis-cpu {args.redis_cpu}: needs that CPU and one more")
        os.sched_setaffinity(0, others)  # gunicorn and the load generator inherit it
    root = Path(tempfile.mkdtemp(prefix="jackpot-bench-", dir=args.tmp))
    load_before = os.getloadavg()
    try:
        fsync = fsync_probe(root)
        configs = [run_configuration(args, f, root) for f in fsyncs]
    finally:
        if args.keep:
            print(f"data kept under {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    result = {
        "command": "python bench/run.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": {
            **machine(),
            "data_dir_fsync": fsync,
            "loadavg_before": [round(x, 2) for x in load_before],
        },
        "args": {
            "seconds": args.seconds,
            "warmup": args.warmup,
            "concurrency": args.concurrency,
            "processes": args.processes,
            "client": args.client,
            "slices": args.slices,
            "tables": args.tables,
            "redis_cpu": args.redis_cpu,
        },
        "configs": configs,
    }
    print_human(result)
    if args.json or args.json_file:
        text = json.dumps(result, indent=2, default=str)
        if args.json:
            print(text)
        if args.json_file:
            args.json_file.write_text(text + "\n")
    failed = any(
        sum(c[p]["errors"].values()) or not c["metrics_check"]["rounds_match"]
        for c in configs
        for p in ("healthz", "rounds")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
