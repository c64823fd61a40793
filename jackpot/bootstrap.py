"""The composition root: the Redis clients, stores and use cases, built in one place.

Everything that runs the controller (the Flask app, the RQ jobs, the CLI) gets its
`Services` from `bootstrap()`; nothing else constructs a store or a use case.
"""

from __future__ import annotations

import logging
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
from jackpot.domain.records import record_problem
from jackpot.errors import ArchiveUnavailableError, RoundRecordError, StoreUnavailableError
from jackpot.services.activity import Activity
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
from jackpot.store.connect import cluster_target, connect
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


def redis_client(
    url: str, settings: Settings, decode: bool = True, group: str = MAIN_GROUP
) -> redis.Redis:
    """A client whose retried commands are safe: every money write is an idempotent script.
    On a Redis Cluster: of the master holding the link group's hash tag."""
    return connect(
        url,
        decode=decode,
        timeout=settings.redis_timeout_seconds,
        tag=Keys(settings.namespace, group).tag,
        health_check_interval=30,
    )


log = logging.getLogger(__name__)


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


class Connections:
    """The main link group's client (its keys, the registry, the API keys, the signs) and the
    queue's (RQ keeps pickles: it does not decode replies): pinged, probed and closed here,
    never handed to a caller, who reaches the store through the use cases."""

    __slots__ = ("_main", "_queue")

    def __init__(self, main: redis.Redis, queue: redis.Redis) -> None:
        self._main = main
        self._queue = queue

    def ping(self) -> None:
        """PING the main store; raises when it does not answer."""
        self._main.ping()

    def read(self, key: str) -> None:
        """Read whether `key` exists (a cluster answers PING while it refuses every key)."""
        self._main.exists(key)

    def opened(self, client: redis.Redis) -> bool:
        """Whether `client` is one of these (a group on the main store shares its client)."""
        return client is self._main or client is self._queue

    def close(self) -> None:
        self._main.close()
        self._queue.close()


