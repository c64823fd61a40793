"""Moving a table between link groups: a defined, journaled, resumable operation.

A table feeds the pools of its link group, and its recent round records (what answers a
resent report as a replay) are in that group's keys. A move gives the table pools of another
group and takes those records along, in steps that can each be done again:

1. the move is recorded in the registry (who, why, from, to, the new pools): a move cut short
   is finished by the next request naming the same pools, and no other move of the table may
   start meanwhile;
2. the table is sealed in the old group (`table_move_started` in its house journal): it must
   be disabled, and from then on its configuration cannot change there, so no round settles on
   it while it moves (a plan made before is refused as stale by the round script);
3. the old group's journals are archived, then the round records still within retention are
   copied to the new group, each kept there until its retention ends (by then the archive
   answers for it; the originals stay in the old group until its archiver trims them): a
   report resent after the move is answered as the replay it is;
4. the table arrives in the new group, still disabled, with its new pools (`table_arrived`);
5. the registry names the new group: from now on every process sends the table's rounds there
   (a process that still knows the old group finds the table gone from it and looks again);
6. the table leaves the old group (`table_left`), and the record of the move is cleared.

A move refused where it was going (its new pools retired meanwhile, another table by that
id there) is called off before anything arrived: the seal is lifted (`table_move_called_off`).
The operator enables the table again in its new group.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from jackpot.conflicts import LinkGroupError, TableMoveError
from jackpot.domain.config import TableConfig, TableRecord
from jackpot.domain.linkgroups import pools_group
from jackpot.domain.requests import MOVE_REQUEST
from jackpot.domain.tableanswers import MoveStatus, TableAnswer, TableMoved
from jackpot.errors import (
    ArchiveUnavailableError,
    ConflictError,
    JackpotError,
    NotFoundError,
    StoreUnavailableError,
)
from jackpot.services.linkgroups import Group, LinkGroups
from jackpot.services.placement import Placement
from jackpot.services.tables import MAX_STALE_RETRIES
from jackpot.store.config import TableMove
from jackpot.store.confighashes import canonical
from jackpot.store.forgotten import ForgottenRounds

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Moved:
    """What a move did."""

    table: str
    source: str
    target: str
    status: str  # moved | unchanged (it was in the target group with those pools already)
    rounds_copied: int
    record: TableRecord
    move: str

    def answer(self, config: TableAnswer) -> TableMoved:
        """What the API answers of it, with the table as it is now."""
        return TableMoved(
            table=self.table,
            source=self.source,
            to=self.target,
            status=MoveStatus(self.status),
            move=self.move,
            rounds_copied=self.rounds_copied,
            config=config,
        )


def _under_way(table: str, underway: dict[str, Any], pools: tuple[str, ...], who: str) -> TableMove:
    """The move of `table` under way, which a request for the same pools finishes."""
    if tuple(underway["pools"]) != pools:
        raise TableMoveError(
            table,
            "move_under_way",
            f"its move to {underway['to']!r} with pools {underway['pools']} is under "
            "way: repeat that request to finish it",
        )
    return TableMove(underway["move"], underway["from"], underway["to"], who, underway["reason"])


def _within_group(table: str, record: TableRecord, group: str, pools: tuple[str, ...]) -> Moved:
    """A move to pools of the table's own link group: done before (a resent request), else
    refused."""
    if record.config.pools == pools:  # moved there before: a resent request
        return Moved(table, group, group, "unchanged", 0, record, "")
    raise LinkGroupError(
        "table",
        table,
        group,
        group,
        "its new pools are in its own link group: change them with PUT /tables/{id}",
        field="pools",
    )


class TableMoves:
    def __init__(
        self, groups: LinkGroups, placement: Placement, keep_ms: int, clock: Callable[[], int]
    ) -> None:
        self._groups = groups
        self._placement = placement
        self._keep_ms = keep_ms
        self._clock = clock

    def move(self, table: str, body: Any, who: str) -> Moved:
        request = MOVE_REQUEST.check(body)
        pools, reason = tuple(request["pools"]), str(request["reason"])
        registry = self._groups.registry
        underway = registry.move_of(table)
        if underway is not None:
            return self._finish(table, _under_way(table, underway, pools, who), pools)
        source = self._groups.of_table(table, refresh=True)
        record = source.tables.get(table)  # 404 for an unknown table
        target = self._groups.of(pools_group(self._placement.pools_groups(pools)))
        if target.name == source.name:
            return _within_group(table, record, source.name, pools)
        if record.config.enabled:
            raise TableMoveError(
                table, "table_enabled", "disable it first: no round may settle while it moves"
            )
        target.tables.check(table, self._new_config(record, pools))  # 404 naming pools[i]
        plan = TableMove(f"M{secrets.token_hex(6)}", source.name, target.name, who, reason)
        started = registry.begin_move(
            table,
            {
                "move": plan.move,
                "from": source.name,
                "to": target.name,
                "pools": list(pools),
                "who": who,
                "reason": reason,
                "started": self._clock(),
            },
        )
        if started["move"] != plan.move:  # another request began it first: finish that one
            return self.move(table, body, who)
        return self._finish(table, plan, pools)

    @staticmethod
    def _new_config(record: TableRecord, pools: tuple[str, ...]) -> TableConfig:
        return TableConfig.from_json({"pools": list(pools), "enabled": False}, record.config)

    def _finish(self, table: str, plan: TableMove, pools: tuple[str, ...]) -> Moved:
        registry = self._groups.registry
        source, target = self._groups.of(plan.source), self._groups.of(plan.target)
        old, body = self._seal(table, plan, pools)
        if old is None:
            # gone from the old group: this move took it (its arrival says so), or another
            # request moved it meanwhile and this one has nothing to do
            if target.config.moved_in(table) != plan.move:
                registry.end_move(table)
                raise TableMoveError(table, "move_under_way", "it left its group meanwhile")
        else:
            plan = replace(plan, rounds_copied=self._carry_rounds(source, target, table))
            try:
                self._arrive(table, plan, old, pools, body)
            except JackpotError:
                # refused where it was going (its pools retired, another table by that id,
                # another game meanwhile): nothing arrived, so the move is called off
                source.config.move_table("unseal", table, plan, body)
                source.tables.forget(table)
                registry.end_move(table)
                raise
        registry.set_table(table, target.name)
        self._groups.forget_table(table)
        if old is not None:
            left = source.config.move_table("leave", table, plan, body)
            if left not in ("left", "done"):
                raise TableMoveError(table, "move_under_way", "another move of it is under way")
            source.tables.forget(table)
        registry.end_move(table)
        record = target.tables.get(table)
        copied = plan.rounds_copied or 0
        return Moved(table, source.name, target.name, "moved", copied, record, plan.move)

    def _carry_rounds(self, source: Group, target: Group, table: str) -> int:
        """The table's round records copied into the new group once the old group's journals
        are archived, and its forgotten rounds carried along: how many records were."""
        self._archive_first(source, table)
        copied, kept = 0, []
        prefix = len(source.keys.round(table, ""))
        for keys in source.config.round_keys(table):
            copied += source.config.copy_rounds(keys, target.config, self._keep_ms)
            kept += [key[prefix:] for key in keys]
        # what left Redis here, and the copies that will expire there, are never settled
        # again in the new group either (D225)
        ForgottenRounds(source.client, source.keys).carry(
            table, ForgottenRounds(target.client, target.keys), kept
        )
        return copied

    def _seal(
        self, table: str, plan: TableMove, pools: tuple[str, ...]
    ) -> tuple[TableRecord | None, str]:
        """The table as it is sealed in the old group, and its config in the new one; None
        when it is no longer in the old group. A change made since the move was planned is
        taken along (the seal is made on the version it read)."""
        registry = self._groups.registry
        source = self._groups.of(plan.source)
        for _ in range(MAX_STALE_RETRIES):
            try:
                old = source.tables.get(table)
            except NotFoundError:
                return None, ""
            body = canonical(self._new_config(old, pools).to_json())
            sealed = source.config.move_table("seal", table, plan, body, old.version)
            if sealed in ("sealed", "done"):
                source.tables.forget(table)
                return old, body
            if sealed == "stale":
                continue
            registry.end_move(table)  # this move sealed nothing: it did not begin
            if sealed == "enabled":
                raise TableMoveError(
                    table, "table_enabled", "disable it first: no round may settle while it moves"
                )
            if sealed == "missing":
                raise TableMoveError(table, "move_under_way", "it left its group meanwhile")
            raise TableMoveError(table, "move_under_way", "another move of it is under way")
        raise ConflictError("table configuration kept changing; try again")

    @staticmethod
    def _archive_first(source: Group, table: str) -> None:
        """The old group's journals archived, so every round record about to be copied is
        in the archive before its copy may expire (a resend found in neither would be
        settled again)."""
        try:
            done = source.archiver.run(trim=False)
        except ArchiveUnavailableError as exc:
            log.warning("the archive did not answer: %s", exc)  # its address: the log's only
            raise StoreUnavailableError(
                f"the archive did not answer; the move of {table!r} is under way: "
                "repeat the request to finish it"
            ) from exc
        if done.problems:
            raise StoreUnavailableError(
                f"archiving link group {source.name!r} found problems ({done.problems[0]}); "
                f"the move of {table!r} is under way: repeat the request once they are fixed"
            )

    def _arrive(
        self, table: str, plan: TableMove, old: TableRecord, pools: tuple[str, ...], body: str
    ) -> None:
        """The table in its new group, disabled, with its new pools."""
        target = self._groups.of(plan.target)
        last_seen = "" if old.last_seen is None else old.last_seen
        for _ in range(MAX_STALE_RETRIES):
            seen = target.config.config_version()
            target.tables.check(table, self._new_config(old, pools))
            done = target.config.move_table(
                "arrive", table, plan, body, seen, old.rounds, last_seen
            )
            if done in ("arrived", "done"):
                return
            if done == "exists":
                raise TableMoveError(
                    table, "table_exists", f"a table {table!r} is in {plan.target!r} already"
                )
        raise ConflictError("table configuration kept changing; try again")
