"""The import contracts (`[tool.importlinter]` in pyproject.toml) each fail when broken: a copy
of the product with one forbidden import planted for every contract is judged by import-linter,
and every contract must be reported broken. A contract that a planted import cannot break
holds nothing (issue 42: an `api -> store` probe once left all six green)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# contract name -> (module it is planted in, the import that breaks it)
PROBES = {
    "the domain is pure rules: no web framework, store, queue, metrics or HTTP client": (
        "jackpot/domain/cards.py", "import flask"),
    "processes > api, jobs > bootstrap > services > archive > store > domain": (
        "jackpot/store/keys.py", "import jackpot.services.pools"),
    "the API reaches the stores (Redis and the archive) only through the use cases": (
        "jackpot/api/health.py", "import jackpot.store.keys"),
    "a background job never loads the Flask app": (
        "jackpot/jobs/reconcile.py", "import jackpot.api.health"),
    "the controller never imports the table side": (
        "jackpot/services/pools.py", "import table_adapter.game.cut"),
    "the table side: four rooms and a door, each importing only the rooms below it": (
        "table_adapter/game/cut.py", "import table_adapter.floor"),
    "the table side takes only the domain from the controller, apart from cli.controller": (
        "table_adapter/game/edge.py", "import jackpot.services.pools"),
}  # fmt: skip


def test_every_contract_is_probed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = {c["name"] for c in config["tool"]["importlinter"]["contracts"]}
    assert names == set(PROBES)


def test_each_contract_fails_when_its_probe_is_planted(tmp_path: Path) -> None:
    for package in ("jackpot", "table_adapter"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "static"))  # fmt: skip
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for module, probe in PROBES.values():
        path = tmp_path / module
        path.write_text(path.read_text() + f"\n{probe}  # a probe\n")
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache", "--config", str(tmp_path / "pyproject.toml")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    out = " ".join(done.stdout.split())  # long names are folded over lines
    assert done.returncode != 0, out
    assert f"Contracts: 0 kept, {len(PROBES)} broken." in out, out
    for name in PROBES:  # a name as wide as the report runs into its verdict
        assert re.search(re.escape(name) + " ?BROKEN", out), name
