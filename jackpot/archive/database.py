"""One archive database: its engine (PostgreSQL or SQLite), its schema brought to the newest
revision once per process, and its reads, each failure raised as the archive unavailable."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from jackpot.errors import ArchiveUnavailableError

T = TypeVar("T")

# the advisory lock one PostgreSQL migration holds at a time (any fixed number of ours)
LOCK_ID = 0x6A61636B706F74  # "jackpot"


class Database:
    """One archive database; safe to share between threads (an engine's connection pool)."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.url = url
        self.dialect = parsed.get_backend_name()
        if self.dialect == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(url, connect_args={"timeout": 30})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=4)
        self._migrated = False
        self._migrating = threading.Lock()
        self._dbapi_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error

    def ensure(self) -> None:
        """Migrate once per process, before the first use; retried while it fails."""
        if self._migrated:
            return
        with self._migrating:
            if not self._migrated:
                self.migrate()
                self._migrated = True

    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic); a no-op when it is there."""
        config = Config()
        config.set_main_option(
            "script_location", str(resources.files("jackpot.archive").joinpath("migrations"))
        )
        try:
            with self._one_migration(), self.engine.begin() as connection:
                if self.dialect == "postgresql":  # until this transaction ends
                    connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_ID})
                config.attributes["connection"] = connection
                # Alembic configures logging from an ini file only; none is given here
                command.upgrade(config, "head")
        except SQLAlchemyError as exc:
            raise ArchiveUnavailableError(f"archive migration failed: {exc}") from exc

    @contextmanager
    def _one_migration(self) -> Iterator[None]:
        """One process migrates at a time: the controller's processes all start at once, and
        two creating a new database's tables together fail ("table ... already exists").
        SQLite: a lock file beside the database (its processes share one machine);
        PostgreSQL: an advisory lock, taken in the migration's transaction."""
        database = make_url(self.url).database
        if self.dialect != "sqlite" or not database or database == ":memory:":
            yield
            return
        with open(f"{database}.migrating", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def close(self) -> None:
        self.engine.dispose()

    def _read(self, reading: Callable[[Connection], T]) -> T:
        self.ensure()
        try:
            with self.engine.connect() as connection:
                return reading(connection)
        except SQLAlchemyError as exc:
            raise ArchiveUnavailableError(f"archive read failed: {exc}") from exc

    def _first(self, query: Any) -> Any:
        return self._read(lambda c: c.execute(query).first())

    def _all(self, query: Any) -> list[Any]:
        return self._read(lambda c: list(c.execute(query).all()))

    def _scalar(self, query: Any) -> Any:
        return self._read(lambda c: c.execute(query).scalar())


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
