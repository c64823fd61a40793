"""The files of checkpoints: the controller's signing key (a PEM file the settings name,
JACKPOT_CHECKPOINT_KEY), and checkpoints kept outside the controller that `jackpot verify`
reads back."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from jackpot.archive.verify import Finding
from jackpot.domain import checkpoints as rule

CHECKPOINTS = "checkpoints"  # the journal name findings about a checkpoint itself are filed under


class NoCheckpointKeyError(Exception):
    """The controller's checkpoint key file is missing or unreadable."""


def generate_key(path: Path) -> str:
    """Write a new Ed25519 key to `path` (mode 0600; never over an existing file); its
    fingerprint."""
    key = rule.new_key()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(rule.private_pem(key))
    return rule.fingerprint(key.public_key())


def read_key(path: Path) -> Ed25519PrivateKey:
    try:
        return rule.load_private(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise NoCheckpointKeyError(
            f"no checkpoint key at {path} ({exc}): make one with `jackpot checkpoints keygen`"
        ) from exc


KEPT_SUFFIXES = (".json", ".jsonl")  # what a directory of kept checkpoints is read for


@dataclass(slots=True)
class Kept:
    """Checkpoints kept outside the controller, as read from a file or a directory."""

    checkpoints: list[Any] = field(default_factory=list)
    unreadable: list[Finding] = field(default_factory=list)  # a file or a line that is not JSON
    skipped: list[str] = field(default_factory=list)  # files of a directory not read (D266)


def read_kept(path: Path) -> Kept:
    """Checkpoints kept outside the controller: a file of one JSON checkpoint, a JSON array
    or JSON lines, or a directory of such files named *.json or *.jsonl (read in name order;
    any other file is skipped, and said). A file or line that cannot be read is a finding
    naming it, the rest is still read; finding none at all is a finding (D266). OSError: the
    path itself cannot be read."""
    out = Kept()
    if path.is_dir():
        files = []
        for file in sorted(p for p in path.iterdir() if p.is_file()):
            if file.suffix in KEPT_SUFFIXES:
                files.append(file)
            else:
                out.skipped.append(
                    f"{file}: skipped: not a checkpoint (only *.json and *.jsonl files are read)"
                )
    else:
        files = [path]
    for file in files:
        _read_file(file, out)
    if not out.checkpoints:
        out.unreadable.append(
            Finding(CHECKPOINTS, None, f"no checkpoint found in {path}: nothing was checked")
        )
    return out


def _read_file(file: Path, out: Kept) -> None:
    try:
        text = file.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        out.unreadable.append(Finding(CHECKPOINTS, None, f"{file}: cannot be read ({exc})"))
        return
    try:
        whole = json.loads(text)
    except ValueError:
        pass
    else:
        out.checkpoints += whole if isinstance(whole, list) else [whole]
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.checkpoints.append(json.loads(line))
        except ValueError as exc:
            out.unreadable.append(
                Finding(
                    CHECKPOINTS,
                    None,
                    f"{file} line {number}: not a JSON checkpoint ({exc}): a line cut short "
                    "(an interrupted append) or not a checkpoint; the other lines were read",
                )
            )
