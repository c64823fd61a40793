"""The archive's writes, over SQLAlchemy Core: a batch of journal entries and round records
in one transaction, with the payouts' index; a closed gaming day. Its reads:
jackpot.archive.store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select, tuple_
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from jackpot.archive import payoutindex
from jackpot.archive.database import Database
from jackpot.archive.rows import ENTRY_COLUMNS, ROUND_COLUMNS, ArchivedEntry, ArchivedRound
from jackpot.archive.schema import gaming_days, journal_entries, round_repeats, rounds
from jackpot.errors import ArchiveUnavailableError


class ArchiveWrites(Database):
    """An archive database's writes (jackpot.archive.store.Archive reads it too)."""

    def append(
        self, entries: Sequence[ArchivedEntry], archived_rounds: Sequence[ArchivedRound]
    ) -> None:
        """Insert entries and rounds in one transaction: all of them or none."""
        self.append_rows([e.row() for e in entries], [r.row() for r in archived_rounds])

    def append_rows(
        self, entry_rows: Sequence[tuple[Any, ...]], round_rows: Sequence[tuple[Any, ...]]
    ) -> list[tuple[Any, ...]]:
        """append() of rows already in ENTRY_COLUMNS and ROUND_COLUMNS order. A round whose
        (table, round) is archived already (settled twice: D225) never stops the archive:
        its row goes to `round_repeats` in the same transaction, and is returned."""
        self.ensure()
        try:
            try:
                self._append(entry_rows, round_rows, [])
                return []
            except (SQLAlchemyError, self._dbapi_error) as first:
                if not round_rows or not self._integrity(first):
                    raise
            # a unique key refused a row: the batch again, the repeated rounds set apart
            with self.engine.begin() as connection:
                fresh, repeats = self._split_repeats(connection, round_rows)
            self._append(entry_rows, fresh, repeats)
            return repeats
        except (SQLAlchemyError, self._dbapi_error) as exc:
            # COPY goes to the driver itself: its errors are the driver's own
            raise ArchiveUnavailableError(f"archive write failed: {exc}") from exc

    def _integrity(self, exc: BaseException) -> bool:
        """A unique key's refusal, as SQLAlchemy or the driver raised it."""
        if isinstance(exc, IntegrityError):
            return True
        integrity = getattr(self.engine.dialect.loaded_dbapi, "IntegrityError", None)
        return integrity is not None and isinstance(exc, integrity)

    @staticmethod
    def _split_repeats(
        connection: Connection, round_rows: Sequence[tuple[Any, ...]]
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """(rounds archived for the first time, rounds whose id is archived already or comes
        earlier in the batch)."""
        wanted = sorted({(str(r[0]), str(r[1])) for r in round_rows})
        key = tuple_(rounds.c.table_id, rounds.c.round_id)
        seen: set[tuple[str, str]] = set()
        for start in range(0, len(wanted), 500):
            query = select(rounds.c.table_id, rounds.c.round_id).where(
                key.in_(wanted[start : start + 500])
            )
            seen |= {(str(t), str(r)) for t, r in connection.execute(query)}
        fresh: list[tuple[Any, ...]] = []
        repeats: list[tuple[Any, ...]] = []
        for row in round_rows:
            ident = (str(row[0]), str(row[1]))
            (repeats if ident in seen else fresh).append(row)
            seen.add(ident)
        return fresh, repeats

    def _append(
        self,
        entry_rows: Sequence[tuple[Any, ...]],
        round_rows: Sequence[tuple[Any, ...]],
        repeat_rows: Sequence[tuple[Any, ...]],
    ) -> None:
        """One transaction: the entries, the rounds, the repeats, the payouts' index."""
        tables = (
            (journal_entries.name, ENTRY_COLUMNS, entry_rows),
            (rounds.name, ROUND_COLUMNS, round_rows),
            (round_repeats.name, ROUND_COLUMNS, repeat_rows),
        )
        with self.engine.begin() as connection:
            if self.dialect == "postgresql":
                _copy(connection, tables)
            else:
                # straight to the driver's executemany: SQLAlchemy's per-row parameter
                # handling would cost more than the database's own work here
                for table, columns, rows in tables:
                    if rows:
                        connection.exec_driver_sql(self._insert(table, columns), rows)
            # the payouts' index says what the archived entries say, no more, no less
            payoutindex.bring_forward(connection, entry_rows)

    def _insert(self, table: str, columns: tuple[str, ...]) -> str:
        mark = "?" if self.dialect == "sqlite" else "%s"
        return (
            f"INSERT INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join([mark] * len(columns))})"
        )

    def add_day(self, row: dict[str, Any]) -> bool:
        """Record a closed gaming day once; False when it was closed already."""
        self.ensure()
        try:
            with self.engine.begin() as connection:
                found = connection.execute(
                    select(gaming_days.c.day).where(gaming_days.c.day == row["day"])
                ).first()
                if found is not None:
                    return False
                connection.execute(gaming_days.insert(), [row])
                return True
        except SQLAlchemyError as exc:
            raise ArchiveUnavailableError(f"archive write failed: {exc}") from exc


def _copy(
    connection: Connection, tables: Sequence[tuple[str, tuple[str, ...], Sequence[tuple[Any, ...]]]]
) -> None:
    """COPY: PostgreSQL's bulk load, an order faster than row by row."""
    raw = connection.connection.driver_connection
    with raw.cursor() as cursor:  # type: ignore[union-attr]
        for table, columns, rows in tables:
            if rows:
                copy_sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
                with cursor.copy(copy_sql) as copy:
                    for row in rows:
                        copy.write_row(row)
