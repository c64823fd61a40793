"""What an archive run reports (ArchiveRun), what each of its child processes reported
(Apart), and the status the runs leave in Redis (ArchiveStatus): jackpot.archive.archiver's
results."""

from __future__ import annotations

from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from jackpot.domain.chain import ChainBreak
from jackpot.errors import ArchiveUnavailableError


class ArchiveChainError(Exception):
    """Redis holds entries that do not continue the archived chain: nothing more is archived."""

    def __init__(self, problems: list[ChainBreak]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


@dataclass(slots=True)
class ArchiveRun:
    archived: dict[str, int] = field(default_factory=dict)  # journal -> entries archived
    rounds: int = 0
    trimmed: dict[str, int] = field(default_factory=dict)  # journal -> entries trimmed
    forgotten_rounds: int = 0
    problems: list[str] = field(default_factory=list)
    # rounds settled again under an archived id, kept in round_repeats (D225): never expected
    repeats: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "archived": self.archived,
            "rounds": self.rounds,
            "trimmed": self.trimmed,
            "forgotten_rounds": self.forgotten_rounds,
            "repeats": self.repeats,
            "problems": self.problems,
        }


@dataclass(frozen=True, slots=True)
class Apart:
    """What a child process archiving one journal reported."""

    journal: str
    # ("ok", archived, rounds, tip, repeats) | ("chain", problems) | (kind, why)
    outcome: tuple[Any, ...]

    def result(self) -> tuple[int, int, int, int]:
        kind, *rest = self.outcome
        if kind == "ok":
            archived, rounds, tip, repeats = rest
            return int(archived), int(rounds), int(tip), int(repeats)
        if kind == "chain":
            raise ArchiveChainError(list(rest[0]))
        if kind == "unavailable":
            raise ArchiveUnavailableError(str(rest[0]))
        raise RuntimeError(f"archiving {self.journal} failed: {rest[0]}")


@dataclass(frozen=True, slots=True)
class JournalStatus:
    unarchived: int  # entries in Redis after the last archived one
    in_redis: int  # entries Redis holds (the retention window's tail and the unarchived)


@dataclass(frozen=True, slots=True)
class ArchiveStatus:
    last_run: int | None  # epoch ms
    last_success: int | None  # epoch ms of the last run that archived every journal
    last_problems: int  # chain breaks the last run found
    journals: dict[str, JournalStatus]
    repeats: int = 0  # rounds ever archived as settled again (round_repeats): never expected


def reported(journal: str, child: BaseProcess, receive: Connection) -> Apart:
    """What a child archiving one journal reported, once it has ended."""
    try:
        outcome = receive.recv()
    except EOFError:
        outcome = ("error", f"the process archiving {journal} died")
    finally:
        receive.close()
        child.join()
    return Apart(journal, outcome)


def journal_status(
    recorded: dict[str, str], journal: str, newest: list[Any], length: int
) -> JournalStatus:
    """A journal's backlog: its newest seq in Redis past the one the last run archived."""
    last = int(newest[0][0].split("-", 1)[0]) if newest else 0
    archived = int(recorded.get(f"seq:{journal}", 0))
    return JournalStatus(max(last - archived, 0), int(length))


def opt_int(value: str | None) -> int | None:
    return None if value is None else int(value)
