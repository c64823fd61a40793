"""The JACKPOT_* variables by area, each area read by its own function into the Settings
fields it sets, and the defaults that need a reason."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from jackpot.settings.reader import Reader

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("text", "json")

# JACKPOT_BELOW_QUALIFYING_SHARE_BP's default: bets below a qualifying wager bring 90% of the
# handle, as the gaming lab found at a $1-$25 table with a $25 line. Set high on purpose: the
# higher the share, the more a qualifying bettor is priced to get, so the check refuses more;
# a floor known to bring less may set its own (docs/DECISIONS.md D229)
BELOW_QUALIFYING_SHARE_BP = 9_000
# the gaming day's definition: recorded with the controller's state by its first process
GAMING_DAY_VARIABLES = ("JACKPOT_GAMING_DAY_START", "JACKPOT_TIME_ZONE")
# JACKPOT_SIGNS_MAX_PER_CLIENT's default: the screens one address may hold open. One screen
# holds one stream; a media player driving several panels, or a pit's screens behind one
# NAT, a few dozen; 64 of the default 2,000 leaves no one client able to take them all
# (docs/DECISIONS.md D243)
SIGNS_MAX_PER_CLIENT = 64
# JACKPOT_SIGNS_TRUSTED_PROXIES's default: the loopback, where the sign process binds by
# default and the shipped nginx runs beside it
LOOPBACK = ("127.0.0.0/8", "::1/128")


def _path(raw: str | None) -> Path | None:
    return Path(raw) if raw else None


class _ApiFields(TypedDict):
    bind: str
    workers: int
    max_connections: int
    client_deadline_seconds: int
    key_cache_seconds: float


def api(read: Reader) -> _ApiFields:
    """The API processes: where they listen, how many, what they hold and for how long."""
    return _ApiFields(
        bind=read.text("JACKPOT_BIND") or "127.0.0.1:8000",
        workers=read.integer("JACKPOT_WORKERS", 2, low=1),
        max_connections=read.integer("JACKPOT_MAX_CONNECTIONS", 1000, low=1),
        client_deadline_seconds=read.integer("JACKPOT_CLIENT_DEADLINE_SECONDS", 5, low=1),
        key_cache_seconds=read.seconds("JACKPOT_KEY_CACHE_SECONDS", 0.0, zero=True),
    )


class _StoreFields(TypedDict):
    redis_url: str | None
    data_dir: Path
    namespace: str
    redis_timeout_seconds: float
    redis_server: str | None
    redis_sentinels: str | None
    redis_master: str
    wait_replicas: int
    wait_ms: int
    queue: str
    queue_redis_url: str | None


def store(read: Reader) -> _StoreFields:
    """Redis: which (or the embedded one under the data dir), its keys, its replicas, and the
    background jobs' queue on it."""
    return _StoreFields(
        redis_url=read.text("JACKPOT_REDIS_URL"),
        data_dir=Path(read.text("JACKPOT_DATA_DIR") or "var"),
        namespace=read.namespace("JACKPOT_NAMESPACE", "jackpot"),
        redis_timeout_seconds=read.seconds("JACKPOT_REDIS_TIMEOUT_SECONDS", 2.0, zero=False),
        redis_server=read.text("JACKPOT_REDIS_SERVER"),
        redis_sentinels=read.sentinels("JACKPOT_REDIS_SENTINELS"),
        redis_master=read.text("JACKPOT_REDIS_MASTER") or "jackpot",
        wait_replicas=read.integer("JACKPOT_REDIS_WAIT_REPLICAS", 0, low=0),
        wait_ms=read.integer("JACKPOT_REDIS_WAIT_MS", 1000, low=1),
        queue=read.text("JACKPOT_QUEUE") or "jackpot",
        queue_redis_url=read.text("JACKPOT_QUEUE_REDIS_URL"),
    )


class _LogFields(TypedDict):
    metrics_dir: Path | None
    log_level: str
    access_log: str | None
    log_format: str


def logs(read: Reader) -> _LogFields:
    """What the processes tell: their logs, and where their metrics are gathered."""
    metrics = read.text("JACKPOT_METRICS_DIR") or read.env.get("PROMETHEUS_MULTIPROC_DIR")
    return _LogFields(
        metrics_dir=Path(metrics) if metrics else None,
        log_level=read.choice("JACKPOT_LOG_LEVEL", "info", LOG_LEVELS),
        access_log=read.text("JACKPOT_ACCESS_LOG"),
        log_format=read.choice("JACKPOT_LOG_FORMAT", "text", LOG_FORMATS),
    )


