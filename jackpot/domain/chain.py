"""The journals' hash chain (docs/DECISIONS.md D81, "A hash-chained journal").

Every entry carries `prev`, the hash of the entry before it ('' for a journal's first), and its
own hash is the SHA-1 of prev, its seq and each field name and value after `prev`, each
length-prefixed so no two different entries hash the same input. jackpot/store/lua/chain.lua
computes it as the entry is written; this computes it again to verify.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

GENESIS = ""


def entry_hash(prev: str, seq: int, fields: Sequence[tuple[str, str]]) -> str:
    """The hash of one entry from its raw (text) fields in stored order, `prev` left out."""
    return flat_hash(prev, seq, [text for pair in fields for text in pair])


def flat_hash(prev: str, seq: int, flat: Sequence[str]) -> str:
    """entry_hash of the fields as Redis sends them: [name, value, name, value, ...]."""
    joined = "\n".join([prev, str(seq), *[f"{len(text)}:{text}" for text in flat]])
    if not joined.isascii():
        # lengths in bytes, as Lua's # counts them
        joined = "\n".join([prev, str(seq), *[f"{len(text.encode())}:{text}" for text in flat]])
    return hashlib.sha1(joined.encode(), usedforsecurity=False).hexdigest()


@dataclass(slots=True)
class ChainedEntry:
    """One journal entry as stored: its seq, its prev, and its other fields in order.

    Treat it as immutable: its hash and its by-name view are computed once, when first
    asked for (the archiver makes tens of thousands a second, so this is a slotted class
    with its caches in plain slots rather than a frozen dataclass with cached properties).
    """

    seq: int
    prev: str
    fields: tuple[tuple[str, str], ...]
    _hash: str | None = field(default=None, compare=False, repr=False)
    _names: dict[str, str] | None = field(default=None, compare=False, repr=False)

    @property
    def hash(self) -> str:
        """Computed once per entry (a walk and the archive both want it)."""
        found = self._hash
        if found is None:
            found = self._hash = entry_hash(self.prev, self.seq, self.fields)
        return found

    @classmethod
    def from_stream(cls, entry_id: str, fields: dict[str, str]) -> ChainedEntry:
        """An entry as a Redis stream holds it (id `seq-0`, `prev` first among its fields)."""
        seq = int(entry_id.split("-", 1)[0])
        items = tuple(fields.items())
        if items and items[0][0] == "prev":
            return cls(seq, items[0][1], items[1:])
        return cls(seq, fields.get("prev", GENESIS), tuple(i for i in items if i[0] != "prev"))

    @classmethod
    def from_flat(cls, entry_id: str, flat: Sequence[str]) -> ChainedEntry:
        """An entry from XRANGE's reply as Redis sends it: [name, value, name, value, ...]."""
        seq = int(entry_id.split("-", 1)[0])
        pairs = tuple(zip(flat[::2], flat[1::2], strict=True))
        if pairs and pairs[0][0] == "prev":
            return cls(seq, pairs[0][1], pairs[1:])
        found = dict(pairs).get("prev", GENESIS)
        return cls(seq, found, tuple(p for p in pairs if p[0] != "prev"))

    def by_name(self) -> dict[str, str]:
        """The fields as a dict (the same object every time: do not change it)."""
        names = self._names
        if names is None:
            names = self._names = dict(self.fields)
        return names

    def get(self, name: str) -> str | None:
        return self.by_name().get(name)


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """Where a journal stops being its own history, and how."""

    journal: str
    seq: int
    problem: str

    def __str__(self) -> str:
        return f"{self.journal} seq {self.seq}: {self.problem}"


@dataclass(slots=True)
class ChainWalk:
    """Walks a journal's entries in order, checking seqs and links; collects every break.

    Start it from a known point (seq and hash of the last entry already checked, or 0 and
    GENESIS) and feed it entries: a gap in seqs, an entry whose prev is not the hash of the
    one before, or a repeated seq is a break.
    """

    journal: str
    seq: int = 0
    head: str = GENESIS
    checked: int = 0
    breaks: list[ChainBreak] = field(default_factory=list)

    def feed(self, entries: Iterable[ChainedEntry]) -> None:
        for entry in entries:
            self.step(entry.seq, entry.prev, entry.hash)

    def step(self, seq: int, prev: str, hash_: str) -> None:
        """One entry, by its seq, its prev and its own (computed) hash."""
        if seq != self.seq + 1:
            kind = "missing" if seq > self.seq + 1 else "repeated or out of order"
            self.breaks.append(
                ChainBreak(
                    self.journal, seq, f"seq {kind}: expected {self.seq + 1} after {self.seq}"
                )
            )
        if prev != self.head:
            self.breaks.append(
                ChainBreak(
                    self.journal,
                    seq,
                    "prev does not match the hash of the entry before it "
                    "(that entry, or this one's prev, was edited, deleted or inserted)",
                )
            )
        self.seq, self.head = seq, hash_
        self.checked += 1

    def problems(self) -> list[ChainBreak]:
        return list(self.breaks)
