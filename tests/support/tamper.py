"""What a forger with the archive database's superuser can do: rows edited, inserted and
deleted past the append-only triggers, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy
from sqlalchemy import Connection, Engine


@contextmanager
def superuser(engine: Engine) -> Iterator[Connection]:
    """A transaction the append-only triggers do not stop: PostgreSQL's replica role skips
    them for the session; on SQLite they are dropped (the file is the forger's)."""
    with engine.begin() as db:
        if engine.dialect.name == "postgresql":
            db.execute(sqlalchemy.text("SET LOCAL session_replication_role = replica"))
        else:
            names = db.execute(
                sqlalchemy.text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            ).scalars()
            for name in list(names):
                db.execute(sqlalchemy.text(f'DROP TRIGGER "{name}"'))
        yield db


def edit_round(engine: Engine, round_id: str, column: str, change: Callable[[Any], Any]) -> Any:
    """Rewrite one column of an archived round record (JSON columns decoded for `change`);
    the value it had, to restore it with."""
    with superuser(engine) as db:
        was = db.execute(
            sqlalchemy.text(f"SELECT {column} FROM rounds WHERE round_id = :r"), {"r": round_id}
        ).scalar_one()
        decoded = json.loads(was) if column in ("static", "dynamic") else was
        value = change(decoded)
        new = json.dumps(value) if column in ("static", "dynamic") else value
        db.execute(
            sqlalchemy.text(f"UPDATE rounds SET {column} = :v WHERE round_id = :r"),
            {"v": new, "r": round_id},
        )
    return was


def set_round(engine: Engine, round_id: str, column: str, value: Any) -> None:
    """Put a column of an archived round record back as it was."""
    with superuser(engine) as db:
        db.execute(
            sqlalchemy.text(f"UPDATE rounds SET {column} = :v WHERE round_id = :r"),
            {"v": value, "r": round_id},
        )


def rechain(
    engine: Engine,
    redis: Any,
    stream: str,
    head: tuple[str, str],
    journal: str,
    seq: int,
    change: Callable[[dict[str, str]], None],
) -> None:
    """The consistent rewrite: change entry `seq` of `journal` (its fields by name, in
    place), then hash it and every later entry again, in the archive and in Redis's
    `stream`, and set the recorded head (`head`: the hash and field holding it) to the new
    last hash, so that every link and every stored hash agrees with the forgery."""
    from jackpot.domain.chain import entry_hash  # a test helper's own need

    rows = []
    with superuser(engine) as db:
        found = db.execute(
            sqlalchemy.text(
                "SELECT seq, prev, fields FROM journal_entries WHERE journal = :j AND seq >= :s "
                "ORDER BY seq"
            ),
            {"j": journal, "s": seq},
        ).all()
        prev = None
        for s, stored_prev, text in found:
            fields = json.loads(text)
            if s == seq:
                change(fields)
            prev = stored_prev if prev is None else prev
            new = entry_hash(prev, s, list(fields.items()))
            db.execute(
                sqlalchemy.text(
                    "UPDATE journal_entries SET prev = :p, hash = :h, fields = :f "
                    "WHERE journal = :j AND seq = :s"
                ),
                {"p": prev, "h": new, "f": json.dumps(fields), "j": journal, "s": s},
            )
            rows.append((s, new))
            prev = new
    # Redis's tail: rewritten whole (a stream takes no id below its last)
    hashes = dict(rows)
    live = redis.xrange(stream)
    redis.delete(stream)
    for entry_id, fields in live:
        s = int(entry_id.split("-")[0])
        body = {k: v for k, v in fields.items() if k != "prev"}
        link = fields["prev"]
        if s == seq:
            change(body)
        elif s > seq:
            link = hashes[s - 1]
        if s >= seq:
            hashes[s] = entry_hash(link, s, list(body.items()))
        redis.xadd(stream, {"prev": link, **body}, id=f"{s}-0")
    key, name = head
    redis.hset(key, name, hashes[max(hashes)])


def refold_payout(engine: Engine, payout: str) -> None:
    """Make the payouts' index agree with a payout's rewritten entries: its row folded again
    from them, as the archiver would have (the consistent forger's last step)."""
    from jackpot.archive.payoutindex import row_of  # a test helper's own need
    from jackpot.domain.payoutrecord import fold

    with superuser(engine) as db:
        journal, steps = db.execute(
            sqlalchemy.text("SELECT journal, steps FROM payouts WHERE id = :p"), {"p": payout}
        ).one()
        seqs = json.loads(steps)
        record = None
        for seq in seqs:
            fields = db.execute(
                sqlalchemy.text(
                    "SELECT fields FROM journal_entries WHERE journal = :j AND seq = :s"
                ),
                {"j": journal, "s": seq},
            ).scalar_one()
            record = fold(record, journal.removeprefix("pool/"), json.loads(fields))
        assert record is not None
        row = row_of(journal, record, seqs)
        db.execute(
            sqlalchemy.text(
                "UPDATE payouts SET amount = :amount, record = :record, status = :status, "
                "changed = :changed WHERE id = :id"
            ),
            row,
        )
