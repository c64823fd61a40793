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
