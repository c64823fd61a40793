"""The build's seal (jackpot/integrity.py): a changed, missing or added file, a build without
a manifest and a digest other than the approved one all fail the check; so do byte code that
would run instead of a sealed source and an extension module; a built wheel is sealed
(tests/e2e/test_image.py). Every test works on a copy of the package, never the tree itself."""

from __future__ import annotations

import compileall
import importlib.machinery
import importlib.util
import json
import os
import py_compile
import shutil
import subprocess
import sys
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
    (build / "api" / "static" / "notes.txt").write_text("an operator's note")
    (build / "api" / "static" / "console-extra.js").write_text("fetch('/v1/payouts')")
    found = integrity.check(build)
    assert not found.authentic
    assert found.problems == (
        "errors.py is missing",
        "store/lua/settle_round.lua changed since the build",
        "api/backdoor.py is not part of the build",
        "api/static/console-extra.js is not part of the build",
        "api/static/notes.txt is not part of the build",
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


def _plant_byte_code(build: Path, name: str, source: str) -> Path:
    """Byte code of `source` where the interpreter looks for `name`'s, stamped as `name`'s."""
    real = build / name
    planted = build / "planted.py"
    # same size as the real source, so the header's size matches too
    planted.write_text(source.ljust(real.stat().st_size - 1) + "\n")
    cache = Path(importlib.util.cache_from_source(str(real)))
    py_compile.compile(str(planted), cfile=str(cache), doraise=True)
    planted.unlink()
    data = bytearray(cache.read_bytes())
    stat = real.stat()
    data[8:16] = (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (
        stat.st_size & 0xFFFFFFFF
    ).to_bytes(4, "little")
    cache.write_bytes(bytes(data))
    return cache


def test_byte_code_that_would_run_instead_of_its_source_is_refused(build: Path) -> None:
    compileall.compile_dir(build, quiet=1)
    cache = _plant_byte_code(
        build, "domain/odds.py", "def tie_pays(cents):\n    return 500 * cents"
    )
    # the hole: the interpreter runs the planted byte code, not the source beside it
    spec = importlib.util.spec_from_file_location("planted_odds", build / "domain" / "odds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.tie_pays(500) == 250_000
    found = integrity.check(build)
    name = cache.relative_to(build).as_posix()
    assert found.problems == (
        f"{name} is not what domain/odds.py compiles to, and would run instead of it",
    )
    assert found.digest == integrity.measure(build).digest  # the sealed files are unchanged


def test_a_hash_checked_cache_is_held_to_its_code_too(build: Path) -> None:
    real = build / "domain" / "odds.py"
    cache = Path(importlib.util.cache_from_source(str(real)))
    py_compile.compile(
        str(real), cfile=str(cache), invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
    )
    assert integrity.check(build).authentic
    data = cache.read_bytes()
    cache.write_bytes(data[:16] + b"garbage")  # the source's hash, other contents
    assert integrity.check(build).problems == (
        f"{cache.relative_to(build).as_posix()} is not byte code, and would be loaded instead "
        "of domain/odds.py",
    )


def test_an_installed_builds_own_caches_are_accepted(build: Path) -> None:
    # as pip installs a wheel (timestamped caches), as SOURCE_DATE_EPOCH builds do (hashed),
    # and at every optimisation level: the source's own byte code never raises an alarm
    compileall.compile_dir(build, quiet=1, optimize=[0, 1, 2])
    assert integrity.check(build).authentic
    compileall.compile_dir(
        build, quiet=1, force=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
    )
    assert integrity.check(build).authentic


def test_caches_the_interpreter_would_pass_over_are_left(build: Path) -> None:
    compileall.compile_dir(build, quiet=1)
    cache = _plant_byte_code(build, "domain/odds.py", "def tie_pays(cents):\n    return 0")
    source = build / "domain" / "odds.py"
    stat = source.stat()
    os.utime(source, (stat.st_atime, stat.st_mtime + 10))  # the cache is stale: recompiled
    other = cache.with_name("odds.cpython-399.pyc")  # another Python's
    other.write_bytes(b"not this interpreter's")
    assert integrity.check(build).authentic


def test_extension_modules_and_sourceless_byte_code_are_refused(build: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (build / "domain" / f"odds{suffix}").write_bytes(b"\x7fELF")
    (build / "domain" / "odds.pyd").write_bytes(b"MZ")
    py_compile.compile(str(build / "errors.py"), cfile=str(build / "domain" / "extra.pyc"))
    found = integrity.check(build)
    pure = "byte code or an extension module: the controller is pure Python"
    for name in (f"domain/odds{suffix}", "domain/odds.pyd", "domain/extra.pyc"):
        assert f"{name} is not part of the build" in found.problems
        assert any(p.startswith(f"{name} is {pure}") for p in found.problems)
    with pytest.raises(integrity.SealError, match=f"odds{suffix}"):
        integrity.seal(build)  # nor does a build seal one


def _run(build: Path, code: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter that finds the controller in `build` (a copy)."""
    env = {**os.environ, "PYTHONPATH": str(build.parent)}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=build.parent,  # not the tree's: the current directory comes first on the path
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_planted_byte_code_never_runs_so_it_cannot_silence_the_check(build: Path) -> None:
    # the examiner's attack: byte code stamped as jsonio.py's, which would replace the
    # check with one that drops any problem naming jsonio, loaded before the check runs
    compileall.compile_dir(build, quiet=1)
    _plant_byte_code(
        build,
        "jsonio.py",
        "import jackpot.integrity as i\n"
        "i.check = lambda *a, **k: i.SoftwareCheck('forged', 'forged')\n"
        "PLANTED = True",
    )
    done = _run(
        build,
        "import jackpot.jsonio as j, jackpot.integrity as i\n"
        "print(hasattr(j, 'PLANTED'), j.__spec__.loader.__class__.__name__)\n"
        "print(i.check().authentic)\n",
    )
    assert done.returncode == 0, done.stderr
    ran, authentic = done.stdout.splitlines()
    assert ran == "False _SourceLoader", "the source ran, not the planted cache"
    assert authentic == "False", "and the check, not silenced, names the planted cache"


def test_an_extension_module_beside_a_source_is_refused_at_import(build: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    # a real extension module (one this interpreter loaded), named as the source's
    loaded = next(
        str(m.__file__)
        for m in list(sys.modules.values())
        if str(getattr(m, "__file__", "")).endswith(suffix)
    )
    (build / f"jsonio{suffix}").write_bytes(Path(loaded).read_bytes())
    done = _run(build, "import jackpot.jsonio")
    assert done.returncode == 1
    assert f"jackpot.jsonio would be loaded from {build / f'jsonio{suffix}'}" in done.stderr
    assert "the controller runs only its sealed Python sources" in done.stderr
    # and a module of the package's imports as ever
    assert _run(build, "import jackpot.domain.odds").returncode == 0


def test_a_symbolic_link_in_the_package_is_refused_and_never_followed(
    build: Path, tmp_path: Path
) -> None:
    # the examiner's second pass: a directory `jsonio/` linked in beside jsonio.py, holding
    # code of its own, was imported in the source's place and never hashed (the walk did not
    # follow it): the check said authentic while the planted code ran
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "__init__.py").write_text("PLANTED = True\n")
    (build / "jsonio").symlink_to(elsewhere, target_is_directory=True)
    found = integrity.check(build)
    assert "jsonio is a symbolic link: the controller runs only the files sealed in its " \
        "package, never what a link points to" in found.problems  # fmt: skip
    assert "jsonio is not part of the build" in found.problems
    done = _run(build, "import jackpot.jsonio")
    assert done.returncode == 1 and "outside the controller's package" in done.stderr
    with pytest.raises(integrity.SealError, match="jsonio"):
        integrity.seal(build)
    # a link to a file is a file of its own too
    (build / "jsonio").unlink()
    (build / "domain" / "odds2.py").symlink_to(build / "domain" / "odds.py")
    assert "domain/odds2.py is a symbolic link" in " ".join(integrity.check(build).problems)
