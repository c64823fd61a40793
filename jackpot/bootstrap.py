"""The composition root: the Redis clients, stores and use cases, built in one place.

Everything that runs the controller (the Flask app, the RQ jobs, the CLI) gets its
`Services` from `bootstrap()`; nothing else constructs a store or a use case.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import redis

from jackpot import integrity
from jackpot.archive.archiver import Archiver
from jackpot.archive.checkpoints import CheckpointArchive
from jackpot.archive.store import Archive
from jackpot.archive.verify import Verifier
from jackpot.domain.journals import house_journal
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.services.activity import Activity
from jackpot.services.archivedrounds import ArchivedRoundRecords
from jackpot.services.audit import Audit
from jackpot.services.checkpoints import Checkpoints
from jackpot.services.clock import now_ms
from jackpot.services.credentials import Credentials
from jackpot.services.dayclose import Accounting
from jackpot.services.fanout import (
    GroupedActivity,
    GroupedArchiver,
    GroupedConfig,
    GroupedHealth,
    GroupedPayouts,
    GroupedPools,
    GroupedTableCounts,
    GroupedVoids,
)
from jackpot.services.gamingday import ControllerGamingDay
from jackpot.services.linkgroups import Group, LinkGroups
from jackpot.services.moves import TableMoves
from jackpot.services.payouthistory import PayoutHistory
from jackpot.services.payouts import ApprovalThreshold, Payouts
from jackpot.services.people import People
from jackpot.services.placement import Placement
from jackpot.services.pools import Pools
from jackpot.services.rounds import Rounds, Window
from jackpot.services.selfcheck import SelfCheck
from jackpot.services.signboard import SignBoard
from jackpot.services.signs import Signs
from jackpot.services.tablecounts import TableCounts
from jackpot.services.tables import Tables
from jackpot.services.verification import GroupedVerifier
from jackpot.services.voids import Voids
from jackpot.settings import Settings
from jackpot.store.activity import ActivityStore
from jackpot.store.adjustments import AdjustmentStore
from jackpot.store.apikeys import KeyStore
from jackpot.store.checkpoints import HeadStore
from jackpot.store.config import ConfigStore
from jackpot.store.connect import Connections, cluster_target, redis_client
from jackpot.store.gamingday import GamingDayStore
from jackpot.store.groups import GroupRegistry
from jackpot.store.health import HealthStore
from jackpot.store.journal import JournalStore
from jackpot.store.keys import Keys
from jackpot.store.payouts import PayoutStore
from jackpot.store.people import PeopleStore
from jackpot.store.queue import ReconciliationQueue
from jackpot.store.rounds import RoundStore
from jackpot.store.scripts import ReplicaWait, Scripts
from jackpot.store.signs import SignStore
from jackpot.store.tablecounts import TableCountStore
from jackpot.store.voids import VoidStore


@dataclass(frozen=True, slots=True)
class Services:
    """The use cases by area, over one store."""

    credentials: Credentials
    people: People  # the register of who may act on money (D232)
    pools: GroupedPools  # every group's pools, as one
    placement: Placement  # a new pool's or table's group; creating and changing them
    payouts: GroupedPayouts
    approval: ApprovalThreshold  # from how much a second person approves: one for every group
    voids: GroupedVoids
    table_counts: GroupedTableCounts
    audit: Audit
    connections: Connections  # the store's clients this process opened, never lent out
    archive: Archive
    archiver: GroupedArchiver
    verifier: GroupedVerifier
    accounting: Accounting
    activity: Activity
    history: PayoutHistory  # every payout ever made, for the console's searches
    signs: Signs
    board: SignBoard  # what the signs show (the sign process's one reader of the store)
    health: GroupedHealth
    groups: LinkGroups  # the router: a pool's, a table's or a payout's group and use cases
    config: GroupedConfig  # what readers read of every group's pools and tables
    moves: TableMoves
    probe_key: str  # a key of the controller's: on a cluster, in the slot of its meters
    days: ControllerGamingDay  # the controller's gaming day, as every process closes days
    checkpoints: Checkpoints  # signed checkpoints of the journals' heads (D253)

    def forget(self) -> None:
        """Forget what this process read of the store, as a process just started has: the
        link groups it built (their cached tables and self-checks) and where it found each
        pool and table, the API keys it trusts, and the controller's gaming day. For a store
        replaced under a running process (restored from a backup, or emptied by a test)."""
        self.groups.forget()
        self.credentials.forget_all()
        self.days.forget()

    def ready(self) -> bool:
        """True while the store answers for the controller's keys (a cluster node answers
        PING while it refuses every key with CLUSTERDOWN: a key is read instead)."""
        try:
            self.connections.read(self.probe_key)
        except Exception:  # noqa: BLE001 - any failure to answer means not ready
            return False
        return True

    def close(self) -> None:
        for group in self.groups.opened():
            if not self.connections.opened(group.client):
                group.client.close()
        self.connections.close()
        self.archive.close()


@dataclass(frozen=True, slots=True)
class _Shared:
    """What every link group's use cases share: the main store and its scripts, the archive,
    the settings, the clock, the gaming day, the software's seal, who acts on the store."""

    settings: Settings
    url: str
    clock: Callable[[], int]
    client: redis.Redis
    scripts: Scripts
    wait: ReplicaWait | None
    keys: Keys
    archive: Archive
    who: str  # this process: host/pid
    days: ControllerGamingDay
    software: integrity.Rechecked
    credentials: Credentials
    approval: ApprovalThreshold  # from how much a second person approves: every group's one
    archived: ArchivedRoundRecords


