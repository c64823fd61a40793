"""The README's commands, taken from the README itself and run as written.

A newcomer copies them into a shell; each must work on a fresh machine. The only changes the
test makes are the ones a test must make to run beside others on one machine, each named in
PLACES: the controller's documented addresses (`localhost:8000`, the signs' `:8001`, the
production host `https://jackpot.internal`) become free ports of this test's own controller,
its data lives in the test's directory, and the production `export`s of hosts this machine
does not have (`redis.internal`, `db.internal`) are the embedded defaults they say to omit.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from jackpot.store.embedded import free_port

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FIRST_SCREEN_LINES = 25  # what a terminal or a repository page shows before any scrolling


def sh_blocks(text: str) -> list[list[str]]:
    """Every ```sh block of the README, as its lines."""
    return [
        block.strip("\n").splitlines()
        for block in re.findall(r"^```sh\n(.*?)^```$", text, flags=re.S | re.M)
    ]


def commands(block: list[str]) -> list[str]:
    """A block's commands, each without its comment: a line continued with a backslash, or
    inside a quote that spans lines, is one command with the next."""
    out: list[str] = []
    pending = ""
    for line in "\n".join(block).replace("\\\n", "").splitlines():
        pending = f"{pending}\n{line}" if pending else line
        try:
            words = shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        if words:
            out.append(pending.split("  #", 1)[0].rstrip())
        pending = ""
    assert not pending, f"a command never ends: {pending!r}"
    return out


def the_block(starting: str) -> list[str]:
    found = [b for b in sh_blocks(README.read_text()) if b and b[0].startswith(starting)]
    assert len(found) == 1, f"the README has no one block starting {starting!r}"
    return found[0]


def clean_env(**extra: str) -> dict[str, str]:
    """The shell a newcomer has: the project's commands on PATH, no JACKPOT_* set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JACKPOT_")}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return {**env, **extra}


def test_the_first_screen_gives_two_commands_one_runs_the_system_one_the_tests() -> None:
    screen = "\n".join(README.read_text().splitlines()[:FIRST_SCREEN_LINES])
    blocks = sh_blocks(screen + "\n```\n")
    assert blocks, "no command on the README's first screen"
    assert commands(blocks[0]) == ["./dev run", "./dev test"]
    assert len(blocks) == 1, "the first screen gives more than its two commands"


