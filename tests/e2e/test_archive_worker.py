"""The archive as processes run it: `jackpot worker` archives and trims on its schedule,
`jackpot archive` killed mid-run leaves no gap and no duplicate, `jackpot verify` says so."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import redis as redis_lib

from jackpot.archive.store import Archive
from jackpot.domain.journals import HOUSE, pool_journal
from jackpot.settings import Settings
from tests.support.api import Api
from tests.support.model import random_round
from tests.support.service import jackpot


def env_for(redis_server: Any, settings: Settings, **extra: str) -> dict[str, str]:
    """The in-process app's store and archive, for a `jackpot` command."""
    return {
        **os.environ,
        "JACKPOT_REDIS_URL": redis_server.url,
        "JACKPOT_DATA_DIR": str(settings.data_dir),
        **extra,
    }


def deal(api: Api, n: int, prefix: str) -> list[dict[str, Any]]:
    rng = random.Random(prefix)
    bodies = [random_round(rng, "T1", f"{prefix}{i}", tie_bias=0.2) for i in range(n)]
    for body in bodies:
        assert api.report(body).status_code == 200
    return bodies


def seqs(archive: Archive, journal: str) -> list[int]:
    return [e.seq for e, _ in archive.walk(journal)]


def test_the_worker_archives_and_trims_on_its_schedule(
    linked: Api, redis: redis_lib.Redis, redis_server: Any, settings: Settings, tmp_path: Path
) -> None:
    bodies = deal(linked, 40, "w")
    answers = {b["round"]: linked.report(b).get_json() for b in bodies[:5]}
    env = env_for(
        redis_server,
        settings,
        JACKPOT_ARCHIVE_INTERVAL_SECONDS="1",
        JACKPOT_RETENTION_SECONDS="1",
        JACKPOT_CLOCK_SKEW_SECONDS="0",
    )
    log = tmp_path / "worker.log"
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli.main", "worker"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while redis.xlen("{jackpot}/journal") or redis.keys("{jackpot}/round/*"):
            assert worker.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
    # quiet at INFO (issue 27, part 4): none of RQ's routine lines, and what an operator acts
    # on, the rows the archive moved, said by the job
    lines = log.read_text().splitlines()
    assert [line for line in lines if " rq." in line] == []
    said = [line.partition("jackpot.jobs: ")[2] for line in lines if "jackpot.jobs: " in line]
    said = [s for s in said if s.startswith("archive: ")]  # (the other jobs say their own)
    moved = [
        re.fullmatch(r"archive: (\d+) journal entries \(\d+ rounds\) moved into the archive", s)
        for s in said
    ]
    trimmed = [
        re.fullmatch(r"archive: (\d+) archived journal entries trimmed from Redis", s) for s in said
    ]
    assert all(a or b for a, b in zip(moved, trimmed, strict=True)), said
    entries = sum(int(m.group(1)) for m in moved if m)
    assert entries == sum(int(m.group(1)) for m in trimmed if m) > 40, said
    archive = Archive(settings.archive)
    house = seqs(archive, HOUSE)
    assert house == list(range(1, len(house) + 1)) and len(house) >= 40
    assert seqs(archive, pool_journal("main"))
    # the app (7-day window) answers the old reports from the archive, as replays
    for body in bodies[:5]:
        again = linked.report(body)
        assert again.status_code == 200
        assert again.get_json() == answers[body["round"]]
    verified = jackpot("verify", cwd=tmp_path, env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "intact" in verified.stdout


def test_a_killed_archive_run_leaves_no_gap_and_no_duplicate(
    linked: Api, redis: redis_lib.Redis, redis_server: Any, settings: Settings, tmp_path: Path
) -> None:
    deal(linked, 600, "k")
    env = env_for(redis_server, settings)
    for delay in (0.3, 0.6, 1.0):
        run = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli.main", "archive", "--no-trim"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        run.kill()  # SIGKILL: no finally, no rollback by the process itself
        run.wait()
        deal(linked, 50, f"k{delay}")
    # a killed run leaves its lock to expire (LOCK_SECONDS); stand in for that wait here
    redis.delete("{jackpot}/archive/lock")
    done = jackpot("archive", cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    archive = Archive(settings.archive)
    for journal in (HOUSE, pool_journal("main")):
        found = seqs(archive, journal)
        assert found == list(range(1, len(found) + 1)), journal
    stream_last = int(redis.xrevrange("{jackpot}/journal", count=1)[0][0].split("-")[0])
    assert seqs(archive, HOUSE)[-1] == stream_last
    verified = jackpot("verify", cwd=tmp_path, env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