def bootstrap(settings: Settings, url: str, clock: Callable[[], int] = now_ms) -> Services:
    """Build every store and use case over the Redis server at `url`."""
    groups: LinkGroups  # built below: the lambdas read it once it is
    client = redis_client(url, settings)
    keys = Keys(settings.namespace)
    wait = ReplicaWait(settings.wait_replicas, settings.wait_ms) if settings.wait_replicas else None
    scripts = Scripts.register(client, wait)
    archive = Archive(settings.archive)
    who = f"{socket.gethostname()}/{os.getpid()}"
    key_store = KeyStore(
        client, keys, scripts, lambda: [(g.client, g.keys) for g in groups.others()]
    )
    shared = _Shared(
        settings=settings,
        url=url,
        clock=clock,
        client=client,
        scripts=scripts,
        wait=wait,
        keys=keys,
        archive=archive,
        who=who,
        days=ControllerGamingDay(GamingDayStore(client, keys, scripts), settings, who),
        software=integrity.Rechecked(settings.approved_digest, settings.self_check_seconds),
        credentials=Credentials(key_store, settings.key_cache_seconds),
        approval=ApprovalThreshold(settings.handpay_approval_cents),
        archived=ArchivedRoundRecords(archive, lambda: groups.names()),
    )
    groups = LinkGroups(
        GroupRegistry(client, keys),
        partial(_group, shared),
        lambda g: key_store.copy_all(g.client, g.keys),
    )
    return _services(shared, groups)


def _group(shared: _Shared, name: str) -> Group:
    """A link group's stores and use cases; on a cluster over a client of its slot."""
    c, s = _group_store(shared, name)
    k = shared.keys.of_group(name)
    config = ConfigStore(c, k, s)
    payout_store = PayoutStore(c, k, s)
    tables = _tables(shared.settings, config, shared.clock)
    verifier = Verifier(c, k, shared.archive)
    health_store = HealthStore(c, k, s)
    health = _self_check(shared, health_store, config, verifier)
    journal = JournalStore(c, k, shared.archive)
    rounds = _rounds(shared, name, RoundStore(c, k, s), tables, health)
    settings = shared.settings
    return Group(
        name=name,
        keys=k,
        client=c,
        config=config,
        pools=Pools(config, AdjustmentStore(c, k, s), payout_store, shared.clock, tables),
        tables=tables,
        rounds=rounds,
        payouts=Payouts(payout_store, shared.approval),
        payout_store=payout_store,
        voids=Voids(VoidStore(c, k, s), rounds, shared.approval),
        table_counts=_table_counts(shared, TableCountStore(c, k, s), journal, config),
        journal=journal,
        health=health,
        health_store=health_store,
        archiver=Archiver(
            c,
            k,
            shared.archive,
            settings.retention_seconds,
            settings.clock_skew_seconds,
            shared.clock,
        ),
        verifier=verifier,
        activity=ActivityStore(c, k),
    )


def _group_store(shared: _Shared, name: str) -> tuple[redis.Redis, Scripts]:
    """The client and scripts of a link group: the main ones, but on a Redis Cluster a
    client of the master holding the group's hash tag."""
    if name == MAIN_GROUP or cluster_target(shared.url) is None:
        return shared.client, shared.scripts
    client = redis_client(shared.url, shared.settings, group=name)
    return client, Scripts.register(client, shared.wait)


def _tables(settings: Settings, config: ConfigStore, clock: Callable[[], int]) -> Tables:
    return Tables(
        config,
        clock,
        settings.offline_after_seconds,
        settings.min_return_bp,
        settings.below_qualifying_share_bp,
    )


def _self_check(
    shared: _Shared, store: HealthStore, config: ConfigStore, verifier: Verifier
) -> SelfCheck:
    return SelfCheck(
        shared.software,
        store,
        config,
        verifier,
        shared.settings.wait_replicas,
        shared.settings.self_check_seconds,
        socket.gethostname(),
        shared.who,
    )