def bootstrap(settings: Settings, url: str, clock: Callable[[], int] = now_ms) -> Services:
    """Build every store and use case over the Redis server at `url`."""
    client = redis_client(url, settings)
    rq_client = redis_client(settings.queue_store(url), settings, decode=False)
    keys = Keys(settings.namespace)
    wait = ReplicaWait(settings.wait_replicas, settings.wait_ms) if settings.wait_replicas else None
    scripts = Scripts.register(client, wait)
    archive = Archive(settings.archive)
    who = f"{socket.gethostname()}/{os.getpid()}"
    days = ControllerGamingDay(GamingDayStore(client, keys, scripts), settings, who)
    software = integrity.Rechecked(settings.approved_digest, settings.self_check_seconds)
    on_cluster = cluster_target(url) is not None
    groups: LinkGroups
    key_store = KeyStore(
        client, keys, scripts, lambda: [(g.client, g.keys) for g in groups.others()]
    )
    credentials = Credentials(key_store, settings.key_cache_seconds)
    people = People(PeopleStore(client, keys, scripts), credentials)

    def archived_round(group: str, table: str, round_id: str) -> tuple[str, str, str] | None:
        """A round's archived record, once the entry that settled it vouches for it: in
        `group`'s house journal, or another's for a table that moved (RoundRecordError
        otherwise: a forged or edited record is never served)."""
        try:
            found = archive.round(table, round_id)
            if found is None:
                return None
            for name in [group, *(n for n in groups.names() if n != group)]:
                seq = found.house_seq
                entry = archive.entries(house_journal(name), seq - 1, 1, until_seq=seq)
                if not entry:
                    continue
                e = entry[0][0]
                if (e.get("type"), e.get("table"), e.get("round")) != ("round", table, round_id):
                    continue
                problem = record_problem(
                    e.by_name(), found.static, found.dynamic, found.ts, found.digest
                )
                if problem is not None:
                    log.error("round %s/%s: %s", table, round_id, problem)
                    break  # edited
                return found.digest, found.static, found.dynamic
        except ArchiveUnavailableError as exc:
            # the cause (the database's address among it) is the log's, never the client's
            log.warning("the archive did not answer: %s", exc)
            raise StoreUnavailableError(
                "the archive did not answer; resend the same request: it is answered once "
                "the archive is back"
            ) from exc
        log.error("round %s/%s: no journal entry vouches for its archived record", table, round_id)
        raise RoundRecordError(table, round_id)

    window = Window(settings.retention_seconds * 1000, settings.clock_skew_seconds * 1000)
    approval = ApprovalThreshold(settings.handpay_approval_cents)  # every group's one

    def build(name: str) -> Group:
        """A link group's stores and use cases; on a cluster over a client of its slot."""
        if name == MAIN_GROUP or not on_cluster:
            c, s = client, scripts
        else:
            c = redis_client(url, settings, group=name)
            s = Scripts.register(c, wait)
        k = keys.of_group(name)
        config = ConfigStore(c, k, s)
        payout_store = PayoutStore(c, k, s)
        tables = Tables(
            config,
            clock,
            settings.offline_after_seconds,
            settings.min_return_bp,
            settings.below_qualifying_share_bp,
        )
        verifier = Verifier(c, k, archive)
        health_store = HealthStore(c, k, s)
        health = SelfCheck(
            software,
            health_store,
            config,
            verifier,
            settings.wait_replicas,
            settings.self_check_seconds,
            socket.gethostname(),
            who,
        )
        journal = JournalStore(c, k, archive)
        rounds = Rounds(
            RoundStore(c, k, s),
            tables,
            credentials,
            partial(archived_round, name),
            window,
            clock,
            health,
            lambda ms: days().name_of(ms),
            settings.handpay_cents,
        )
        return Group(
            name=name,
            keys=k,
            client=c,
            config=config,
            pools=Pools(config, AdjustmentStore(c, k, s), payout_store, clock, tables),
            tables=tables,
            rounds=rounds,
            payouts=Payouts(payout_store, approval),
            payout_store=payout_store,
            voids=Voids(VoidStore(c, k, s), rounds, approval),
            table_counts=TableCounts(
                TableCountStore(c, k, s),
                journal,
                config.pool_ids,
                days,
                clock,
                lambda: set(days.store.closed_digests()),
                (settings.retention_seconds + settings.clock_skew_seconds) * 1000,
            ),
            journal=journal,
            health=health,
            health_store=health_store,
            archiver=Archiver(
                c, k, archive, settings.retention_seconds, settings.clock_skew_seconds, clock
            ),
            verifier=verifier,
            activity=ActivityStore(c, k),
        )

    groups = LinkGroups(
        GroupRegistry(client, keys), build, lambda g: key_store.copy_all(g.client, g.keys)
    )
    config = GroupedConfig(groups)
    archiver = GroupedArchiver(groups)
    placement = Placement(groups, clock)
    payouts = GroupedPayouts(groups)
    table_counts = GroupedTableCounts(groups)
    keep_ms = (settings.retention_seconds + settings.clock_skew_seconds) * 1000
    sign_store = SignStore(client, keys, scripts)
    checks = GroupedHealth(groups)
    checkpoints = Checkpoints(
        CheckpointArchive(archive),
        lambda: [HeadStore(g.client, g.keys) for g in groups.all()],
        settings.checkpoint_key_file,
        clock,
        lambda: software().digest,
    )
    accounting = Accounting(
        archive,
        archiver,
        groups.journal_of,
        config.pool_ids,
        days,
        clock,
        settings.clock_skew_seconds * 1000,
        lambda: [house_journal(name) for name in groups.names()],
        table_counts.of_day,
        days.store,
        checkpoints.sign_close,
    )
    return Services(
        credentials=credentials,
        people=people,
        pools=GroupedPools(groups),
        placement=placement,
        payouts=payouts,
        approval=approval,
        voids=GroupedVoids(groups),
        table_counts=table_counts,
        audit=Audit(groups, ReconciliationQueue(rq_client, settings.queue), clock, days),
        connections=Connections(client, rq_client),
        archive=archive,
        # verify has checked the round records when it recomputes a day
        verifier=GroupedVerifier(
            groups,
            days,
            partial(accounting.recompute, records_checked=True),
            lambda since: checkpoints.check_stored(since).findings,
        ),
        archiver=archiver,
        accounting=accounting,
        activity=Activity(GroupedActivity(groups), people.keys_held),
        history=PayoutHistory(archive, payouts, groups.journal_of, people.keys_held),
        signs=Signs(sign_store, groups.pool),
        board=SignBoard(
            sign_store,
            config,
            lambda pool: groups.of_pool(pool).config.last_hits(pool),
            payouts,
            clock,
            settings.offline_after_seconds * 1000,
            checks.inoperable_pools,
            lambda: software().authentic,  # tampered software: every sign shows closed
            checkpoints.latest_short,
        ),
        health=checks,
        groups=groups,
        config=config,
        moves=TableMoves(groups, placement, keep_ms, clock),
        probe_key=keys.counters,
        days=days,
        checkpoints=checkpoints,
    )
