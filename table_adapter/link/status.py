"""How a table's link is timed and how it stands: its settings, state and snapshot."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from table_adapter.link.backoff import Backoff


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """Timing of delivery; seconds."""

    grace_seconds: float = 10.0  # unreachable this long: side bets close
    heartbeat_seconds: float = 5.0  # idle this long: send a heartbeat
    hold_seconds: float = 30.0  # a held table (or failed journal) tries again after this
    answer_wait_seconds: float = 10.0  # the dealer waits this long for an answer while up
    counts_seconds: float = 15.0  # idle this long since: report the table's own counts
    backoff: Backoff = field(default_factory=Backoff)


class LinkState(StrEnum):
    """How delivery stands."""

    UP = "up"  # the controller answers
    DOWN = "down"  # it does not: resending with backoff
    HELD = "held"  # it refuses the table itself: waiting for an operator
    JOURNAL_FAILED = "journal_failed"  # the journal cannot be written: no more rounds


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """A snapshot of one table's link."""

    table: str
    state: LinkState
    side_bets_open: bool
    pending: int
    acked: int  # this process's acknowledgements, replays included
    replayed: int  # of which the controller had already settled (a resend after a crash)
    rejected: int  # this process's, less those requeued: each needs an operator
    quarantined: int  # the same, for reports refused for when they were dealt
    retries: int
    down_seconds: float | None
    last_error: str | None