class _ArchiveFields(TypedDict):
    archive_url: str | None
    retention_seconds: int
    archive_interval_seconds: int
    checkpoint_key: Path | None
    checkpoint_interval_seconds: int


def archive(read: Reader) -> _ArchiveFields:
    """The SQL archive, how long Redis keeps what it archives, and the signed checkpoints."""
    return _ArchiveFields(
        archive_url=read.text("JACKPOT_ARCHIVE_URL"),
        retention_seconds=read.integer("JACKPOT_RETENTION_SECONDS", 7 * 24 * 3600, low=1),
        archive_interval_seconds=read.integer("JACKPOT_ARCHIVE_INTERVAL_SECONDS", 60, low=1),
        checkpoint_key=_path(read.text("JACKPOT_CHECKPOINT_KEY")),
        checkpoint_interval_seconds=read.integer("JACKPOT_CHECKPOINT_INTERVAL_SECONDS", 60, low=1),
    )


class _FloorFields(TypedDict):
    offline_after_seconds: int
    clock_skew_seconds: int
    gaming_day_start: str
    time_zone: str
    gaming_day_stated: frozenset[str]
    handpay_approval_cents: int
    min_return_bp: int
    below_qualifying_share_bp: int
    handpay_cents: int


def floor(read: Reader) -> _FloorFields:
    """The casino floor's rules: its tables' clocks, its gaming day, its hand pays and the
    return a table's bet must give."""
    return _FloorFields(
        offline_after_seconds=read.integer("JACKPOT_OFFLINE_AFTER_SECONDS", 30, low=1),
        clock_skew_seconds=read.integer("JACKPOT_CLOCK_SKEW_SECONDS", 300, low=0),
        gaming_day_start=read.time_of_day("JACKPOT_GAMING_DAY_START", "06:00"),
        time_zone=read.zone("JACKPOT_TIME_ZONE", "UTC"),
        gaming_day_stated=frozenset(n for n in GAMING_DAY_VARIABLES if read.text(n)),
        handpay_approval_cents=read.integer("JACKPOT_HANDPAY_APPROVAL_CENTS", 0, low=0),
        min_return_bp=read.integer("JACKPOT_MIN_RETURN_BP", 0, low=0, high=9_999),
        below_qualifying_share_bp=read.integer(
            "JACKPOT_BELOW_QUALIFYING_SHARE_BP", BELOW_QUALIFYING_SHARE_BP, low=0, high=9_900
        ),
        handpay_cents=read.integer("JACKPOT_HANDPAY_CENTS", 0, low=0),
    )


class _SignFields(TypedDict):
    signs_bind: str
    signs_max_connections: int
    signs_max_per_client: int
    signs_trusted_proxies: tuple[str, ...]
    signs_feed_ms: int


def signs(read: Reader) -> _SignFields:
    """The sign process (jackpot signs) and the streams it holds open."""
    return _SignFields(
        signs_bind=read.text("JACKPOT_SIGNS_BIND") or "127.0.0.1:8001",
        signs_max_connections=read.integer("JACKPOT_SIGNS_MAX_CONNECTIONS", 2000, low=1),
        signs_max_per_client=read.integer(
            "JACKPOT_SIGNS_MAX_PER_CLIENT", SIGNS_MAX_PER_CLIENT, low=1
        ),
        signs_trusted_proxies=read.networks("JACKPOT_SIGNS_TRUSTED_PROXIES", LOOPBACK),
        signs_feed_ms=read.integer("JACKPOT_SIGNS_FEED_MS", 120, low=20),
    )


class _CheckFields(TypedDict):
    self_check_seconds: float
    approved_digest: str | None


def checks(read: Reader) -> _CheckFields:
    """The processes' checks of themselves: how often, and the software they must be."""
    return _CheckFields(
        self_check_seconds=read.seconds("JACKPOT_SELF_CHECK_SECONDS", 30.0, zero=False),
        approved_digest=read.text("JACKPOT_APPROVED_DIGEST"),
    )
