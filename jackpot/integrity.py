"""The controller's software, authenticated: a manifest of every file, sealed at build time.

New York 5321.18(b)(3) asks a progressive controller to authenticate its software at power-up
(at least a 16-bit CRC) before it operates. When the package is built (`setup.py`'s build_py,
or `python -m jackpot.integrity seal` for a source tree), MANIFEST.json records the SHA-256
of every file of the package: its Python code, its Lua scripts, its pages. At start-up each
controller process hashes the files it runs from again and compares:

* a file changed or missing, or any file the build did not have, is a failure: the package
  is exactly what was sealed;
* byte code counts where the interpreter would run it instead of a sealed source (a cache in
  `__pycache__` whose header matches that source): it must be what the source compiles to.
  Caches the interpreter would pass over (stale, another Python's) run nothing and are left;
* the controller is pure Python: an extension module or a sourceless `.pyc` in the package
  (which the interpreter would load in place of, or beside, the source) is never sealed and
  always a failure;
* the software's identity is the SHA-256 of the manifest's lines, with a CRC-32 of the same
  text for a regulator's tool that reads CRCs; both are shown on `/readyz`, on the
  `jackpot_build_info` metric and by `jackpot verify`;
* with JACKPOT_APPROVED_DIGEST set (the digest a regulator approved), any other digest fails.

This module uses the standard library only: setup.py runs it before anything is installed.
"""

from __future__ import annotations

import _imp
import argparse
import hashlib
import importlib.machinery
import importlib.util
import json
import marshal
import os
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = "MANIFEST.json"
# the interpreter's caches: not sealed; what it would run from them is checked (_cache_problem)
_CACHE_DIR = "__pycache__"
# code the interpreter loads that is not Python source: the controller ships none
_NOT_SOURCE = tuple(
    sorted(
        {
            *importlib.machinery.EXTENSION_SUFFIXES,
            *importlib.machinery.BYTECODE_SUFFIXES,
            ".so",
            ".pyd",
            ".pyo",
            ".dylib",
            ".dll",
        }
    )
)
# the optimisation levels a source's byte code is cached at: none, -O, -OO
_OPTIMIZATIONS = (0, 1, 2)


def package_root() -> Path:
    """The directory this process runs the controller from."""
    return Path(__file__).resolve().parent


def _files(root: Path) -> list[str]:
    """Every file under `root` but the caches and the manifest; a symbolic link counts as a
    file of its own, whatever it points to, and is never followed (D270: a link named as a
    module, to a directory of code elsewhere, would be imported and never hashed)."""
    found = []
    for top, dirs, files in os.walk(root, followlinks=False):
        here = Path(top)
        links = _linked_dirs_pruned(here, dirs)
        paths = (here / name for name in [*files, *links])
        found += [path.relative_to(root).as_posix() for path in paths if _sealable(root, path)]
    return sorted(found)


def _linked_dirs_pruned(here: Path, dirs: list[str]) -> list[str]:
    """The links among the walk's `dirs`, which it then leaves, with the caches, unwalked."""
    links = [d for d in dirs if (here / d).is_symlink()]
    dirs[:] = [d for d in dirs if d not in links and d != _CACHE_DIR]
    return links


def _sealable(root: Path, path: Path) -> bool:
    if path.name == MANIFEST and path.parent == root:
        return False
    return path.is_symlink() or path.is_file()


