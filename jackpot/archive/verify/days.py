"""The closed gaming days against the journals: each day's recorded heads against the
archive, and each day's record against the day_closed entry the house journal holds for it."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from jackpot.archive.store import Archive
from jackpot.archive.verify.findings import Finding
from jackpot.domain.chain import ChainedEntry
from jackpot.domain.dayclose import closed_day_digest
from jackpot.domain.journals import HOUSE


def check_day_heads(archive: Archive, days: list[dict[str, Any]]) -> list[Finding]:
    """Each closed day's recorded journal heads against the archive: history rewritten after
    a day was closed cannot match them."""
    out = []
    for day in days:
        heads: dict[str, list[Any]] = json.loads(day["heads"])
        for journal, pair in heads.items():
            seq, head = int(pair[0]), str(pair[1])
            if not seq:
                continue
            found = archive.entries(journal, seq - 1, 1)
            if not found or found[0][0].seq != seq or found[0][1] != head:
                out.append(
                    Finding(
                        journal,
                        seq,
                        f"gaming day {day['day']} was closed with this entry as the "
                        "journal's head, and the archive no longer holds it unchanged: "
                        "history was rewritten after the close",
                    )
                )
    return out


def check_closed_days(
    days: list[dict[str, Any]],
    journaled: list[ChainedEntry],
    before: dict[str, Any] | None = None,
    since_day: str | None = None,
) -> list[Finding]:
    """The closed days against the day_closed entries of the house journal: each record is
    the one journaled when it was closed, each names the day before it, none is missing,
    added or skipped. For a verify --since, `days` are those from `since_day` on, `before`
    the closed day before them, and entries of days before `since_day` are not looked at."""
    entries, out = _journaled_days(journaled, since_day)
    rows = {str(r["day"]): r for r in days}
    previous = None if before is None else (str(before["day"]), closed_day_digest(before))
    for day in sorted(rows):
        digest = closed_day_digest(rows[day])
        out += _record_against_entry(day, digest, entries.get(day), previous)
        out += _days_skipped(day, previous)
        previous = (day, digest)
    out += [
        Finding(
            HOUSE,
            entry.seq,
            f"closed day {day} was journaled as closed but its record is gone: deleted",
        )  # fmt: skip
        for day, entry in sorted(entries.items())
        if day not in rows
    ]
    return out


def _journaled_days(
    journaled: list[ChainedEntry], since_day: str | None
) -> tuple[dict[str, ChainedEntry], list[Finding]]:
    """The first day_closed entry of each day (from `since_day` on), and a day journaled
    twice with two digests."""
    out: list[Finding] = []
    entries: dict[str, ChainedEntry] = {}
    for e in journaled:
        day = e.get("day") or ""
        if since_day is not None and day < since_day:
            continue
        if day in entries and entries[day].get("digest") != e.get("digest"):
            out.append(Finding(HOUSE, e.seq, f"closed day {day} is journaled twice, differently"))
        entries.setdefault(day, e)
    return entries, out


def _record_against_entry(
    day: str, digest: str, entry: ChainedEntry | None, previous: tuple[str, str] | None
) -> list[Finding]:
    """A closed day's record against its day_closed entry: journaled, the same, and naming
    the day before it."""
    if entry is None:
        return [
            Finding(
                "gaming_days",
                None,
                f"closed day {day} was never journaled as closed: added by hand",
            )  # fmt: skip
        ]
    if entry.get("digest") != digest:
        return [
            Finding(
                HOUSE,
                entry.seq,
                f"closed day {day}: its record is not the one "
                "journaled when it was closed: rewritten",
            )  # fmt: skip
        ]
    if previous is not None and entry.get("prev_day") not in ("", previous[1]):
        return [
            Finding(
                HOUSE,
                entry.seq,
                f"closed day {day} names another day before it than {previous[0]}'s record",
            )  # fmt: skip
        ]
    return []


def _days_skipped(day: str, previous: tuple[str, str] | None) -> list[Finding]:
    """Days missing between the closed day before `day` and `day`."""
    if previous is None or date.fromisoformat(day) - date.fromisoformat(previous[0]) <= timedelta(
        days=1
    ):
        return []
    return [
        Finding(
            "gaming_days",
            None,
            f"closed days skip from {previous[0]} to {day}: the days between are missing",
        )  # fmt: skip
    ]
