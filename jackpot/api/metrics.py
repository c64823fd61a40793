"""Meter values for /metrics, read from Redis at scrape time (never from a worker's memory)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from jackpot.bootstrap import Services
from jackpot.domain.config import TableRecord
from jackpot.domain.meter import UNITS_PER_CENT, LinkState, PoolState
from jackpot.domain.payout import Payout
from jackpot.metrics.audience import PoolsShown, shown_openly

# Each pool's figures: (family, name, help, the figure, None where the pool has none).
# Seed put in and seed voids gave back apart: a counter never falls (D264).
_Family = type[GaugeMetricFamily] | type[CounterMetricFamily]
_POOL_FIGURES: tuple[tuple[_Family, str, str, Callable[[PoolState], int | None]], ...] = (
    (GaugeMetricFamily, "jackpot_pool_value_cents", "Visible meter, cents rounded down",
     lambda p: p.value),
    (GaugeMetricFamily, "jackpot_pool_cap_cents", "The meter's cap (pools with one)",
     lambda p: p.config.cap),
    (GaugeMetricFamily, "jackpot_pool_running",
     "1 while the pool's link runs (0: suspended or retired)",
     lambda p: 1 if p.link is LinkState.RUNNING else 0),
    (CounterMetricFamily, "jackpot_pool_wagered_cents", "Progressive wagers counted in",
     lambda p: p.wagered),
    (CounterMetricFamily, "jackpot_pool_hits", "Percentage pays of the meter", lambda p: p.hits),
    (CounterMetricFamily, "jackpot_pool_won_cents", "Total won from the meter", lambda p: p.won),
    (CounterMetricFamily, "jackpot_pool_overflow_cents", "Contributions diverted by the cap",
     lambda p: p.overflow_units // UNITS_PER_CENT),
    (CounterMetricFamily, "jackpot_pool_seed_funding_cents",
     "House funding of resets and voids' top-ups, seed given back not deducted",
     lambda p: p.seed_in_units // UNITS_PER_CENT),
    (CounterMetricFamily, "jackpot_pool_seed_returned_cents",
     "Seed of voided hits' resets given back to the house",
     lambda p: p.seed_returned_units // UNITS_PER_CENT),
)  # fmt: skip


class MeterCollector(Collector):
    def __init__(self, services: Services) -> None:
        self._s = services

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("jackpot_store_up", "1 when the store answered this scrape")
        ping = GaugeMetricFamily(
            "jackpot_store_ping_seconds", "How long the store took to answer a PING this scrape"
        )
        try:
            started = time.perf_counter()
            self._s.connections.ping()
            ping.add_metric([], time.perf_counter() - started)
            pools = self._s.pools.all()
            tables = self._s.config.tables()
            unsettled = self._s.payouts.unsettled()
        except Exception:  # noqa: BLE001 - a scrape must still answer when Redis does not
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield ping
        yield from _pool_figures(pools)
        yield from _waiting_payouts(pools, unsettled)
        yield from self._tables(tables)
        yield from self._table_counts(tables)
        yield from self._durability()
        yield from self._controller()
        yield from self._queue()
        yield from self._archive()
        yield from self._checkpoint()

    def _tables(self, tables: list[TableRecord]) -> Iterator[Metric]:
        online = GaugeMetricFamily(
            "jackpot_table_online", "1 while the table is heard from", labels=["table"]
        )
        seen = GaugeMetricFamily(
            "jackpot_table_last_seen_timestamp_seconds",
            "When the table was last heard from",
            labels=["table"],
        )
        enabled = GaugeMetricFamily(
            "jackpot_table_enabled", "1 while the table may take side bets", labels=["table"]
        )
        played = CounterMetricFamily(
            "jackpot_table_rounds", "Rounds the table reported and were settled", labels=["table"]
        )
        linked = GaugeMetricFamily(
            "jackpot_table_pool_info",
            "The pools each table feeds (always 1)",
            labels=["table", "pool"],
        )
        for t in tables:
            online.add_metric([t.table], 1 if self._s.groups.main.tables.online(t) else 0)
            enabled.add_metric([t.table], 1 if t.config.enabled else 0)
            played.add_metric([t.table], t.rounds)
            for pool in t.config.pools:
                linked.add_metric([t.table, pool], 1)
            if t.last_seen is not None:
                seen.add_metric([t.table], t.last_seen / 1000)
        yield from (online, enabled, played, linked, seen)

    def _table_counts(self, tables: list[TableRecord]) -> Iterator[Metric]:
        """Table-side reconciliation: whether each table's own counts of a gaming day differ
        from what the controller holds, on any day whose difference is still in sight: not
        yet both closed and acknowledged by a person (docs/RULES.md §5, D227)."""
        try:
            shown = self._s.table_counts.in_sight()
        except Exception:  # noqa: BLE001 - the store's state is already in jackpot_store_up
            return
        differ = GaugeMetricFamily(
            "jackpot_table_counts_differ",
            "1 while what a table was acknowledged differs from what the controller holds, "
            "in a gaming day not yet both closed and acknowledged by a person (0: none)",
            labels=["table"],
        )
        by = GaugeMetricFamily(
            "jackpot_table_count_difference",
            "The table's count less the controller's, of each figure that differs (rounds, "
            "side_bets, voids; handle and pays in cents), summed over the days in sight",
            labels=["table", "figure"],
        )
        totals: dict[tuple[str, str], int] = {}
        for check in shown:
            for figure, v in check["differences"].items():
                at = (check["table"], figure)
                totals[at] = totals.get(at, 0) + int(v["table"]) - int(v["controller"])
        differing = {c["table"] for c in shown}
        for t in tables:
            differ.add_metric([t.table], 1 if t.table in differing else 0)
        for (table, figure), v in sorted(totals.items()):
            by.add_metric([table, figure], v)
        yield differ
        yield by

    def _durability(self) -> Iterator[Metric]:
        """The store's persistence settings and replicas, and the replica wait the controller
        holds writes to: an alert sees a store that could lose a round."""
        try:
            found = self._s.health.durability()
        except Exception:  # noqa: BLE001 - the store's state is already in jackpot_store_up
            return
        info = GaugeMetricFamily(
            "jackpot_store_durability_info",
            "The store's appendonly, appendfsync and maxmemory-policy (always 1)",
            labels=["appendonly", "appendfsync", "maxmemory_policy"],
        )
        info.add_metric([found.appendonly, found.appendfsync, found.maxmemory_policy], 1)
        yield info
        if found.used_memory is not None:
            yield GaugeMetricFamily(
                "jackpot_store_memory_used_bytes",
                "Memory the store holds now (INFO used_memory): it grows while the archive "
                "cannot take the journals Redis keeps until then",
                value=found.used_memory,
            )
        if found.maxmemory is not None:
            yield GaugeMetricFamily(
                "jackpot_store_memory_limit_bytes",
                "The store's maxmemory (0: no limit of its own, the machine's)",
                value=found.maxmemory,
            )
        yield GaugeMetricFamily(
            "jackpot_store_replicas",
            "Replicas connected to the store (a master's count)",
            value=found.replicas,
        )
        yield GaugeMetricFamily(
            "jackpot_store_wait_replicas",
            "Replicas that must confirm each write before it is acknowledged "
            "(JACKPOT_REDIS_WAIT_REPLICAS; 0: the store's fsync alone)",
            value=self._s.health.wait_replicas,
        )

    def _controller(self) -> Iterator[Metric]:
        """The self-check's latest result (jackpot/services/selfcheck.py)."""
        try:
            groups = self._s.health.by_group()
        except Exception:  # noqa: BLE001 - the store's state is already in jackpot_store_up
            return
        health = self._s.health.merged(groups)
        yield GaugeMetricFamily(
            "jackpot_controller_operable",
            "1 while the self-check passes; 0: inoperable, rounds are refused",
            value=1 if health.operable else 0,
        )
        problem = GaugeMetricFamily(
            "jackpot_controller_problem",
            "Each problem the self-check found (always 1; none while operable)",
            labels=["check", "code"],
        )
        for p in sorted({(p.check, p.code) for p in health.problems}):
            problem.add_metric(list(p), 1)
        yield problem
        group = GaugeMetricFamily(
            "jackpot_link_group_operable",
            "1 while the link group's self-check passes; 0: its rounds are refused",
            labels=["group"],
        )
        for name, found in groups.items():
            group.add_metric([name], 1 if found.operable else 0)
        yield group
        yield GaugeMetricFamily(
            "jackpot_controller_checked_timestamp_seconds",
            "When the self-check last ran",
            value=health.checked,
        )

    def _queue(self) -> Iterator[Metric]:
        try:
            health = self._s.audit.queue_health()
        except Exception:  # noqa: BLE001 - the store's state is already in jackpot_store_up
            return
        labels = [health.name]
        for name, text, value in (
            ("jackpot_queue_jobs", "Background jobs waiting", health.queued),
            ("jackpot_queue_failed_jobs", "Background jobs in the failed registry", health.failed),
            ("jackpot_workers", "Workers serving the queue (heartbeat alive)", health.workers),
        ):
            gauge = GaugeMetricFamily(name, text, labels=["queue"])
            gauge.add_metric(labels, value)
            yield gauge
        beat = GaugeMetricFamily(
            "jackpot_worker_last_heartbeat_timestamp_seconds",
            "The newest heartbeat of a worker serving the queue",
            labels=["queue"],
        )
        if health.last_heartbeat is not None:
            beat.add_metric(labels, health.last_heartbeat)
        yield beat

    def _archive(self) -> Iterator[Metric]:
        try:
            status = self._s.archiver.status()
        except Exception:  # noqa: BLE001 - the store's state is already in jackpot_store_up
            return
        yield GaugeMetricFamily(
            "jackpot_archive_last_success_timestamp_seconds",
            "When an archive run last archived every journal (0: never)",
            value=(status.last_success or 0) / 1000,
        )
        yield GaugeMetricFamily(
            "jackpot_archive_chain_problems",
            "Chain breaks the last archive run found (it archives and trims nothing past them)",
            value=status.last_problems,
        )
        yield GaugeMetricFamily(
            "jackpot_archive_round_repeats",
            "Rounds the archive found settled twice under one id (kept in round_repeats; "
            "jackpot verify names them): never expected",
            value=status.repeats,
        )
        behind = GaugeMetricFamily(
            "jackpot_archive_lag_entries",
            "Journal entries in Redis not yet archived",
            labels=["journal"],
        )
        held = GaugeMetricFamily(
            "jackpot_redis_journal_entries",
            "Journal entries Redis holds (the retention window plus the unarchived)",
            labels=["journal"],
        )
        for journal, js in sorted(status.journals.items()):
            behind.add_metric([journal], js.unarchived)
            held.add_metric([journal], js.in_redis)
        yield behind
        yield held

    def _checkpoint(self) -> Iterator[Metric]:
        """The latest signed checkpoint of the journals' heads (D255: a worker without its
        key signs none, and this stops moving while the floor plays)."""
        latest = self._s.checkpoints.latest_short()  # read at most every 5 s
        yield GaugeMetricFamily(
            "jackpot_checkpoint_last_timestamp_seconds",
            "When the latest signed checkpoint of the journals' heads was made (0: none yet)",
            value=int(latest["ts"]) / 1000 if latest else 0,
        )
        yield GaugeMetricFamily(
            "jackpot_checkpoint_last_number",
            "The latest signed checkpoint's number (0: none yet)",
            value=int(latest["id"]) if latest else 0,
        )


