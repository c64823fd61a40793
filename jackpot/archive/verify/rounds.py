"""The archived round records against the house journal's round entries that settled them."""

from __future__ import annotations

from collections.abc import Sequence

from jackpot.archive.rows import ArchivedRound
from jackpot.archive.store import Archive
from jackpot.archive.verify.findings import Finding, edited_record, round_finding
from jackpot.domain.records import record_problem

WINDOW_MS = 6 * 3_600_000  # the stretch of rounds held in memory at a time

# a round's settling entry: (house journal, seq, fields by name), by (table, round id)
_Settled = dict[tuple[str, str], tuple[str, int, dict[str, str]]]


def check_rounds(
    archive: Archive, houses: Sequence[str], from_ts: int = 0, to_ts: int = 2**62
) -> tuple[list[Finding], int]:
    """Every archived round record stamped in [from_ts, to_ts) against the round entry that
    settled it, and every archived round entry in it against its record: a record no entry
    settled (forged), one naming another entry, one its entry does not commit (edited), an
    entry whose record is gone (deleted). The findings and the records checked.

    A stretch of rounds at a time, in memory; a record archived while the stretch was read is
    looked up alone (archiving goes on during a verify), and so is one whose entry is in
    another stretch (its time was edited)."""
    out: list[Finding] = []
    checked = 0
    # a round settled again is held to its own record in round_repeats (check_repeats)
    again = {row.house_seq for row in archive.round_repeats()}
    at = archive.next_round_ts(houses, from_ts)
    while at is not None and at < to_ts:
        until = min(at + WINDOW_MS, to_ts)
        settled = _settled_between(archive, houses, again, at, until)
        for row in archive.rounds_between(at, until):
            checked += 1
            out += _record_against_entry(archive, houses, settled, row)
        # entries without a record here
        out += _entries_without_record(archive, settled, from_ts, to_ts)
        at = archive.next_round_ts(houses, until)
    return out, checked


def _settled_between(
    archive: Archive, houses: Sequence[str], again: set[int], at: int, until: int
) -> _Settled:
    """The round entries of the house journals stamped in [at, until), but those of rounds
    settled again."""
    return {
        (f.get("table", ""), f.get("round", "")): (journal, seq, f)
        for journal in houses
        for seq, f in archive.round_entries(journal, at, until)
        if seq not in again
    }


def _record_against_entry(
    archive: Archive, houses: Sequence[str], settled: _Settled, row: ArchivedRound
) -> list[Finding]:
    """One round record against the entry that settled it (taken from `settled`, else looked
    up alone)."""
    key = (row.table, row.round)
    entry = settled.pop(key, None) or archive.round_entry(houses, *key)
    if entry is None:
        return [
            Finding(
                "rounds",
                row.house_seq,
                f"round {row.table}/{row.round}: a record no journal entry settled: "
                "forged, or its entry removed",
            )
        ]
    journal, seq, fields = entry
    problem = (
        f"its record names house entry {row.house_seq}, not the entry that settled it"
        if row.house_seq != seq
        else record_problem(fields, row.static, row.dynamic, row.ts, row.digest)
    )
    return [] if problem is None else [edited_record(journal, seq, key, problem)]


def _entries_without_record(
    archive: Archive, settled: _Settled, from_ts: int, to_ts: int
) -> list[Finding]:
    """The stretch's round entries no record of it matched: the record deleted, or stamped
    outside [from_ts, to_ts) (its time edited)."""
    out = []
    for key, (journal, seq, fields) in settled.items():
        found = archive.round(*key)
        if found is None:
            out.append(
                round_finding(
                    journal,
                    seq,
                    key,
                    "the entry that settled it is archived, its record is not: deleted",
                )
            )
        elif not from_ts <= found.ts < to_ts:  # (inside, its own stretch checks it)
            moved = record_problem(fields, found.static, found.dynamic, found.ts)
            out.append(edited_record(journal, seq, key, moved or "its time was edited"))
    return out


def check_repeats(archive: Archive, houses: Sequence[str]) -> list[Finding]:
    """Every round settled again under an id already archived (round_repeats: the round
    path lets none through since D225, so any is a finding), each held to its entry too."""
    out = []
    for row in archive.round_repeats():
        first = archive.round(row.table, row.round)
        entry = archive.round_entry_at(houses, row.house_seq, row.table, row.round)
        problem = (
            "no journal entry settled it: forged"
            if entry is None
            else record_problem(entry[2], row.static, row.dynamic, row.ts, row.digest)
        )
        out.append(
            Finding(
                "rounds",
                row.house_seq,
                f"round {row.table}/{row.round} was settled twice: by house entry "
                f"{first.house_seq if first else '?'} and again by house entry {row.house_seq}"
                + (f" ({problem})" if problem else ""),
            )
        )
    return out
