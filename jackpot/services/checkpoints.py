"""Signed checkpoints of the journals' heads (docs/DECISIONS.md D253-D259): the worker makes
them, the archive keeps them, anyone may fetch them, and `jackpot verify` holds the history to
them, whether the archive's own or ones an auditor kept elsewhere.

What is signed and how: jackpot.domain.checkpoints. The key: a PEM file the settings name
(JACKPOT_CHECKPOINT_KEY), made by `jackpot checkpoints keygen`, never in Redis or the archive.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from jackpot.archive.checkpoints import CheckpointArchive
from jackpot.archive.verify import Finding
from jackpot.domain import checkpoints as rule
from jackpot.domain.checkpoints import Head
from jackpot.domain.gamingday import EPOCH, MILLISECOND
from jackpot.domain.journals import pool_journal
from jackpot.domain.payoutsteps import PayoutStep
from jackpot.errors import ArchiveUnavailableError
from jackpot.store.checkpoints import HeadStore

log = logging.getLogger("jackpot.checkpoints")

STAMP_MARGIN_MS = 300_000  # how far an entry's stamp may be ahead of a checkpoint's clock
SHORT_FOR_MS = 5_000  # how long the signs show a latest checkpoint before reading it again
LOCK_MS = 60_000  # a run's lock lapses after this long, should its worker die holding it
CLOSE_WAIT_S = 5.0  # how long a day's close waits for another run's lock before giving up
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


@dataclass(slots=True)
class CheckpointCheck:
    """What holding the history to a set of checkpoints found."""

    checked: int = 0  # checkpoints whose signature verified and whose heads were compared
    heads: int = 0  # signed heads compared with the history
    key: str = ""  # the fingerprint of the key they were checked with
    key_source: str = ""  # where that key came from
    unchecked: str | None = None  # why they could not be checked at all
    findings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "heads": self.heads,
            "key": self.key,
            "key_source": self.key_source,
            "findings": [f.to_json() for f in self.findings],
        }


class Checkpoints:
    def __init__(
        self,
        archive: CheckpointArchive,
        stores: Callable[[], list[HeadStore]],  # one per link group, the main group's first
        key_file: Path,
        clock: Callable[[], int],
        seal: Callable[[], str],  # the running software's digest (jackpot.integrity)
    ) -> None:
        self._archive = archive
        self._stores = stores
        self.key_file = key_file
        self._clock = clock
        self._seal = seal
        self._short: dict[str, Any] | None = None
        self._short_read = -SHORT_FOR_MS

    # --- making them -----------------------------------------------------------------------

    def heads(self) -> list[Head]:
        """Every journal's head; each link group's read in one transaction."""
        return [h for store in self._stores() for h in store.heads()]

    def make(self, reason: str, day: str | None = None) -> dict[str, Any] | None:
        """Sign and keep a checkpoint of the heads now, unless (`reason` "interval") none moved
        since the last one; the checkpoint, or None. NoCheckpointKeyError without a key."""
        key = read_key(self.key_file)
        main = self._stores()[0]
        token = secrets.token_hex(8)
        if not main.take_lock(token, LOCK_MS):
            return None  # another worker's run is making one
        try:
            latest = self._archive.latest()
            heads = self.heads()
            signed = {h.journal: [h.seq, h.hash] for h in heads}
            if reason == "interval" and latest is not None and latest["heads"] == signed:
                return None
            made = rule.make(
                key,
                1 if latest is None else int(latest["id"]) + 1,
                self._clock(),
                heads,
                self._seal(),
                "" if latest is None else str(latest["hash"]),
                reason,
                day,
            )
            return made if self._archive.add(made) else None
        finally:
            main.release_lock(token)

    def sign_close(self, day: str) -> dict[str, Any] | None:
        """The checkpoint signed at gaming day `day`'s close, made now unless one names the
        day already: whatever closed it (the worker, `jackpot accounting close`) calls this
        (D265). None, said at ERROR, without a key or when no run could take the lock."""
        deadline = time.monotonic() + CLOSE_WAIT_S
        while True:
            found = self._archive.of_day(day)
            if found is not None:
                return found
            try:
                made = self.make("day_close", day)
            except NoCheckpointKeyError as exc:
                log.error("checkpoints: the close of %s is not signed: %s", day, exc)
                return None
            if made is not None:
                log.info("gaming day %s: checkpoint #%d signed at its close", day, made["id"])
                return made
            if time.monotonic() > deadline:  # another run held the lock all along
                log.error("checkpoints: the close of %s is not signed: the lock stayed held", day)
                return None
            time.sleep(0.05)

    def at_close(self, day: str) -> dict[str, Any] | None:
        """The short form of the checkpoint signed at gaming day `day`'s close (None: none)."""
        return rule.summary(self._archive.of_day(day))

    def unsigned_why(self) -> str:
        """Why a closed day has no checkpoint of its close, as an operator is told it."""
        try:
            self.public_key()
        except NoCheckpointKeyError as exc:
            return str(exc)
        return "none was made at its close; `jackpot accounting close` for the day signs one"

    # --- reading them ----------------------------------------------------------------------

    def public_key(self) -> Ed25519PublicKey:
        return read_key(self.key_file).public_key()

    def latest(self) -> dict[str, Any] | None:
        return self._archive.latest()

    def latest_short(self) -> dict[str, Any] | None:
        """The latest checkpoint's short form for the signs, read at most every SHORT_FOR_MS
        (a sign process asks each second); None while the archive does not answer."""
        now = self._clock()
        if now - self._short_read >= SHORT_FOR_MS:
            try:
                self._short = rule.summary(self._archive.latest())
            except ArchiveUnavailableError as exc:
                log.warning("the latest checkpoint could not be read: %s", exc)
                self._short = None
            self._short_read = now
        return self._short

    def get(self, number: int) -> dict[str, Any] | None:
        return self._archive.get(number)

    def after(self, number: int, limit: int) -> list[dict[str, Any]]:
        return self._archive.after(number, limit)

    def covering(self, journal: str, seq: int, since_ts: int) -> dict[str, Any] | None:
        """The short form of the first checkpoint covering entry `seq` of `journal` (stamped
        `since_ts`); None: not yet covered."""
        return rule.summary(self._archive.covering(journal, seq, since_ts))

    def of_payout(self, journal: str, step: PayoutStep) -> dict[str, Any] | None:
        """The short form of the first checkpoint covering a payout's step in its pool's
        `journal` (its newest, for its full record: jackpot.services.payouthistory); None:
        not yet covered."""
        # stamps are Redis's clock, a checkpoint's the worker's: a margin for their skew
        return self.covering(journal, step.seq, step.at - STAMP_MARGIN_MS)

    def of_day(self, statement: dict[str, Any]) -> dict[str, Any] | None:
        """The short form of the checkpoint made at a closed day's close; else the first made
        since the day began covering every head the day recorded; None: not yet covered."""
        found = self._archive.of_day(str(statement["day"]))
        first = self._archive.first_at(_ms(str(statement["start"])))
        if found is None and first is not None:
            heads: dict[str, list[Any]] = statement["heads"]
            found = next(
                (
                    c
                    for c in self._archive.walk(first - 1)
                    if all(rule.covers(c, j, int(p[0])) for j, p in heads.items())
                ),
                None,
            )
        return rule.summary(found)

    # --- holding the history to them -------------------------------------------------------

    def check_stored(self, since: int | None = None) -> CheckpointCheck:
        """The archive's own checkpoints (those made from `since`, epoch ms, and the one
        before them; None: all): numbered without a gap, each naming the one before by its
        hash, each signed by the controller's key, each head the history's."""
        out = CheckpointCheck(key_source="the controller's key")
        after = 0
        if since is not None:
            first = self._archive.first_at(since)
            if first is None:
                return out
            after = max(first - 2, 0)
        rows = list(self._archive.walk_rows(after))
        stored = [body for body, _ in rows]
        if not stored:
            return out
        out.findings += [
            Finding(
                CHECKPOINTS,
                None,
                f"checkpoint #{body.get('id')}: the archive's {', '.join(columns)} column(s) "
                "differ from its signed body: the row was edited",
            )
            for body, columns in rows
            if columns
        ]
        try:
            key = self.public_key()
        except NoCheckpointKeyError as exc:
            # a host without the key (it belongs on the worker's): not a finding of history;
            # `jackpot verify` says they were not checked (D258)
            out.unchecked = str(exc)
            return out
        number, prev = after, "" if after == 0 else str(stored[0].get("prev", ""))
        for found in stored:
            number += 1
            if found.get("id") != number or found.get("prev") != prev:
                out.findings.append(
                    Finding(
                        CHECKPOINTS,
                        None,
                        f"checkpoint #{found.get('id')} does not follow #{number - 1} (its "
                        "number or its prev): a checkpoint was removed, inserted or replaced",
                    )
                )
                number = int(found.get("id") or number)
            prev = str(found.get("hash", ""))
        self._check(stored, key, out)
        return out

    def stored_unchecked(self) -> str | None:
        """Why the archive's own checkpoints cannot be checked here (no key), if they exist."""
        if self._archive.latest() is None:
            return None
        try:
            self.public_key()
        except NoCheckpointKeyError as exc:
            return str(exc)
        return None

    def check(
        self, given: Sequence[dict[str, Any]], key: Ed25519PublicKey | None, source: str
    ) -> CheckpointCheck:
        """Checkpoints kept outside the controller: each signed by `key` (None: the
        controller's own), each head the entry the history holds at that seq."""
        out = CheckpointCheck(key_source=source)
        if key is None:
            out.key_source = f"the controller's key ({self.key_file})"
            try:
                key = self.public_key()
            except NoCheckpointKeyError as exc:
                out.findings.append(Finding(CHECKPOINTS, None, str(exc)))
                return out
        self._check(given, key, out)
        return out

    def _check(
        self, given: Iterable[dict[str, Any]], key: Ed25519PublicKey, out: CheckpointCheck
    ) -> None:
        out.key = rule.fingerprint(key)
        sound = []
        for found in given:
            why = rule.problem(found, key)
            if why is None:
                sound.append(found)
            else:
                name = found.get("id", "?") if isinstance(found, dict) else "?"
                out.findings.append(Finding(CHECKPOINTS, None, f"checkpoint #{name} {why}"))
        out.checked = len(sound)
        # where each journal is: a link group's store, and the pool (None: the house's)
        where: dict[str, tuple[HeadStore, str | None]] = {}
        ends: dict[str, int] = {}
        for store in self._stores():
            heads = store.heads()
            house = heads[0].journal
            where[house] = (store, None)
            for pool in store.pools():
                where[pool_journal(pool)] = (store, pool)
            ends.update((h.journal, h.seq) for h in heads)
        signed: dict[str, list[tuple[int, str, int]]] = {}  # journal -> (seq, hash, checkpoint)
        for found in sound:
            for head in rule.heads_of(found):
                if head.journal not in where:
                    out.findings.append(
                        Finding(
                            head.journal,
                            head.seq,
                            f"checkpoint #{found['id']} signs a journal the controller does "
                            "not know: it was removed",
                        )
                    )
                elif head.seq > ends.get(head.journal, 0):
                    out.findings.append(
                        Finding(
                            head.journal,
                            head.seq,
                            f"checkpoint #{found['id']} signed this seq, but the journal now "
                            f"ends at seq {ends.get(head.journal, 0)}: entries were removed "
                            "(the history was cut back)",
                        )
                    )
                elif head.seq > 0:
                    signed.setdefault(head.journal, []).append(
                        (head.seq, head.hash, int(found["id"]))
                    )
        for journal, pairs in sorted(signed.items()):
            out.heads += len(pairs)
            store, in_pool = where[journal]
            out.findings += _compare(journal, pairs, self._hashes(journal, store, in_pool, pairs))

    def _hashes(
        self,
        journal: str,
        store: HeadStore,
        pool: str | None,
        heads: list[tuple[int, str, int]],
    ) -> dict[int, str]:
        """The history's hash at each signed seq: the archive's, else Redis's tail's."""
        seqs = [seq for seq, _, _ in heads]
        found = self._archive.hashes_at(journal, seqs)
        live = [s for s in seqs if s not in found]
        if live:
            found.update(store.hashes_at(pool, live))
        return found


