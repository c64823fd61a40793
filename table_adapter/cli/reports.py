"""`war-floor reports JOURNAL`: what an adapter's journal holds, and an operator's requeue.

    war-floor reports JOURNAL [--state quarantined] [--json]
    war-floor reports JOURNAL --requeue SEQ [SEQ ...]
    war-floor reports JOURNAL --void TABLE ROUND --reason TEXT [--spot N ...]
    war-floor reports JOURNAL --irregularities [--json]

The first lists the journal's reports (all, or those in one state), each with its seq,
table, round, state, the HTTP status that settled it and why it was refused. The second puts
rejected or quarantined reports back to `pending`, to be resent byte for byte, oldest first
in their table's order, by the next adapter that opens the journal: an operator's decision
once the cause is fixed (a table clock set right, a suspended link running again). Run it
while the table's adapter is stopped; a running adapter requeues through `Adapter.requeue`,
which also keeps its counts. The third journals a void of a reported round (whole, or the bets
of the spots named: a card not dealt to a wager), sent after the round's report by the next
adapter that opens the journal; a person at the controller approves it (docs/RULES.md §6).
The fourth lists the irregularities journaled (table_adapter.game.irregularities): when, the
table and round, what happened and what the rule made of it.
Exit status: 0, or 1 when a seq named is not in the journal or cannot be requeued (acked or
pending), or the round to void was never journaled, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TextIO

from table_adapter.link.answers import stored_reason
from table_adapter.link.journal import Entry, Journal, JournalError, Noted, State, void_key
from table_adapter.link.sender import wall_ms


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="war-floor reports", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    p.add_argument("journal", type=Path, help="the adapter's journal file (SQLite)")
    p.add_argument("--state", choices=[s.value for s in State], help="only reports in this state")
    p.add_argument(
        "--requeue", type=int, nargs="+", metavar="SEQ", help="put these back to pending"
    )
    p.add_argument(
        "--void", nargs=2, metavar=("TABLE", "ROUND"), help="journal a void of this round"
    )
    p.add_argument("--reason", help="why the round is voided (with --void)")
    p.add_argument(
        "--spot", type=int, action="append", help="void only this spot's bets (repeatable)"
    )
    p.add_argument("--irregularities", action="store_true", help="list the rounds' irregularities")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    return p


def main(argv: list[str], out: TextIO = sys.stdout) -> int:
    p = parser()
    args = p.parse_args(argv)
    if not args.journal.is_file():
        p.error(f"no journal at {args.journal}")
    try:
        journal = Journal(args.journal)
    except JournalError as exc:
        print(f"war-floor reports: {exc}", file=sys.stderr)
        return 1
    try:
        if args.void:
            if not args.reason:
                p.error("--void needs --reason")
            return _void(journal, args.void[0], args.void[1], args.reason, args.spot, out)
        if args.requeue:
            return _requeue(journal, args.requeue, out)
        if args.irregularities:
            return _irregularities(journal, args.json, out)
        return _entries(journal, State(args.state) if args.state else None, args.json, out)
    finally:
        journal.close()


def _irregularities(journal: Journal, as_json: bool, out: TextIO) -> int:
    """List the irregularities journaled, one a line (JSON or for a person)."""
    for noted in journal.irregularities():
        row = {"table": noted.table, "round": noted.round, "at": noted.created_ms}
        print(json.dumps({**row, **noted.body}) if as_json else _noted_line(noted), file=out)
    return 0


def _noted_line(noted: Noted) -> str:
    """An irregularity for a person: when, where, what, and what the rule made of it."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(noted.created_ms / 1000))
    where = " ".join(f"{k} {noted.body[k]}" for k in ("spot", "card") if k in noted.body)
    return (
        f"{stamp} {noted.table} {noted.round} {noted.kind}"
        f"{f' ({where})' if where else ''}: {noted.body['consequence']}"
    )


def _entries(journal: Journal, state: State | None, as_json: bool, out: TextIO) -> int:
    """List the journal's reports (those in `state` only, if given)."""
    for entry in journal.entries(state):
        print(json.dumps(_row(entry)) if as_json else _line(entry), file=out)
    return 0


def _void(
    journal: Journal, table: str, round_id: str, reason: str, spots: list[int] | None, out: TextIO
) -> int:
    if journal.find(table, round_id) is None:
        print(f"round {round_id} of table {table}: not in the journal", file=sys.stderr)
        return 1
    wanted = None if not spots else tuple(sorted(set(spots)))
    key = void_key(round_id, wanted)
    found = journal.find(table, key)
    if found is None:
        body = {"reason": reason, **({"spots": list(wanted)} if wanted else {})}
        found = journal.append(table, key, json.dumps(body, separators=(",", ":")), wall_ms())
    print(f"seq {found.seq}: {table} {key} {found.state.value}", file=out)
    return 0


def _requeue(journal: Journal, seqs: list[int], out: TextIO) -> int:
    failed = 0
    for seq in seqs:
        try:
            before = journal.get(seq)
        except KeyError:
            print(f"seq {seq}: not in the journal", file=sys.stderr)
            failed += 1
            continue
        if before.state not in (State.REJECTED, State.QUARANTINED):
            print(f"seq {seq}: {before.state.value}, not rejected or quarantined", file=sys.stderr)
            failed += 1
            continue
        journal.requeue(seq)
        print(f"seq {seq}: {before.table} round {before.round} requeued (was {before.state})",
              file=out)  # fmt: skip
    return 1 if failed else 0


def _row(entry: Entry) -> dict[str, object]:
    row: dict[str, object] = {
        "seq": entry.seq,
        "table": entry.table,
        "round": entry.round,
        "state": entry.state.value,
        "attempts": entry.attempts,
        "status": entry.status,
    }
    if entry.state in (State.REJECTED, State.QUARANTINED):
        row["reason"] = stored_reason(entry.status, entry.answer)
    return row


def _line(entry: Entry) -> str:
    row = _row(entry)
    if "reason" in row:
        tail = f": {row['reason']}"
    else:
        tail = "" if entry.status is None else f" (HTTP {entry.status})"
    return f"{entry.seq:>8} {entry.table} {entry.round} {entry.state.value}{tail}"