def _runs_instead(cache: bytes, source: Path, code: bytes) -> bool:
    """Whether the interpreter would run `cache` instead of compiling `source` (PEP 552)."""
    if len(cache) < 16 or cache[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(cache[4:8], "little")
    if flags == 0:  # stamped with the source's mtime and size
        stat = source.stat()
        stamp = (int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF)
        return cache[8:16] == b"".join(n.to_bytes(4, "little") for n in stamp)
    if flags & ~0b11:
        return False  # not a header the interpreter accepts: it compiles the source
    checked = _imp.check_hash_based_pycs == "always" or (
        flags & 0b10 and _imp.check_hash_based_pycs != "never"
    )
    return not checked or cache[8:16] == importlib.util.source_hash(code)


# what a cache was found to be, by the cache file's and its source's identity: a check made
# again (the self-check's, every JACKPOT_SELF_CHECK_SECONDS) compiles only what changed
_VERDICTS: dict[tuple[str, int, int, int, int, bytes], bool] = {}


def _cache_problem(root: Path, name: str) -> str | None:
    """What is wrong with the byte code the interpreter would run for sealed source `name`."""
    source = root / name
    code = source.read_bytes()
    for level in _OPTIMIZATIONS:
        path = Path(importlib.util.cache_from_source(str(source), optimization=level or ""))
        try:
            stat = path.stat()
            cache = path.read_bytes()
        except OSError:
            continue  # none: the interpreter compiles the source
        seen = (str(path), stat.st_ino, stat.st_mtime_ns, stat.st_size, level,
                hashlib.sha256(cache + code).digest())  # fmt: skip
        if _VERDICTS.get(seen):
            continue  # checked before, unchanged since: its source's own byte code
        if not _runs_instead(cache, source, code):
            continue
        problem = _not_compiled_from(root, name, code, path, cache, level)
        if problem:
            return problem
        _VERDICTS[seen] = True
    return None


def _not_compiled_from(
    root: Path, name: str, code: bytes, path: Path, cache: bytes, level: int
) -> str | None:
    """Why cache `path` (read: `cache`) is not what sealed source `name` (read: `code`)
    compiles to at optimisation `level`; None when it is."""
    source = root / name
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    try:
        cached = marshal.loads(cache[16:])
    except (EOFError, ValueError, TypeError):
        return f"{shown} is not byte code, and would be loaded instead of {name}"
    compiled = compile(code, str(source), "exec", dont_inherit=True, optimize=level)
    if cached != compiled:  # code objects compare all but their file name
        return f"{shown} is not what {name} compiles to, and would run instead of it"
    return None


def _hash_file(path: Path) -> str:
    if path.is_symlink():  # a link is never part of the build: its target is not hashed
        return "symlink:" + hashlib.sha256(os.readlink(path).encode()).hexdigest()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _text(files: dict[str, str]) -> bytes:
    return "".join(f"{name}\0{files[name]}\n" for name in sorted(files)).encode()


@dataclass(frozen=True, slots=True)
class Manifest:
    files: dict[str, str]  # path inside the package -> SHA-256 of its bytes

    @property
    def digest(self) -> str:
        """SHA-256 of the manifest's lines: the software's identity."""
        return hashlib.sha256(_text(self.files)).hexdigest()

    @property
    def crc32(self) -> str:
        return f"{zlib.crc32(_text(self.files)):08x}"

    def to_json(self) -> dict[str, object]:
        return {"digest": self.digest, "crc32": self.crc32, "files": self.files}


def measure(root: Path) -> Manifest:
    """The manifest of the files under `root` as they are now."""
    return Manifest({name: _hash_file(root / name) for name in _files(root)})


class SealError(Exception):
    """The files under a root are not a build that can be sealed."""


def seal(root: Path) -> Manifest:
    """Write `root`/MANIFEST.json for the files under it (the build's step)."""
    manifest = measure(root)
    foreign = [
        name for name in manifest.files if name.endswith(_NOT_SOURCE) or (root / name).is_symlink()
    ]
    if foreign:
        raise SealError(
            f"not sealing {root}: the controller is pure Python, and these are byte code or "
            f"extension modules: {', '.join(foreign)}"
        )
    text = json.dumps(manifest.to_json(), indent=1, sort_keys=True) + "\n"
    path = root / MANIFEST
    # the same seal again writes nothing; a new one replaces the old whole, beside the package
    # rather than in it, so a process checking meanwhile reads one or the other, never half
    if not path.exists() or path.read_text() != text:
        staged = root.parent / f".{MANIFEST}.{os.getpid()}"
        staged.write_text(text)
        os.replace(staged, path)
    return manifest


@dataclass(frozen=True, slots=True)
class SoftwareCheck:
    """What authenticating the running software found."""

    digest: str  # of the files as found ('' when nothing could be read)
    crc32: str
    problems: tuple[str, ...] = field(default=())

    @property
    def authentic(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, object]:
        return {
            "authentic": self.authentic,
            "digest": self.digest,
            "crc32": self.crc32,
            "problems": list(self.problems),
        }


def check(root: Path | None = None, approved: str | None = None) -> SoftwareCheck:
    """Hash the files under `root` (default: this package) against its manifest."""
    root = root or package_root()
    found = measure(root)
    try:
        files = _sealed(root)
    except FileNotFoundError:
        return SoftwareCheck(
            found.digest,
            found.crc32,
            (
                f"no {MANIFEST} in {root}: this build was not sealed, so its software cannot "
                "be authenticated (a built package carries one; for a source tree run "
                "`python -m jackpot.integrity seal`)",
            ),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return SoftwareCheck(
            found.digest, found.crc32, (f"{MANIFEST} in {root} is not a manifest",)
        )
    problems = _differences(files, found.files)
    for name in sorted(found.files):
        problem = _runnable_problem(root, name, files.get(name) == found.files[name])
        if problem:
            problems.append(problem)
    if approved and found.digest != approved.lower():
        problems.append(
            f"the software's digest {found.digest} is not the approved "
            f"JACKPOT_APPROVED_DIGEST {approved}"
        )
    return SoftwareCheck(found.digest, found.crc32, tuple(problems))


def _sealed(root: Path) -> dict[str, str]:
    """The files `root`'s manifest seals, by name: the SHA-256 of each."""
    sealed = json.loads((root / MANIFEST).read_text())
    return {str(k): str(v) for k, v in sealed["files"].items()}


def _differences(sealed: dict[str, str], found: dict[str, str]) -> list[str]:
    """The files missing or changed since the build, then those the build did not have."""
    problems = []
    for name in sorted(sealed):
        if name not in found:
            problems.append(f"{name} is missing")
        elif found[name] != sealed[name]:
            problems.append(f"{name} changed since the build")
    for name in sorted(set(found) - set(sealed)):
        problems.append(f"{name} is not part of the build")
    return problems


def _runnable_problem(root: Path, name: str, as_sealed: bool) -> str | None:
    """What the interpreter would run from file `name` that is not its sealed source: a link's
    target, byte code or an extension module, or (for a source `as_sealed`) a cache of
    other code."""
    if (root / name).is_symlink():
        return (
            f"{name} is a symbolic link: the controller runs only the files sealed in its "
            "package, never what a link points to"
        )
    if name.endswith(_NOT_SOURCE):
        return (
            f"{name} is byte code or an extension module: the controller is pure Python "
            "and runs only its sealed source"
        )
    if name.endswith(".py") and as_sealed:
        return _cache_problem(root, name)
    return None


class Rechecked:
    """The running software's check, made again when the last is older than `every` seconds:
    a file changed, added or planted while the controller runs makes every process of it
    inoperable at its next self-check, not only a process started after (D270)."""

    def __init__(self, approved: str | None, every: float, root: Path | None = None) -> None:
        self._approved = approved
        self._every = every
        self._root = root
        self._lock = threading.Lock()
        self._last: SoftwareCheck | None = None
        self._at = 0.0

    def __call__(self) -> SoftwareCheck:
        with self._lock:
            now = time.monotonic()
            if self._last is None or now - self._at >= self._every:
                self._last, self._at = check(self._root, self._approved), now
            return self._last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jackpot.integrity",
        description="Seal a build of the controller (write its MANIFEST.json) or check one.",
    )
    parser.add_argument("action", choices=["seal", "check"])
    parser.add_argument("root", nargs="?", type=Path, help="the package directory")
    args = parser.parse_args(argv)
    root = args.root or package_root()
    if args.action == "seal":
        try:
            manifest = seal(root)
        except SealError as exc:
            print(exc, file=sys.stderr)
            return 2
        print(
            f"sealed {len(manifest.files)} files: sha256 {manifest.digest} crc32 {manifest.crc32}"
        )
        return 0
    done = check(root)
    print(json.dumps(done.to_json(), indent=2))
    return 0 if done.authentic else 1


if __name__ == "__main__":
    raise SystemExit(main())
