"""A closed day's record: its digest (what binds it to the hash chain), and its figures
against the same figures computed again from the archive (`figure_differences`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

#: what a closed day's digest covers: its record as the archive keeps it
DAY_FIELDS = ("day", "start_ts", "end_ts", "closed_at", "heads", "report", "version")

# the sections of a closed day's statement that are its figures, each row named by its key
FIGURES = {"pools": "pool", "tables": "table", "hits": "payout"}
#: sections whose rows are events in time order, compared whole (layout 5's voids)
EVENTS = ("voids",)
#: the statement's figures that are a value of the whole day, compared whole
WHOLE = ("unpaid_at_close", "hand_pays_unpaid_at_close", "balanced")


def closed_day_digest(row: Mapping[str, Any]) -> str:
    """SHA-256 of a closed day's record (its canonical JSON): journaled when it is closed, so
    a record rewritten afterwards no longer matches (docs/DECISIONS.md D87)."""
    body = json.dumps({k: row[k] for k in DAY_FIELDS}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def figure_differences(recorded: Mapping[str, Any], recomputed: Mapping[str, Any]) -> list[str]:
    """Where a closed day's recorded figures and the same figures computed again from the
    archive differ, each as 'section row field: recorded X, the archive gives Y' (at most
    one line per row, the first field that differs)."""
    out = []
    for section, key in FIGURES.items():
        out += _row_differences(section, key, recorded, recomputed)
    for section in EVENTS:
        out += _event_differences(section, recorded, recomputed)
    for section in WHOLE:
        if recorded.get(section) != recomputed.get(section):
            out.append(
                f"{section}: recorded {recorded.get(section)!r}, "
                f"the archive gives {recomputed.get(section)!r}"
            )
    return out


def _row_differences(
    section: str, key: str, recorded: Mapping[str, Any], recomputed: Mapping[str, Any]
) -> list[str]:
    """A figures section's rows, matched by `key`: each row one side lacks, and the first
    field that differs of each row both have."""
    mine = {str(r[key]): r for r in recorded.get(section, [])}
    again = {str(r[key]): r for r in recomputed.get(section, [])}
    out = []
    for name in sorted(mine.keys() | again.keys()):
        difference = _row_difference(f"{section} {name}", key, mine.get(name), again.get(name))
        if difference is not None:
            out.append(difference)
    return out


def _row_difference(
    row: str, key: str, a: Mapping[str, Any] | None, b: Mapping[str, Any] | None
) -> str | None:
    """How one row (`row`: its section and name) differs: one side lacks it, or the first
    field that differs; None when the two agree."""
    if a is None:
        return f"{row}: not recorded, the archive has it"
    if b is None:
        return f"{row}: recorded, the archive has no such {key}"
    if a == b:
        return None
    field = next(f for f in sorted(a.keys() | b.keys()) if a.get(f) != b.get(f))
    return f"{row} {field}: recorded {a.get(field)!r}, the archive gives {b.get(field)!r}"


def _event_differences(
    section: str, recorded: Mapping[str, Any], recomputed: Mapping[str, Any]
) -> list[str]:
    """An events section compared whole: how many rows each side has, and the first that
    differs."""
    mine_rows, again_rows = recorded.get(section) or [], recomputed.get(section) or []
    if mine_rows == again_rows:
        return []
    pairs = zip(mine_rows, again_rows, strict=False)
    first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
    return [
        f"{section}: recorded {len(mine_rows)} row(s), the archive gives "
        f"{len(again_rows)}" + ("" if first is None else f" (row {first + 1} differs)")
    ]
