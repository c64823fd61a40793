"""The archive's signed checkpoints (jackpot.domain.checkpoints): appended once, read by
number, by day and by what they cover; and the archived hashes a checkpoint's heads are held
to."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from jackpot.archive.schema import checkpoints, journal_entries
from jackpot.archive.store import Archive
from jackpot.domain.checkpoints import covers
from jackpot.errors import ArchiveUnavailableError

T = TypeVar("T")
PAGE = 500


class CheckpointArchive:
    """The `checkpoints` table of one archive."""

    def __init__(self, archive: Archive) -> None:
        self._archive = archive

    def add(self, checkpoint: dict[str, Any]) -> bool:
        """Append a checkpoint; False when its number is taken (another worker's, made at
        the same time: the history keeps one)."""
        row = {
            "id": checkpoint["id"],
            "ts": checkpoint["ts"],
            "hash": checkpoint["hash"],
            "day": checkpoint.get("day"),
            "body": json.dumps(checkpoint, sort_keys=True, separators=(",", ":")),
        }
        self._archive.ensure()
        try:
            with self._archive.engine.begin() as connection:
                connection.execute(checkpoints.insert(), [row])
            return True
        except IntegrityError:
            return False
        except SQLAlchemyError as exc:
            raise ArchiveUnavailableError(f"archive write failed: {exc}") from exc

    def latest(self) -> dict[str, Any] | None:
        rows = self._bodies(select(checkpoints.c.body).order_by(checkpoints.c.id.desc()).limit(1))
        return rows[0] if rows else None

    def get(self, number: int) -> dict[str, Any] | None:
        rows = self._bodies(select(checkpoints.c.body).where(checkpoints.c.id == number))
        return rows[0] if rows else None

    def after(self, number: int, limit: int) -> list[dict[str, Any]]:
        """Up to `limit` checkpoints numbered above `number`, oldest first."""
        c = checkpoints.c
        return self._bodies(select(c.body).where(c.id > number).order_by(c.id).limit(limit))

    def walk(self, after: int = 0) -> Iterator[dict[str, Any]]:
        """Every checkpoint numbered above `after`, oldest first, a page at a time."""
        return (body for body, _ in self.walk_rows(after))

    def walk_rows(self, after: int = 0) -> Iterator[tuple[dict[str, Any], list[str]]]:
        """Every checkpoint numbered above `after`, oldest first, with the names of the row's
        columns (id, ts, hash, day) that are not its body's: they are copies, for indexes."""
        c = checkpoints.c
        while True:
            query = select(c.id, c.ts, c.hash, c.day, c.body).where(c.id > after).order_by(c.id)
            rows = self._all(query.limit(PAGE))
            for row in rows:
                body: dict[str, Any] = json.loads(row.body)
                columns = {"id": row.id, "ts": row.ts, "hash": row.hash, "day": row.day}
                yield body, [n for n, v in columns.items() if v != body.get(n)]
            if len(rows) < PAGE:
                return
            after = int(rows[-1].id)

    def first_at(self, ts: int) -> int | None:
        """The number of the first checkpoint made at or after `ts`."""
        c = checkpoints.c
        rows = self._all(select(c.id).where(c.ts >= ts).order_by(c.ts, c.id).limit(1))
        return int(rows[0][0]) if rows else None

    def of_day(self, day: str) -> dict[str, Any] | None:
        """The checkpoint made at the close of gaming day `day` (the first, if several)."""
        c = checkpoints.c
        rows = self._bodies(select(c.body).where(c.day == day).order_by(c.id).limit(1))
        return rows[0] if rows else None

    def covering(self, journal: str, seq: int, since_ts: int) -> dict[str, Any] | None:
        """The first checkpoint whose head of `journal` is at or past `seq`, among those made
        at or after `since_ts` (the entry's stamp: none before it can cover it)."""
        c = checkpoints.c
        after = 0
        while True:
            query = (
                select(c.id, c.body)
                .where(c.ts >= since_ts, c.id > after)
                .order_by(c.id)
                .limit(PAGE)
            )
            rows = self._all(query)
            for _, body in rows:
                found: dict[str, Any] = json.loads(body)
                if covers(found, journal, seq):
                    return found
            if len(rows) < PAGE:
                return None
            after = int(rows[-1][0])

    def hashes_at(self, journal: str, seqs: Sequence[int]) -> dict[int, str]:
        """The stored hash of each archived entry of `journal` at one of `seqs`."""
        c = journal_entries.c
        wanted = sorted(set(seqs))
        out: dict[int, str] = {}
        for start in range(0, len(wanted), PAGE):
            query = select(c.seq, c.hash).where(
                c.journal == journal, c.seq.in_(wanted[start : start + PAGE])
            )
            out.update((int(s), str(h)) for s, h in self._all(query))
        return out

    def _all(self, query: Any) -> list[Any]:
        return self._read(lambda conn: list(conn.execute(query).all()))

    def _bodies(self, query: Any) -> list[dict[str, Any]]:
        rows = self._read(lambda conn: list(conn.execute(query).scalars()))
        return [json.loads(r) for r in rows]

    def _read(self, reading: Callable[[Connection], T]) -> T:
        self._archive.ensure()
        try:
            with self._archive.engine.connect() as connection:
                return reading(connection)
        except SQLAlchemyError as exc:
            raise ArchiveUnavailableError(f"archive read failed: {exc}") from exc