class AccountingCollector(Collector):
    """What only operators and auditors see (`/metrics/accounting`, with their key): the
    hidden reserve, and what can be worked back to it (contributions, liability)."""

    def __init__(self, services: Services) -> None:
        self._s = services

    def collect(self) -> Iterator[Metric]:
        try:
            pools = self._s.pools.all()
            unsettled = self._s.payouts.unsettled()
        except Exception:  # noqa: BLE001 - a scrape must still answer when Redis does not
            return
        reserve = GaugeMetricFamily(
            "jackpot_pool_reserve_cents",
            "The reserve that funds the next reset, cents rounded down",
            labels=["pool"],
        )
        liability = GaugeMetricFamily(
            "jackpot_pool_liability_cents",
            "What the pool owes: its meter, its reserve and its jackpots won and not yet paid "
            "(pending, awaiting approval, disputed), cents rounded down",
            labels=["pool"],
        )
        contributions = CounterMetricFamily(
            "jackpot_pool_contributions_cents",
            "Contributions to the meter and the reserve, cents rounded down",
            labels=["pool"],
        )
        unpaid: dict[str, int] = {}
        for payout in unsettled:
            unpaid[payout.pool] = unpaid.get(payout.pool, 0) + int(payout.amount)
        for p in pools:
            reserve.add_metric([p.pool], p.reserve)
            owed = p.value_units + p.reserve_units + unpaid.get(p.pool, 0) * UNITS_PER_CENT
            liability.add_metric([p.pool], owed // UNITS_PER_CENT)
            contributions.add_metric([p.pool], p.contributions_units // UNITS_PER_CENT)
        yield reserve
        yield liability
        yield contributions


def accounting_exposition(services: Services) -> bytes:
    return generate_latest(_registry(AccountingCollector(services)))


def exposition(services: Services, every_pool: bool = False) -> bytes:
    """The whole /metrics text: every worker's instruments plus the meters from Redis, of
    the public pools only unless `every_pool` (a house key's scrape: jackpot.metrics.audience)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        instruments = CollectorRegistry()
        MultiProcessCollector(instruments)  # type: ignore[no-untyped-call]
    else:
        instruments = REGISTRY
    meters: Collector = MeterCollector(services)
    if every_pool:
        body = generate_latest(instruments)
    else:
        shown = _public_pools(services)
        body = generate_latest(_registry(PoolsShown(instruments.collect, shown)))
        meters = PoolsShown(meters.collect, shown)
    return body + generate_latest(_registry(meters))


def _public_pools(services: Services) -> frozenset[str]:
    try:
        return shown_openly(services.pools.all())
    except Exception:  # noqa: BLE001 - the store's state is in jackpot_store_up; show no pool
        return frozenset()


def _registry(collector: Collector) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    return registry


def _pool_figures(pools: list[PoolState]) -> Iterator[Metric]:
    for family, name, text, figure in _POOL_FIGURES:
        metric = family(name, text, labels=["pool"])
        for p in pools:
            value = figure(p)
            if value is not None:
                metric.add_metric([p.pool], value)
        yield metric


def _waiting_payouts(pools: list[PoolState], unsettled: list[Payout]) -> Iterator[Metric]:
    """The jackpots pending verification, by pool (every pool, 0 for none), and when the
    oldest one still waiting for its hand pay hit."""
    count = GaugeMetricFamily(
        "jackpot_payouts_pending", "Jackpots awaiting verification", labels=["pool"]
    )
    cents = GaugeMetricFamily(
        "jackpot_payouts_pending_cents", "Amount awaiting verification", labels=["pool"]
    )
    by_pool: dict[str, list[int]] = {p.pool: [0, 0] for p in pools}
    for payout in (p for p in unsettled if p.status == "pending"):
        slot = by_pool.setdefault(payout.pool, [0, 0])
        slot[0] += 1
        slot[1] += int(payout.amount)
    for pool, (n, amount) in sorted(by_pool.items()):
        count.add_metric([pool], n)
        cents.add_metric([pool], amount)
    yield count
    yield cents
    yield _oldest_waiting(unsettled)


def _oldest_waiting(unsettled: list[Payout]) -> Metric:
    oldest = GaugeMetricFamily(
        "jackpot_payouts_oldest_pending_timestamp_seconds",
        "When the oldest jackpot still waiting for its hand pay (pending, or awaiting "
        "its second person's approval) hit",
        labels=["pool"],
    )
    first: dict[str, int] = {}
    for payout in unsettled:
        if payout.status not in ("pending", "awaiting_approval"):
            continue  # a disputed hit waits on surveillance, not on the floor
        created = int(payout.created)
        first[payout.pool] = min(created, first.get(payout.pool, created))
    for pool, created in sorted(first.items()):
        oldest.add_metric([pool], created / 1000)
    return oldest
