"""The archive's index of payouts: kept with the entries, read by the console's searches.

Each payout's row holds its record as its archived entries fold to
(jackpot.domain.payoutrecord), the columns a search filters on, and the seqs of those entries;
`payout_people` holds who it is found under. `bring_forward` runs in the transaction that
archives a batch of entries, so the index never says more or less than the archived chain.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from jackpot import jsonio
from jackpot.archive.schema import journal_entries, payout_people, payouts
from jackpot.domain.chain import ChainedEntry
from jackpot.domain.payout import Payout
from jackpot.domain.payoutids import payout_number
from jackpot.domain.payoutrecord import (
    ENTRY_TYPES,
    PayoutQuery,
    changed_at,
    fold,
    people,
)

POOL_PREFIX = "pool/"


def bring_forward(connection: Connection, entry_rows: Sequence[tuple[Any, ...]]) -> int:
    """Fold the payouts' entries among `entry_rows` (journal_entries rows in ENTRY_COLUMNS
    order) into their rows; the payouts it changed."""
    mine = _payout_entries(entry_rows)
    if not mine:
        return 0
    ids = list(dict.fromkeys(str(fields["payout"]) for _, _, fields in mine))
    rows = _indexed(connection, ids)
    journals = _fold_into(rows, mine)
    _upsert(connection, [row_of(journals[p], *rows[p]) for p in ids])
    _find_again(connection, {p: rows[p][0] for p in ids})
    return len(ids)


def _payout_entries(entry_rows: Sequence[tuple[Any, ...]]) -> list[tuple[str, int, Any]]:
    """(journal, seq, fields) of each pool journal's entry about a payout."""
    return [
        (str(row[0]), int(row[1]), jsonio.loads(row[8]))
        for row in entry_rows
        if row[3] in ENTRY_TYPES and str(row[0]).startswith(POOL_PREFIX)
    ]


def _indexed(connection: Connection, ids: list[str]) -> dict[str, tuple[Any, list[int]]]:
    """(record, steps) of each of these payouts the index holds."""
    return {
        str(r.id): (jsonio.loads(r.record), list(jsonio.loads(r.steps)))
        for r in connection.execute(
            select(payouts.c.id, payouts.c.record, payouts.c.steps).where(payouts.c.id.in_(ids))
        )
    }


def _fold_into(
    rows: dict[str, tuple[Any, list[int]]], mine: list[tuple[str, int, Any]]
) -> dict[str, str]:
    """Fold each entry into its payout's (record, steps) in `rows`, a payout not yet indexed
    from nothing; each payout's journal."""
    journals: dict[str, str] = {}
    for journal, seq, fields in mine:
        payout = str(fields["payout"])
        record, steps = rows.get(payout, (None, []))
        rows[payout] = (fold(record, journal.removeprefix(POOL_PREFIX), fields), [*steps, seq])
        journals[payout] = journal
    return journals


def _find_again(connection: Connection, records: dict[str, dict[str, Any]]) -> None:
    """Replace whom these payouts are found under by whom their records name."""
    ids = list(records)
    connection.execute(delete(payout_people).where(payout_people.c.payout.in_(ids)))
    found = [{"person": who, "payout": p} for p in ids for who in found_under(records[p])]
    if found:
        connection.execute(insert(payout_people), found)


def person_key(token: str) -> str:
    """How the index keeps a person or a key a payout is found under: its SHA-256, so that a
    name of any length (NFKC can make a 100-character name hundreds long) fits the column."""
    return hashlib.sha256(token.encode()).hexdigest()


def found_under(record: dict[str, Any]) -> list[str]:
    """The index's keys of everyone a payout (its record as folded) is found under
    (payoutrecord.people)."""
    return sorted({person_key(token) for token in people(Payout.of(record))})


def row_of(journal: str, record: dict[str, Any], steps: list[int]) -> dict[str, Any]:
    """A payout's row of the index, from its record and the seqs of its entries."""
    return {
        "id": record["id"],
        "journal": journal,
        "pool": record["pool"],
        "table_id": record["table"],
        "number": payout_number(record["id"]),
        "status": record["status"],
        "amount": int(record["amount"]),
        "created": int(record["created"]),
        "changed": changed_at(Payout.of(record)),
        "steps": jsonio.dumps(steps).decode(),
        "record": jsonio.dumps(record).decode(),
    }


def _upsert(connection: Connection, rows: list[dict[str, Any]]) -> None:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(payouts)
    changed = {c: statement.excluded[c] for c in rows[0] if c != "id"}
    connection.execute(
        statement.on_conflict_do_update(index_elements=["id"], set_=changed),
        rows,
    )


