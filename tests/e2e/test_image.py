"""The container image, built as the Dockerfile builds it, without a container engine: its
build stage's COPY lines are read from the Dockerfile itself (with .dockerignore applied), so
the files this test builds from are the image's, and dropping one the seal needs (setup.py)
fails here. The wheel is installed into a fresh virtual environment, whose `jackpot` must be
authentic (`python -m jackpot.integrity check`) and settle a round under `jackpot serve`,
the image's command."""

from __future__ import annotations

import fnmatch
import json
import shlex
import shutil
import site
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from jackpot import integrity
from tests.support.redis_server import RedisServer
from tests.support.service import auth, cli_key, link_main, start_service

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class BuildStage:
    copies: list[tuple[list[str], str]]  # (sources in the context, destination)
    runs: list[str]


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuations joined."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in dockerfile.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = pending + stripped
        pending = ""
        keyword, _, rest = whole.partition(" ")
        found.append((keyword.upper(), rest.strip()))
    return found


def build_stage(dockerfile: str) -> BuildStage:
    """The first stage: what it copies from the build context and what it runs."""
    stages: list[BuildStage] = []
    for keyword, rest in instructions(dockerfile):
        if keyword == "FROM":
            stages.append(BuildStage([], []))
        elif keyword == "COPY" and "--from" not in rest:
            *sources, destination = shlex.split(rest)
            stages[-1].copies.append((sources, destination))
        elif keyword == "RUN":
            stages[-1].runs.append(rest)
    assert len(stages) >= 2, "the Dockerfile builds in one stage and runs in another"
    return stages[0]


def ignored(patterns: list[str], relative: str) -> bool:
    """Whether .dockerignore leaves `relative` out of the build context (its patterns as
    this project writes them: names, paths and `**/` prefixes)."""
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if fnmatch.fnmatch(relative, pattern) or any(
            fnmatch.fnmatch(part, bare) for part in Path(relative).parts
        ):
            return True
    return False


def context_copy(sources: list[str], destination: Path, patterns: list[str]) -> None:
    """COPY `sources` to `destination` (a directory) as the engine would from this tree."""
    for source in sources:
        path = ROOT / source
        assert path.exists(), f"the Dockerfile copies {source}, which is not in the tree"
        if path.is_dir():
            target = destination / path.name if len(sources) > 1 else destination
            for file in sorted(path.rglob("*")):
                relative = file.relative_to(ROOT).as_posix()
                if file.is_file() and not ignored(patterns, relative):
                    out = target / file.relative_to(path)
                    out.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(file, out)
        else:
            destination.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination / path.name)


def test_the_dockerfiles_build_stage_is_read_as_an_engine_reads_it() -> None:
    stage = build_stage(
        "FROM a AS build\nCOPY x.toml \\\n  y.md ./\nCOPY pkg ./pkg\nRUN pip wheel .\n"
        "FROM b\nCOPY --from=build /w /w\n"
    )
    assert stage.copies == [(["x.toml", "y.md"], "./"), (["pkg"], "./pkg")]
    assert stage.runs == ["pip wheel ."]
    patterns = ["**/__pycache__", ".venv", "jackpot/MANIFEST.json"]
    assert ignored(patterns, "jackpot/api/__pycache__/x.pyc")
    assert ignored(patterns, "jackpot/MANIFEST.json")
    assert not ignored(patterns, "jackpot/api/app.py")


@pytest.mark.slow
def test_the_image_is_sealed_and_settles_a_round(
    tmp_path: Path, redis_server: RedisServer, redis: object
) -> None:
    stage = build_stage((ROOT / "Dockerfile").read_text())
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    source = tmp_path / "src"
    for sources, destination in stage.copies:
        context_copy(sources, source / destination, patterns)
    (run,) = stage.runs
    assert run.startswith("pip wheel ") and run.endswith(" ."), run

    # the stage's `pip wheel`, for the project alone: its dependencies are PyPI's
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "w"), "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "w").glob("casino_war_jackpot-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "jackpot/MANIFEST.json" in names, "the wheel was not sealed (setup.py's build_py)"

    # a fresh environment with the wheel installed; its dependencies are this one's, reached
    # through a plain path (this environment's editable install of the tree is not loaded)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (venv_site,) = (venv / "lib").glob("python3*/site-packages")
    (venv_site / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    where = subprocess.run(
        [python, "-c", "import jackpot; print(jackpot.__file__)"],
        cwd=run_dir,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.startswith(str(venv_site)), where.stdout
    checked = subprocess.run(
        [python, "-m", "jackpot.integrity", "check"], cwd=run_dir, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    sealed = json.loads((venv_site / "jackpot" / integrity.MANIFEST).read_text())
    assert len(sealed["files"]) > 100

    service = start_service(run_dir, {"JACKPOT_REDIS_URL": redis_server.url}, python=python)
    try:
        ready = requests.get(f"{service.base}/readyz", timeout=5)
        assert ready.status_code == 200, ready.text
        operator, table = cli_key(service, "operator"), cli_key(service, "table", "T1")
        link_main(service, operator)
        body = {
            "table": "T1",
            "round": "image-1",
            "dealer": {"card": "Kd"},
            "spots": [{"spot": 1, "wager": 500, "card": "Kh"}],
        }
        r = requests.post(f"{service.base}/v1/rounds", json=body, headers=auth(table), timeout=5)
        assert r.status_code == 200, r.text
        assert r.json()["spots"][0]["outcome"] == "tie"
        pool = requests.get(f"{service.base}/v1/pools/main", timeout=5).json()
        assert pool["value"] == 500_000 + 20  # 4 % of 500 cents
    finally:
        assert service.stop() == 0
