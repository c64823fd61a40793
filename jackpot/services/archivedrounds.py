"""A round that left Redis, found in the archive and served only once its journal vouches.

A replayed report of a round Redis no longer holds is answered from the archive (docs/API.md,
`POST /v1/rounds`). The archived record is served only when the house journal entry that
settled it commits the same result (docs/RULES.md §5): a forged or edited record is never
served, and the request fails with `round_record_invalid` instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from jackpot.archive.rows import ArchivedRound
from jackpot.archive.store import Archive
from jackpot.conflicts import RoundRecordError
from jackpot.domain.journals import house_journal
from jackpot.domain.records import record_problem
from jackpot.errors import ArchiveUnavailableError, StoreUnavailableError
from jackpot.services.rounds import ArchivedRounds

log = logging.getLogger(__name__)


class ArchivedRoundRecords:
    """Every link group's archived rounds, each vouched for by the entry that settled it."""

    def __init__(self, archive: Archive, group_names: Callable[[], list[str]]) -> None:
        self._archive = archive
        self._group_names = group_names  # every link group's name, the main one among them

    def of_group(self, group: str) -> ArchivedRounds:
        """The lookup a link group's `Rounds` uses."""
        return partial(self.find, group)

    def find(self, group: str, table: str, round_id: str) -> tuple[str, str, str] | None:
        """(digest, static JSON, dynamic JSON) of the round's archived record, or None when
        the archive has no record of it; RoundRecordError when no entry vouches for it."""
        try:
            found = self._archive.round(table, round_id)
            if found is None:
                return None
            verdict = self._vouched(group, found)
        except ArchiveUnavailableError as exc:
            # the cause (the database's address among it) is the log's, never the client's
            log.warning("the archive did not answer: %s", exc)
            raise StoreUnavailableError(
                "the archive did not answer; resend the same request: it is answered once "
                "the archive is back"
            ) from exc
        if verdict is None:
            return found.digest, found.static, found.dynamic
        log.error("round %s/%s: %s", table, round_id, verdict)
        raise RoundRecordError(table, round_id)

    def _vouched(self, group: str, found: ArchivedRound) -> str | None:
        """None when the entry that settled the round, in `group`'s house journal or another
        group's (for a table that moved), commits this record; otherwise what is wrong."""
        others = [name for name in self._group_names() if name != group]
        for name in [group, *others]:
            entry = self._settling_entry(name, found)
            if entry is None:
                continue
            return record_problem(entry, found.static, found.dynamic, found.ts, found.digest)
        return "no journal entry vouches for its archived record"  # lost or forged

    def _settling_entry(self, group: str, found: ArchivedRound) -> dict[str, str] | None:
        """The round entry at the record's house seq in `group`'s house journal, if that
        entry settled this round."""
        seq = found.house_seq
        entries = self._archive.entries(house_journal(group), seq - 1, 1, until_seq=seq)
        if not entries:
            return None
        entry = entries[0][0]
        if (entry.get("type"), entry.get("table"), entry.get("round")) != (
            "round",
            found.table,
            found.round,
        ):
            return None
        return entry.by_name()
