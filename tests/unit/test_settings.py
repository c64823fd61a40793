"""Settings: every JACKPOT_* variable is read in one place, documented, and checked."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from jackpot.settings import GAMING_DAY_VARIABLES, RETIRED, Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]
VARIABLE = re.compile(r"\bJACKPOT_[A-Z][A-Z0-9_]*")
# names that look like variables but are not read from the environment
NOT_VARIABLES = {"JACKPOT_SETTINGS"}  # the Flask app.config key holding the Settings
# read by the `jackpot` CLI's commands that talk to a controller (jackpot/cli/remote.py): a
# client's, not the controller's; documented in the README beside the settings
CLIENT_VARIABLES = {"JACKPOT_URL", "JACKPOT_KEY", "JACKPOT_KEY_FILE"}

EVERY_FIELD_SET = Settings(
    redis_url="unix:///srv/jackpot/redis.sock?db=3",
    data_dir=Path("/srv/jackpot"),
    bind="0.0.0.0:9000",
    namespace="casino-7",
    workers=5,
    max_connections=300,
    client_deadline_seconds=3,
    offline_after_seconds=90,
    key_cache_seconds=0.5,
    redis_timeout_seconds=0.25,
    metrics_dir=Path("/run/jackpot-metrics"),
    queue="reports",
    log_level="debug",
    access_log="/var/log/jackpot/access.log",
    log_format="json",
    redis_server="/opt/redis/bin/redis-server",
    archive_url="postgresql+psycopg://jackpot@db.internal/jackpot",
    retention_seconds=86_400,
    clock_skew_seconds=30,
    archive_interval_seconds=15,
    gaming_day_start="04:30",
    time_zone="America/New_York",
    gaming_day_stated=frozenset(GAMING_DAY_VARIABLES),
    handpay_approval_cents=1_000_000,
    min_return_bp=8_300,
    below_qualifying_share_bp=5_000,
    handpay_cents=120_000,
    signs_bind="0.0.0.0:9001",
    signs_max_connections=500,
    signs_max_per_client=200,
    signs_trusted_proxies=("10.0.0.5/32", "fd00::/64"),
    signs_feed_ms=250,
    redis_sentinels="10.0.0.1:26379,10.0.0.2:26379",
    redis_master="casino-7",
    wait_replicas=1,
    wait_ms=200,
    self_check_seconds=10.0,
    approved_digest="0" * 64,
    queue_redis_url="redis://queue.internal:6379/2",
    checkpoint_key=Path("/etc/jackpot/checkpoint_key.pem"),
    checkpoint_interval_seconds=30,
)


class Recording(dict[str, str]):
    """An environment that remembers which names were asked for."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)


def names_in_source() -> set[str]:
    found: set[str] = set()
    for package in ("jackpot", "table_adapter"):
        for path in (ROOT / package).rglob("*.py"):
            found |= set(VARIABLE.findall(path.read_text()))
    return found - NOT_VARIABLES - set(RETIRED)


def names_in_readme_table() -> set[str]:
    rows = [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("|")]
    return {name for row in rows for name in VARIABLE.findall(row.split("|")[1])}


def test_the_example_sets_every_field_away_from_its_default():
    default = Settings()
    for field in dataclasses.fields(Settings):
        assert getattr(EVERY_FIELD_SET, field.name) != getattr(default, field.name), field.name


def test_to_env_round_trips_every_setting():
    assert Settings.from_env(EVERY_FIELD_SET.to_env()) == EVERY_FIELD_SET
    assert Settings.from_env(Settings().to_env()) == Settings()
    assert Settings.from_env({}) == Settings()


def test_every_jackpot_variable_in_the_source_is_a_setting_read_by_from_env_and_documented():
    in_source = names_in_source()
    assert CLIENT_VARIABLES <= in_source and CLIENT_VARIABLES <= names_in_readme_table()
    in_source -= CLIENT_VARIABLES
    assert {"JACKPOT_REDIS_URL", "JACKPOT_LOG_LEVEL", "JACKPOT_REDIS_SERVER"} <= in_source
    env = Recording(EVERY_FIELD_SET.to_env())
    Settings.from_env(env)
    assert in_source <= env.asked, "read outside Settings.from_env"
    assert in_source <= set(EVERY_FIELD_SET.to_env()), "not carried to child processes"
    documented = names_in_readme_table()
    assert in_source <= documented, "missing from the README's variables table"
    assert documented - CLIENT_VARIABLES <= env.asked, (
        "the README documents a variable nothing reads"
    )


def test_a_retired_variable_is_refused_not_ignored():
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"JACKPOT_THREADS": "8"})
    assert "JACKPOT_THREADS is no longer read" in str(refused.value)
    assert "JACKPOT_MAX_CONNECTIONS" in str(refused.value)


def test_blank_means_the_default():
    blank = {name: " " for name in EVERY_FIELD_SET.to_env()}
    assert Settings.from_env(blank) == Settings()


def test_values_are_normalised():
    assert Settings.from_env({"JACKPOT_LOG_LEVEL": "WARNING"}).log_level == "warning"
    assert Settings.from_env({"PROMETHEUS_MULTIPROC_DIR": "/m"}).metrics_dir == Path("/m")
    proxies = {"JACKPOT_SIGNS_TRUSTED_PROXIES": " 10.0.0.5, 10.1.2.3/16 ,FD00::1"}
    assert Settings.from_env(proxies).signs_trusted_proxies == (
        "10.0.0.5/32",
        "10.1.0.0/16",
        "fd00::1/128",
    )


def test_the_sign_process_can_be_told_to_trust_no_proxy():
    told = Settings.from_env({"JACKPOT_SIGNS_TRUSTED_PROXIES": "none"})
    assert told.signs_trusted_proxies == ()
    assert Settings.from_env(told.to_env()) == told


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("JACKPOT_WORKERS", "abc", "is not a whole number"),
        ("JACKPOT_WORKERS", "0", "must be at least 1"),
        ("JACKPOT_MAX_CONNECTIONS", "2.5", "is not a whole number"),
        ("JACKPOT_CLIENT_DEADLINE_SECONDS", "0", "must be at least 1"),
        ("JACKPOT_OFFLINE_AFTER_SECONDS", "-3", "must be at least 1"),
        ("JACKPOT_KEY_CACHE_SECONDS", "soon", "is not a number of seconds"),
        ("JACKPOT_KEY_CACHE_SECONDS", "-1", "0 or more"),
        ("JACKPOT_REDIS_TIMEOUT_SECONDS", "0", "more than 0"),
        ("JACKPOT_REDIS_TIMEOUT_SECONDS", "nan", "finite"),
        ("JACKPOT_LOG_LEVEL", "loud", "must be one of debug, info, warning, error, critical"),
        ("JACKPOT_NAMESPACE", "a}b", "may not contain braces"),
        ("JACKPOT_NAMESPACE", "a:b", "colons"),
        ("JACKPOT_SIGNS_MAX_PER_CLIENT", "0", "must be at least 1"),
        ("JACKPOT_SIGNS_TRUSTED_PROXIES", "10.0.0.5,nginx", "holds 'nginx', not an address"),
        ("JACKPOT_SIGNS_TRUSTED_PROXIES", "10.0.0.0/33", "not an address or network"),
    ],
)
def test_a_malformed_value_is_refused_naming_the_variable(name: str, value: str, says: str):
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({name: value})
    assert str(refused.value).startswith(f"{name}={value!r} ")
    assert says in str(refused.value)
