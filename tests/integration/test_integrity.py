"""The build's seal (jackpot/integrity.py): a changed, missing or added file, a build without
a manifest and a digest other than the approved one all fail the check; a built wheel is
sealed (tests/e2e/test_image.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jackpot import integrity

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def build(tmp_path: Path) -> Path:
    """A sealed copy of the package."""
    root = tmp_path / "jackpot"
    shutil.copytree(
        integrity.package_root(), root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    integrity.seal(root)
    return root


def test_a_sealed_build_is_authentic(build: Path) -> None:
    found = integrity.check(build)
    assert found.authentic and not found.problems
    sealed = json.loads((build / integrity.MANIFEST).read_text())
    assert found.digest == sealed["digest"] and found.crc32 == sealed["crc32"]
    assert len(found.crc32) == 8 and int(found.crc32, 16) >= 0
    assert "store/lua/settle_round.lua" in sealed["files"]
    assert "api/static/console.html" in sealed["files"]


def test_every_kind_of_change_is_named(build: Path) -> None:
    (build / "store" / "lua" / "settle_round.lua").write_text("return {'ok'}")
    (build / "errors.py").unlink()
    (build / "api" / "backdoor.py").write_text("print('hello')")
    (build / "api" / "static" / "notes.txt").write_text("an operator's note")  # not code
    found = integrity.check(build)
    assert not found.authentic
    assert found.problems == (
        "errors.py is missing",
        "store/lua/settle_round.lua changed since the build",
        "api/backdoor.py is not part of the build",
    )


def test_a_build_without_its_manifest_is_not_authentic(build: Path) -> None:
    (build / integrity.MANIFEST).unlink()
    found = integrity.check(build)
    assert not found.authentic and "was not sealed" in found.problems[0]
    (build / integrity.MANIFEST).write_text("[1, 2]")
    assert "is not a manifest" in integrity.check(build).problems[0]


def test_only_the_approved_digest_operates(build: Path) -> None:
    digest = integrity.check(build).digest
    assert integrity.check(build, approved=digest.upper()).authentic
    other = integrity.check(build, approved="0" * 64)
    assert not other.authentic and "JACKPOT_APPROVED_DIGEST" in other.problems[0]