def _rounds(
    shared: _Shared, group: str, store: RoundStore, tables: Tables, health: SelfCheck
) -> Rounds:
    settings = shared.settings
    return Rounds(
        store,
        tables,
        shared.credentials,
        shared.archived.of_group(group),
        Window(settings.retention_seconds * 1000, settings.clock_skew_seconds * 1000),
        shared.clock,
        health,
        lambda ms: shared.days().name_of(ms),
        settings.handpay_cents,
    )


def _table_counts(
    shared: _Shared, store: TableCountStore, journal: JournalStore, config: ConfigStore
) -> TableCounts:
    days = shared.days
    return TableCounts(
        store,
        journal,
        config.pool_ids,
        days,
        shared.clock,
        lambda: set(days.store.closed_digests()),
        _keep_ms(shared.settings),
    )


def _keep_ms(settings: Settings) -> int:
    """How long Redis keeps what the archive has not yet taken (retention and clock skew)."""
    return (settings.retention_seconds + settings.clock_skew_seconds) * 1000


def _services(shared: _Shared, groups: LinkGroups) -> Services:
    """The use cases over every link group, as one."""
    settings, clock = shared.settings, shared.clock
    config = GroupedConfig(groups)
    placement = Placement(groups, clock)
    payouts = GroupedPayouts(groups)
    archiver = GroupedArchiver(groups)
    table_counts = GroupedTableCounts(groups)
    checkpoints = _checkpoints(shared, groups)
    accounting = _accounting(shared, groups, config, archiver, table_counts, checkpoints)
    people = People(PeopleStore(shared.client, shared.keys, shared.scripts), shared.credentials)
    rq_client = redis_client(settings.queue_store(shared.url), settings, decode=False)
    sign_store = SignStore(shared.client, shared.keys, shared.scripts)
    health = GroupedHealth(groups)
    return Services(
        credentials=shared.credentials,
        people=people,
        pools=GroupedPools(groups),
        placement=placement,
        payouts=payouts,
        approval=shared.approval,
        voids=GroupedVoids(groups),
        table_counts=table_counts,
        audit=Audit(groups, ReconciliationQueue(rq_client, settings.queue), clock, shared.days),
        connections=Connections(shared.client, rq_client),
        archive=shared.archive,
        verifier=_verifier(shared, groups, accounting, checkpoints),
        archiver=archiver,
        accounting=accounting,
        activity=Activity(GroupedActivity(groups), people.keys_held),
        history=PayoutHistory(
            shared.archive, payouts, groups.journal_of, people.keys_held, checkpoints.of_payout
        ),
        signs=Signs(sign_store, groups.pool),
        board=_board(shared, groups, config, sign_store, health, payouts, checkpoints),
        health=health,
        groups=groups,
        config=config,
        moves=TableMoves(groups, placement, _keep_ms(settings), clock),
        probe_key=shared.keys.counters,
        days=shared.days,
        checkpoints=checkpoints,
    )


def _checkpoints(shared: _Shared, groups: LinkGroups) -> Checkpoints:
    return Checkpoints(
        CheckpointArchive(shared.archive),
        lambda: [HeadStore(g.client, g.keys) for g in groups.all()],
        shared.settings.checkpoint_key_file,
        shared.clock,
        lambda: shared.software().digest,
    )


def _accounting(
    shared: _Shared,
    groups: LinkGroups,
    config: GroupedConfig,
    archiver: GroupedArchiver,
    table_counts: GroupedTableCounts,
    checkpoints: Checkpoints,
) -> Accounting:
    return Accounting(
        shared.archive,
        archiver,
        groups.journal_of,
        config.pool_ids,
        shared.days,
        shared.clock,
        shared.settings.clock_skew_seconds * 1000,
        lambda: [house_journal(name) for name in groups.names()],
        table_counts.of_day,
        shared.days.store,
        checkpoints.sign_close,
    )


def _verifier(
    shared: _Shared, groups: LinkGroups, accounting: Accounting, checkpoints: Checkpoints
) -> GroupedVerifier:
    return GroupedVerifier(
        groups,
        shared.days,
        # verify has checked the round records when it recomputes a day
        partial(accounting.recompute, records_checked=True),
        lambda since: checkpoints.check_stored(since).findings,
    )


def _board(
    shared: _Shared,
    groups: LinkGroups,
    config: GroupedConfig,
    signs: SignStore,
    health: GroupedHealth,
    payouts: GroupedPayouts,
    checkpoints: Checkpoints,
) -> SignBoard:
    """What the signs show, from every group's pools, hits and payouts."""
    return SignBoard(
        signs,
        config,
        lambda pool: groups.of_pool(pool).config.last_hits(pool),
        payouts,
        shared.clock,
        shared.settings.offline_after_seconds * 1000,
        health.inoperable_pools,
        lambda: shared.software().authentic,  # tampered software: every sign shows closed
        checkpoints.latest_short,
    )