def _ms(iso: str) -> int:
    """An ISO 8601 instant with its offset, as a statement writes it, in epoch ms."""
    return (datetime.fromisoformat(iso) - EPOCH) // MILLISECOND


def _compare(
    journal: str, heads: list[tuple[int, str, int]], history: dict[int, str]
) -> list[Finding]:
    """One journal's signed heads against its history: where it first differs, bounded by
    the last signed head before it that still matches."""
    differ = sorted((s, h, c) for s, h, c in heads if history.get(s) != h)
    if not differ:
        return []
    seq, hash_, number = differ[0]
    held = history.get(seq)
    kept = [(s, c) for s, h, c in heads if s < seq and history.get(s) == h]
    bound = (
        f"the last signed head that still matches is seq {max(kept)[0]} (checkpoint "
        f"#{max(kept)[1]}): the history after it was rewritten"
        if kept
        else "no earlier signed head of it matches"
    )
    holds = f"holds {held[:16]}…" if held else "holds no entry there"
    return [
        Finding(
            journal,
            seq,
            f"differs from what checkpoint #{number} signed (hash {hash_[:16]}…, the history "
            f"{holds}); {bound}"
            + (f"; {len(differ) - 1} later signed head(s) differ too" if len(differ) > 1 else ""),
        )
    ]
