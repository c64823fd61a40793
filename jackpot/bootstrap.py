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
from jackpot.archive.store import Archive, ArchiveUnavailableError
from jackpot.archive.verify import Verifier
from jackpot.domain.gamingday import GamingDays
from jackpot.errors import StoreUnavailableError
from jackpot.services.accounting import Accounting
from jackpot.services.activity import Activity
from jackpot.services.clock import now_ms
from jackpot.services.credentials import Credentials
from jackpot.services.payouts import Payouts
from jackpot.services.pools import Pools
from jackpot.services.reports import Reports
from jackpot.services.rounds import Rounds, Window
from jackpot.services.selfcheck import SelfCheck
from jackpot.services.signs import Signs
from jackpot.services.tables import Tables
from jackpot.settings import Settings
from jackpot.store.activity import ActivityStore
from jackpot.store.adjustments import AdjustmentStore
from jackpot.store.apikeys import KeyStore
from jackpot.store.config import ConfigStore
from jackpot.store.connect import connect
from jackpot.store.health import HealthStore
from jackpot.store.journal import JournalStore
from jackpot.store.keys import Keys
from jackpot.store.payouts import PayoutStore
from jackpot.store.queue import ReportQueue
from jackpot.store.rounds import RoundStore
from jackpot.store.scripts import ReplicaWait, Scripts
from jackpot.store.signs import SignStore


def redis_client(url: str, settings: Settings, decode: bool = True) -> redis.Redis:
    """A client whose retried commands are safe: every money write is an idempotent script.
    On a Redis Cluster: of the master holding the namespace's hash tag."""
    return connect(
        url,
        decode=decode,
        timeout=settings.redis_timeout_seconds,
        tag=Keys(settings.namespace).tag,
        health_check_interval=30,
    )


@dataclass(frozen=True, slots=True)
class Services:
    """The use cases by area, over one store."""

    credentials: Credentials
    pools: Pools
    tables: Tables
    rounds: Rounds
    payouts: Payouts
    reports: Reports
    client: redis.Redis
    rq_client: redis.Redis  # RQ keeps pickles: a client that does not decode replies
    archive: Archive
    archiver: Archiver
    verifier: Verifier
    accounting: Accounting
    activity: Activity
    signs: Signs
    health: SelfCheck
    probe_key: str  # a key of the controller's: on a cluster, in the slot of its meters

    def ready(self) -> bool:
        """True while the store answers for the controller's keys (a cluster node answers
        PING while it refuses every key with CLUSTERDOWN: a key is read instead)."""
        try:
            self.client.exists(self.probe_key)
        except Exception:  # noqa: BLE001 - any failure to answer means not ready
            return False
        return True

    def close(self) -> None:
        self.client.close()
        self.rq_client.close()
        self.archive.close()


def bootstrap(settings: Settings, url: str, clock: Callable[[], int] = now_ms) -> Services:
    """Build every store and use case over the Redis server at `url`."""
    client = redis_client(url, settings)
    rq_client = redis_client(settings.queue_store(url), settings, decode=False)
    keys = Keys(settings.namespace)
    wait = ReplicaWait(settings.wait_replicas, settings.wait_ms) if settings.wait_replicas else None
    scripts = Scripts.register(client, wait)
    config = ConfigStore(client, keys, scripts)
    payout_store = PayoutStore(client, keys, scripts)
    credentials = Credentials(KeyStore(client, keys, scripts), settings.key_cache_seconds)
    tables = Tables(config, clock, settings.offline_after_seconds)
    archive = Archive(settings.archive)

    def archived_round(table: str, round_id: str) -> tuple[str, str, str] | None:
        try:
            found = archive.round(table, round_id)
        except ArchiveUnavailableError as exc:
            raise StoreUnavailableError(f"the archive did not answer: {exc}") from exc
        return None if found is None else (found.digest, found.static, found.dynamic)

    window = Window(settings.retention_seconds * 1000, settings.clock_skew_seconds * 1000)
    journal = JournalStore(client, keys, archive)
    days = GamingDays.of(settings.gaming_day_start, settings.time_zone)
    archiver = Archiver(
        client, keys, archive, settings.retention_seconds, settings.clock_skew_seconds, clock
    )
    verifier = Verifier(client, keys, archive)
    health = SelfCheck(
        partial(integrity.check, approved=settings.approved_digest),
        HealthStore(client, keys, scripts),
        config,
        verifier,
        settings.wait_replicas,
        settings.self_check_seconds,
        socket.gethostname(),
        f"{socket.gethostname()}/{os.getpid()}",
    )
    return Services(
        credentials=credentials,
        pools=Pools(config, AdjustmentStore(client, keys, scripts), payout_store),
        tables=tables,
        rounds=Rounds(
            RoundStore(client, keys, scripts),
            tables,
            credentials,
            archived_round,
            window,
            clock,
            health,
        ),
        payouts=Payouts(payout_store, settings.handpay_approval_cents),
        reports=Reports(
            config,
            journal,
            ReportQueue(rq_client, settings.queue),
            clock,
            days,
        ),
        client=client,
        rq_client=rq_client,
        archive=archive,
        verifier=verifier,
        archiver=archiver,
        accounting=Accounting(
            archive,
            archiver,
            journal,
            config.pool_ids,
            days,
            clock,
            settings.clock_skew_seconds * 1000,
        ),
        activity=Activity(ActivityStore(client, keys), credentials.list),
        signs=Signs(SignStore(client, keys, scripts), config),
        health=health,
        probe_key=keys.counters,
    )
