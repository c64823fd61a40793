"""Tables: configuration, liveness, heartbeats, and a linked group's game."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from jackpot.conflicts import PoolStateError, UnlinkedPoolError
from jackpot.domain.auth import ApiKey, authorize_table
from jackpot.domain.config import PoolConfig, TableConfig, TableRecord, check_levels
from jackpot.domain.game import Game, GameChange, check_linked, linked_group
from jackpot.domain.meter import LinkState, PoolState
from jackpot.domain.returns import check_return
from jackpot.errors import ConflictError, NotFoundError
from jackpot.store.config import ConfigStore

# a configuration write checks the linked tables against a config version; when another
# write lands in between it is checked again, a few times, then refused
MAX_STALE_RETRIES = 5


class Tables:
    def __init__(
        self,
        config: ConfigStore,
        clock: Callable[[], int],
        offline_after_seconds: int,
        min_return_bp: int = 0,
        below_share_bp: int = 0,
    ) -> None:
        self._config = config
        self._clock = clock
        self._min_return_bp = min_return_bp  # JACKPOT_MIN_RETURN_BP (0: no minimum)
        # JACKPOT_BELOW_QUALIFYING_SHARE_BP: the handle assumed from bets that feed a level
        # but cannot win it
        self._below_share_bp = below_share_bp
        self._offline_ms = offline_after_seconds * 1000
        self._cache: dict[str, TableRecord] = {}

    def put(self, table: str, body: Any, who: str) -> tuple[str, TableRecord]:
        """Create or update a table ('created', 'updated' or 'unchanged')."""
        for _ in range(MAX_STALE_RETRIES):
            seen = self._config.config_version()
            try:
                current: TableConfig | None = self._config.table(table).config
            except NotFoundError:
                current = None
            config = TableConfig.from_json(body, current)
            # taking a table out of play changes no term: it always works (D229)
            if current is None or config != replace(current, enabled=False):
                self.check(table, config)
            kind = _journaled_as(current, config)
            reason = str(body.get("reason") or "").strip()
            status, _ = self._config.put_table(table, config, seen, who, kind, reason)
            if status != "stale":
                record = self._config.table(table)
                self._cache[table] = record
                return status, record
        raise ConflictError("table configuration kept changing; try again")

    def check(self, table: str, config: TableConfig) -> None:
        """That the pools `config` names are this group's and open to tables, and that it
        plays the game of the tables it is linked with."""
        known = {p.pool: p.link for p in self._config.pools()}
        for i, pool in enumerate(config.pools):
            if pool not in known:
                raise NotFoundError("pool", pool, f"pools[{i}]")
            if known[pool] is LinkState.RETIRED:
                raise PoolStateError(pool, "retired", "no table may feed it", f"pools[{i}]")
        check_linked(table, config, self._configs())
        check_levels(table, config, self._pool_configs(), "paytable", "max_wager")
        self.check_return(table, config, "paytable")

    def check_return(
        self,
        table: str,
        config: TableConfig,
        field: str,
        pools: Mapping[str, PoolConfig] | None = None,
        staged: bool = True,
    ) -> None:
        """That the table's bet returns less than 100% over the long run and at least the
        minimum (jackpot.domain.returns), with its pools as `pools` has them, else as stored
        and, with `staged`, as each one's staged change would make it: every mix of terms in
        force and staged, since staged changes take effect one pool at a time (D229)."""
        choices = self._term_choices(config, pools, staged)
        names = list(choices)
        smallest = self._smallest_wagers(table, config)
        for mix in itertools.product(*(choices[p] for p in names)):
            terms = {p: c for p, (c, _) in zip(names, mix, strict=True)}
            check_return(
                table,
                config,
                terms,
                self._min_return_bp,
                field,
                _staged_note([p for _, p in mix if p]),
                self._below_share_bp,
                smallest,
            )

    def _term_choices(
        self, config: TableConfig, pools: Mapping[str, PoolConfig] | None, staged: bool
    ) -> dict[str, list[tuple[PoolConfig, str]]]:
        """The terms of each pool the check tries: `pools`' own, else those in force and,
        with `staged`, for a pool the table feeds, its staged change's (naming the pool)."""
        choices: dict[str, list[tuple[PoolConfig, str]]] = {}
        for state in self._config.pools():
            if pools and state.pool in pools:
                continue
            choices[state.pool] = _in_force_and_staged(state, config.pools, staged)
        for pool, override in (pools or {}).items():
            choices[pool] = [(override, "")]
        return choices

    def _smallest_wagers(self, table: str, config: TableConfig) -> dict[str, int]:
        """The least wager any table feeding each pool takes, this one as it would be."""
        smallest = {p: config.min_wager for p in config.pools}
        for record in self._config.tables():
            for p in set(record.config.pools) & set(smallest):
                if record.table != table:
                    smallest[p] = min(smallest[p], record.config.min_wager)
        return smallest

    def _pool_configs(self) -> dict[str, PoolConfig]:
        return {p.pool: p.config for p in self._config.pools()}

    def check_pool_terms(
        self, pool: str, config: PoolConfig, field: str, staged: bool = True
    ) -> None:
        """That every table feeding `pool` still returns as it must with the pool's new
        terms (a pool's rates and reset are part of its tables' return), with the other
        pools' terms in force and, with `staged`, their staged ones, and still plays it as
        its type asks (a trigger level no paytable line pays from)."""
        for record in self._config.tables():
            if pool in record.config.pools:
                terms = self._pool_configs() | {pool: config}
                check_levels(record.table, record.config, terms, "level", "qualifying_wager")
                self.check_return(record.table, record.config, field, {pool: config}, staged)

    def forget(self, table: str) -> None:
        """Drop this process's copy of a table (it moved to another link group)."""
        self._cache.pop(table, None)

    def game(self, pool: str) -> Game:
        """The game `pool`'s linked group plays."""
        return Game.of(pool, self._linked(pool))

    def _linked(self, pool: str) -> tuple[TableRecord, ...]:
        """The tables of `pool`'s linked group, which all play one game."""
        self._config.pool(pool)  # 404 for an unknown pool
        records = {r.table: r for r in self._config.tables()}
        group = linked_group(pool, {t: r.config for t, r in records.items()})
        if not group:
            raise UnlinkedPoolError(pool)
        return tuple(records[t] for t in group)

    def change_game(self, pool: str, body: Any, who: str) -> Game:
        """Give every table of `pool`'s linked group the new deck count and/or paytable in
        one atomic step, journaled as one configuration change with who and why."""
        change = GameChange.from_json(body)
        for _ in range(MAX_STALE_RETRIES):
            seen = self._config.config_version()
            group = self._linked(pool)
            configs = {r.table: change.apply(r.config) for r in group}
            others = {**self._configs(), **configs}
            for table, config in configs.items():
                check_linked(table, config, others)
                check_levels(table, config, self._pool_configs(), "paytable", "paytable")
                self.check_return(table, config, "paytable")
            status, _ = self._config.change_game(
                configs, seen, who, change.reason, pool, change.to_json()
            )
            if status != "stale":
                records = tuple(self._config.table(t) for t in sorted(configs))
                self._cache.update((r.table, r) for r in records)
                game = Game.of(pool, records)
                return game.changed(status, change.reason, records[0].version)
        raise ConflictError("table configuration kept changing; try again")

    def get(self, table: str) -> TableRecord:
        return self._config.table(table)

    def all(self) -> list[TableRecord]:
        return self._config.tables()

    def online(self, record: TableRecord) -> bool:
        """Heard from (a heartbeat or a round) within the offline time."""
        if record.last_seen is None:
            return False
        return self._clock() - record.last_seen <= self._offline_ms

    def heartbeat(self, table: str, key: ApiKey) -> TableRecord:
        """Record that the table was heard from; the answer tells it if it is enabled."""
        authorize_table(key, table)
        record = self.cached(table, refresh=True)
        self._config.touch_table(table, self._clock())
        return record

    def cached(self, table: str, refresh: bool = False) -> TableRecord:
        """This worker's copy of a table's configuration (the round script refuses a stale
        one, so the round path can trust it)."""
        record = None if refresh else self._cache.get(table)
        if record is None:
            record = self._config.table(table)
            self._cache[table] = record
        return record

    def _configs(self) -> dict[str, TableConfig]:
        return {r.table: r.config for r in self._config.tables()}


def _staged_note(waiting: list[str]) -> str:
    """How a refusal names the staged changes the terms it was checked with hold."""
    if not waiting:
        return ""
    return " with the staged change of pool " + ", ".join(waiting) + " in force"


def _journaled_as(current: TableConfig | None, config: TableConfig) -> str:
    """The journal entry of a table's change: `table_enabled` or `table_disabled` when it
    switches play, else `table_updated`."""
    if current is not None and current.enabled != config.enabled:
        return "table_enabled" if config.enabled else "table_disabled"
    return "table_updated"


def _in_force_and_staged(
    state: PoolState, fed: Sequence[str], staged: bool
) -> list[tuple[PoolConfig, str]]:
    """A pool's terms in force and, with `staged`, for a pool the table feeds (`fed`), its
    staged change's (naming the pool)."""
    out = [(state.config, "")]
    if staged and state.staged is not None and state.pool in fed:
        out.append((state.staged.config, state.pool))
    return out
