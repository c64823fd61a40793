"""What a verify finds, and what a run reports: a finding names the journal, the seq and
what is wrong."""

from __future__ import annotations

from dataclasses import dataclass, field

from jackpot.domain.chain import ChainBreak, ChainedEntry


@dataclass(frozen=True, slots=True)
class Finding:
    journal: str
    seq: int | None
    problem: str

    def __str__(self) -> str:
        at = f" seq {self.seq}" if self.seq is not None else ""
        return f"{self.journal}{at}: {self.problem}"

    def to_json(self) -> dict[str, object]:
        return {"journal": self.journal, "seq": self.seq, "problem": self.problem}


@dataclass(slots=True)
class Verification:
    checked: dict[str, int] = field(default_factory=dict)  # journal -> entries checked
    findings: list[Finding] = field(default_factory=list)
    days: int = 0  # closed gaming days checked (heads, chain, figures recomputed)
    recomputed: int = 0  # closed days whose figures were computed again and compared
    rounds: int = 0  # round records checked against their entries
    since: str | None = None  # the first gaming day checked; None: all of history
    # the house journal's day_closed entries met on the walk (not reported)
    closed: list[ChainedEntry] = field(default_factory=list, repr=False)

    @property
    def intact(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, object]:
        return {
            "intact": self.intact,
            "checked": self.checked,
            "days": self.days,
            "recomputed": self.recomputed,
            "rounds": self.rounds,
            "since": self.since,
            "findings": [f.to_json() for f in self.findings],
        }


def chain_finding(b: ChainBreak, where: str) -> Finding:
    """A break in a journal's chain, found in the archive or in Redis (`where`)."""
    return Finding(b.journal, b.seq, f"{b.problem} (in {where})")


def edited_record(journal: str, seq: int, key: tuple[str, str], problem: str) -> Finding:
    """A round record its entry no longer commits."""
    return Finding(journal, seq, f"round {key[0]}/{key[1]}: {problem}: the record was edited")


def round_finding(journal: str, seq: int | None, key: tuple[str, ...], text: str) -> Finding:
    """A finding about round `key` (table, round id[, stamp])."""
    return Finding(journal, seq, f"round {key[0]}/{key[1]}: {text}")


def stamp(text: str) -> int:
    """An entry's `ts` as a number (0 when it has none)."""
    try:
        return int(text or 0)
    except ValueError:
        return 0