def search(
    connection: Connection, query: PayoutQuery, limit: int, besides: Sequence[str] = ()
) -> list[Payout]:
    """The payouts the query matches, newest first (order()), at most `limit`, leaving out
    the payouts `besides` (those the caller reads elsewhere)."""
    c = payouts.c
    # ids in code-point order, as Python orders them (PostgreSQL's collation may not)
    ident = c.id.collate("C") if connection.dialect.name == "postgresql" else c.id
    found = (
        select(c.record)
        .where(*_criteria(query, besides))
        .order_by(c.created.desc(), c.number.desc(), ident.desc())
        .limit(limit)
    )
    if query.before is not None:
        found = found.where(tuple_(c.created, c.number, ident) < tuple_(*query.before))
    return [Payout.of(jsonio.loads(r[0])) for r in connection.execute(found)]


def totals(
    connection: Connection, query: PayoutQuery, besides: Sequence[str] = ()
) -> dict[str, tuple[int, int]]:
    """(payouts, cents) the query matches, by status (its page's end is not a criterion),
    leaving out the payouts `besides`."""
    c = payouts.c
    grouped = (
        select(c.status, func.count(), func.coalesce(func.sum(c.amount), 0))
        .where(*_criteria(query, besides))
        .group_by(c.status)
    )
    return {str(s): (int(n), int(cents)) for s, n, cents in connection.execute(grouped)}


def _criteria(query: PayoutQuery, besides: Sequence[str] = ()) -> list[Any]:
    c = payouts.c
    out: list[Any] = [c.id.not_in(list(besides))] if besides else []
    matches = ((c.id, query.payout), (c.table_id, query.table), (c.pool, query.pool))
    out += [column == value for column, value in matches if value is not None]
    if query.statuses:
        out.append(c.status.in_(sorted(query.statuses)))
    if query.people is not None:
        out.append(c.id.in_(_found_under_any(query.people)))
    for column, (low, high) in ((c.created, query.created), (c.changed, query.changed)):
        out += _within(column, low, high)
    return out


def _found_under_any(tokens: Iterable[str]) -> Any:
    """The payouts found under any of these people or keys."""
    return select(payout_people.c.payout).where(
        payout_people.c.person.in_(sorted(person_key(t) for t in tokens))
    )


def _within(column: Any, low: int | None, high: int | None) -> list[Any]:
    """`column` in [low, high), either end open when None."""
    out: list[Any] = []
    if low is not None:
        out.append(column >= low)
    if high is not None:
        out.append(column < high)
    return out


def records(connection: Connection, ids: Iterable[str]) -> dict[str, Payout]:
    """These payouts, as the index holds them (those it holds)."""
    wanted = list(ids)
    if not wanted:
        return {}
    found = select(payouts.c.id, payouts.c.record).where(payouts.c.id.in_(wanted))
    return {str(i): Payout.of(jsonio.loads(r)) for i, r in connection.execute(found)}


def entries(connection: Connection, payout: str) -> tuple[str, list[tuple[ChainedEntry, str]]]:
    """(its pool's journal, (entry, stored hash) of each archived entry of the payout, in
    order); ('', []) when the index does not hold it."""
    row = connection.execute(
        select(payouts.c.journal, payouts.c.steps).where(payouts.c.id == payout)
    ).first()
    if row is None:
        return "", []
    journal, seqs = str(row[0]), list(jsonio.loads(row[1]))
    e = journal_entries.c
    found = connection.execute(
        select(e.seq, e.prev, e.hash, e.fields)
        .where(e.journal == journal, e.seq.in_(seqs))
        .order_by(e.seq)
    )
    return journal, [
        (ChainedEntry(int(s), str(p), tuple(jsonio.loads(f).items())), str(h))
        for s, p, h, f in found
    ]


def of_journal(connection: Connection, journal: str) -> dict[str, dict[str, Any]]:
    """Every indexed payout of one pool journal: its row, as stored."""
    found = select(payouts).where(payouts.c.journal == journal)
    return {str(r.id): dict(r._mapping) for r in connection.execute(found)}


def people_of(connection: Connection, journal: str) -> dict[str, set[str]]:
    """Who each indexed payout of one pool journal is found under, as the index holds it."""
    p = payout_people.c
    found = select(p.payout, p.person).where(
        p.payout.in_(select(payouts.c.id).where(payouts.c.journal == journal))
    )
    out: dict[str, set[str]] = {}
    for payout, person in connection.execute(found):
        out.setdefault(str(payout), set()).add(str(person))
    return out