@pytest.mark.slow
def test_dev_run_starts_the_demo_as_the_first_screen_says(tmp_path: Path) -> None:
    # `./dev run` as written, with the demo's own options to stop after a few rounds; `./dev
    # test` is what CI runs, so it is tried on every run already. The venv is the one
    # running this test (a fresh clone's .venv after `./dev test`): nothing is installed.
    port, signs = free_port(), free_port()
    env = clean_env(
        JACKPOT_VENV=sys.prefix,
        JACKPOT_BIND=f"127.0.0.1:{port}",
        JACKPOT_SIGNS_BIND=f"127.0.0.1:{signs}",
    )
    done = subprocess.run(
        ["./dev", "run", "--tables", "1", "--rounds", "3", "--rate", "50"]
        + ["--data-dir", str(tmp_path / "var")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"console http://127.0.0.1:{port}/console" in done.stdout
    assert "war-floor demo: 3 rounds," in done.stdout


def test_an_unknown_dev_command_fails_and_lists_the_commands() -> None:
    done = subprocess.run(
        ["./dev", "fo"], cwd=ROOT, env=clean_env(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "dev: no command 'fo'" in done.stderr and "./dev run" in done.stderr


class Controller:
    """`jackpot serve`, `worker` and `signs` as the README starts them, on free ports."""

    def __init__(self, cwd: Path) -> None:
        self.port, self.signs_port = free_port(), free_port()
        self.cwd = cwd
        self.env = clean_env(
            JACKPOT_DATA_DIR=str(cwd / "var"),
            JACKPOT_BIND=f"127.0.0.1:{self.port}",
            JACKPOT_SIGNS_BIND=f"127.0.0.1:{self.signs_port}",
        )
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def place(self, line: str) -> str:
        """PLACES: the README's addresses as this controller's."""
        return (
            line.replace("localhost:8000", f"127.0.0.1:{self.port}")
            .replace("https://jackpot.internal", self.base)
            .replace("signs-host:8001", f"127.0.0.1:{self.signs_port}")
        )

    def start(self, line: str) -> None:
        name = shlex.split(line)[1]
        with open(self.cwd / f"{name}.log", "wb") as log:  # the process keeps its own
            self.procs.append(
                subprocess.Popen(
                    shlex.split(line), cwd=self.cwd, env=self.env, stdout=log, stderr=log
                )
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{self.base}/readyz", timeout=2).ok:
                    return
            except requests.RequestException:
                pass
            for p in self.procs:
                assert p.poll() is None, (self.cwd / "serve.log").read_text()
            assert time.monotonic() < deadline, (self.cwd / "serve.log").read_text()
            time.sleep(0.2)

    def sh(
        self, lines: list[str], cwd: Path | None = None, **env: str
    ) -> subprocess.CompletedProcess[str]:
        script = "set -euo pipefail\n" + "\n".join(self.place(line) for line in lines)
        return subprocess.run(
            ["bash", "-c", script],
            cwd=cwd or self.cwd,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    def stop(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@pytest.fixture
def controller(tmp_path: Path) -> Iterator[Controller]:
    c = Controller(tmp_path)
    try:
        yield c
    finally:
        c.stop()


@pytest.mark.slow
def test_running_it_for_real_as_the_readme_says(controller: Controller) -> None:
    run = commands(the_block("export JACKPOT_REDIS_URL"))
    exports = [line for line in run if line.startswith("export ")]
    started = [line for line in run if not line.startswith("export ")]
    # the hosts this machine lacks are the defaults the README says to omit them for
    assert [e.split("=", 1)[0] for e in exports] == [
        "export JACKPOT_REDIS_URL",
        "export JACKPOT_ARCHIVE_URL",
        "export JACKPOT_TIME_ZONE",
    ]
    zone = shlex.split(exports[2])[1].split("=", 1)[1]
    controller.env["JACKPOT_TIME_ZONE"] = zone
    assert started == ["jackpot serve", "jackpot worker", "jackpot signs"]
    for line in started:
        controller.start(line)
    controller.wait_ready()

    done = controller.sh(the_block("jackpot people add"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "registered Dana Reyes (E1042)" in done.stdout
    # the README's last line dealt 20 rounds at T1, every one acknowledged and settled
    summary = done.stdout
    assert "delivery: 20 acknowledged" in summary, summary
    auditor = subprocess.run(
        ["jackpot", "keys", "create", "--role", "auditor", "--person", "E1042"],
        cwd=controller.cwd,
        env=controller.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()[-1]
    table = requests.get(
        f"{controller.base}/v1/tables/T1", headers={"Authorization": f"Bearer {auditor}"}
    ).json()
    assert table["rounds"] == 20 and table["pools"] == ["main"]
    pool = requests.get(f"{controller.base}/v1/pools/main").json()
    assert pool["value"] > 100_000 and pool["rate_bp"] == 400
    session = requests.get(
        f"{controller.base}/v1/session", headers={"Authorization": f"Bearer {auditor}"}
    ).json()
    assert session["time_zone"] == zone
    # the screen above the pit: the sign the README made, on the sign process it started
    sign = requests.get(f"http://127.0.0.1:{controller.signs_port}/signs/pit3", timeout=5)
    assert sign.status_code == 200 and "text/html" in sign.headers["Content-Type"]

    # a key used for tables it was not made for: war-floor says why nothing was delivered
    t1 = _key(controller, "--role", "table", "--table", "T1")
    # (its own journal: the held rounds stay pending in it, as a table's must)
    done = controller.sh(
        [f"war-floor --controller http://localhost:8000 --key {t1} -q --data-dir wrong"]
    )
    assert done.returncode == 1
    assert (
        "HELD: wisconsin-6d-1: the controller refuses it (HTTP 403 forbidden: this key may "
        "not report for table 'wisconsin-6d-1')"
    ) in done.stdout.splitlines()
    assert "name them with --table-prefix and --tables" in done.stdout

    # war-floor against a running controller, its key for tables T1 to T4
    floor = commands(the_block("war-floor --tables"))
    assert len(floor) == 2
    op = _key(controller, "--role", "operator", "--person", "E1042")
    for t in ("T2", "T3", "T4"):
        requests.put(
            f"{controller.base}/v1/tables/{t}",
            headers={"Authorization": f"Bearer {op}"},
            json={"pools": ["main"], "decks": 6, "spots": 7, "min_wager": 100, "max_wager": 2500},
        ).raise_for_status()
    tables = [w for t in ("T1", "T2", "T3", "T4") for w in ("--table", t)]
    key = _key(controller, "--role", "table", *tables, "--label", "the floor's adapters")
    done = controller.sh([floor[1]], TABLE_KEY=key)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "delivery: 400 acknowledged" in done.stdout, done.stdout

    # and the embedded floor, on its own controller and store (--json: one summary line), in a
    # directory of its own as a newcomer's would be
    (elsewhere := controller.cwd / "elsewhere").mkdir()
    done = controller.sh([floor[0]], cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert result["rounds"] == 4000 and result["acked"] == 4000 and result["ok"]


def _key(controller: Controller, *args: str) -> str:
    made = subprocess.run(
        ["jackpot", "keys", "create", *args],
        cwd=controller.cwd,
        env=controller.env,
        capture_output=True,
        text=True,
        check=True,
    )
    return made.stdout.splitlines()[-1]


OPERATIONS = ROOT / "docs" / "OPERATIONS.md"


@pytest.mark.slow
def test_the_must_hit_by_recipe_in_operations_runs_as_written(controller: Controller) -> None:
    controller.start("jackpot serve")
    controller.wait_ready()
    for person, name in (("E1042", "Dana Reyes"), ("E2077", "Sam Okafor")):
        subprocess.run(
            ["jackpot", "people", "add", person, "--name", name],
            cwd=controller.cwd,
            env=controller.env,
            check=True,
            capture_output=True,
        )
    op = _key(controller, "--role", "operator", "--person", "E1042")
    auth = {"Authorization": f"Bearer {op}"}
    requests.put(
        f"{controller.base}/v1/pools/main",
        headers=auth,
        json={"reset": 100000, "rate_bp": 400, "reserve_rate_bp": 100, "cap": 5000000},
    ).raise_for_status()
    recipe = [
        b
        for b in sh_blocks(OPERATIONS.read_text())
        if b and b[0].startswith("curl -X PUT $URL/v1/pools/daily")
    ]
    assert len(recipe) == 1
    assert len(commands(recipe[0])) == 4
    done = controller.sh(recipe[0], URL=controller.base, OP=op)
    assert done.returncode == 0, done.stderr
    daily = requests.get(f"{controller.base}/v1/pools/daily").json()
    assert (daily["level"], daily["reset"], daily["cap"], daily["value"]) == (
        "must_hit_by",
        50_000,
        100_000,
        50_000,
    )
    assert daily["trigger"]["draw"] == 1 and len(daily["trigger"]["commitment"]) == 64
    assert daily["trigger"]["commitment"] in done.stdout.splitlines()[-1]  # the last curl
    table = requests.get(f"{controller.base}/v1/tables/T1", headers=auth).json()
    assert table["pools"] == ["main", "daily"]
    sign = requests.get(f"{controller.base}/v1/signs/pit3").json()
    assert [level["pool"] for level in sign["levels"]] == ["main", "daily"]
