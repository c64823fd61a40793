"""The controller's software, authenticated: a manifest of every file, sealed at build time.

New York 5321.18(b)(3) asks a progressive controller to authenticate its software at power-up
(at least a 16-bit CRC) before it operates. When the package is built (`setup.py`'s build_py,
or `python -m jackpot.integrity seal` for a source tree), MANIFEST.json records the SHA-256
of every file of the package: its Python code, its Lua scripts, its pages. At start-up each
controller process hashes the files it runs from again and compares:

* a file changed, missing, or a Python or Lua file the build did not have is a failure;
* the software's identity is the SHA-256 of the manifest's lines, with a CRC-32 of the same
  text for a regulator's tool that reads CRCs; both are shown on `/readyz`, on the
  `jackpot_build_info` metric and by `jackpot verify`;
* with JACKPOT_APPROVED_DIGEST set (the digest a regulator approved), any other digest fails.

This module uses the standard library only: setup.py runs it before anything is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = "MANIFEST.json"
# files no build carries: byte code and caches
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")
# a file of these kinds the manifest does not name is code the build did not ship
_CODE_SUFFIXES = (".py", ".lua")


def package_root() -> Path:
    """The directory this process runs the controller from."""
    return Path(__file__).resolve().parent


def _files(root: Path) -> list[str]:
    found = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if not path.is_file() or _SKIPPED_DIRS.intersection(rel.parts):
            continue
        if path.name == MANIFEST or path.name.endswith(_SKIPPED_SUFFIXES):
            continue
        found.append(rel.as_posix())
    return sorted(found)


def _hash_file(path: Path) -> str:
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


def seal(root: Path) -> Manifest:
    """Write `root`/MANIFEST.json for the files under it (the build's step)."""
    manifest = measure(root)
    (root / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=1, sort_keys=True) + "\n")
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
        sealed = json.loads((root / MANIFEST).read_text())
        files = {str(k): str(v) for k, v in sealed["files"].items()}
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
    problems = []
    for name in sorted(files):
        if name not in found.files:
            problems.append(f"{name} is missing")
        elif found.files[name] != files[name]:
            problems.append(f"{name} changed since the build")
    for name in sorted(set(found.files) - set(files)):
        if name.endswith(_CODE_SUFFIXES):
            problems.append(f"{name} is not part of the build")
    if approved and found.digest != approved.lower():
        problems.append(
            f"the software's digest {found.digest} is not the approved "
            f"JACKPOT_APPROVED_DIGEST {approved}"
        )
    return SoftwareCheck(found.digest, found.crc32, tuple(problems))


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
        manifest = seal(root)
        print(
            f"sealed {len(manifest.files)} files: sha256 {manifest.digest} crc32 {manifest.crc32}"
        )
        return 0
    done = check(root)
    print(json.dumps(done.to_json(), indent=2))
    return 0 if done.authentic else 1


if __name__ == "__main__":
    raise SystemExit(main())
