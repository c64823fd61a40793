"""compose.yaml, checked as far as this machine can without a container engine: its shape (a
service for every part, pinned images, durable Redis, a healthcheck per kind of jackpot
process), every file it mounts exists, every setting it passes is one the controller reads,
and the configs it mounts pass their own tools (promtool, amtool, nginx -t: the proxy's in
tests/e2e/test_proxy.py). What each container runs is tested directly elsewhere: serve,
worker and signs, `jackpot healthcheck`, nginx, Prometheus."""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from jackpot.settings import GAMING_DAY_VARIABLES, Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
JACKPOT = {"api": "serve", "worker": "worker", "signs": "signs"}
HEALTH = {"api": "api", "worker": "worker", "signs": "signs"}


def needs(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        shutil.which(tool) is None,
        reason=f"no {tool} here (./dev test installs it)",
    )


def test_every_part_of_the_stack_is_a_service() -> None:
    assert set(SERVICES) == {
        "redis", "postgres", "api", "worker", "signs", "proxy", "prometheus", "alertmanager",
        "grafana",
    }  # fmt: skip
    for name, service in SERVICES.items():
        image = service["image"]
        assert ":" in image and not image.endswith(":latest"), f"{name}: pin its image"


def test_the_store_is_durable() -> None:
    command = SERVICES["redis"]["command"]
    pairs = dict(zip(command[1::2], command[2::2], strict=False))
    assert pairs["--appendonly"] == "yes"
    assert pairs["--appendfsync"] == "always"
    assert pairs["--maxmemory-policy"] == "noeviction"
    assert "redis-data:/data" in SERVICES["redis"]["volumes"]


def test_each_jackpot_process_runs_its_command_with_its_own_healthcheck() -> None:
    for name, command in JACKPOT.items():
        service = SERVICES[name]
        assert service["command"] == [command], name
        assert service["build"] == ".", name
        assert service["healthcheck"]["test"] == ["CMD", "jackpot", "healthcheck", HEALTH[name]]
        assert service["environment"]["JACKPOT_REDIS_URL"] == "redis://redis:6379/0"
        assert service["environment"]["JACKPOT_ARCHIVE_URL"].startswith("postgresql+psycopg://")
        assert service["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_every_setting_passed_is_one_the_controller_reads() -> None:
    known = set(Settings().to_env()) | {"JACKPOT_REDIS_URL", "JACKPOT_ARCHIVE_URL"}
    known |= set(GAMING_DAY_VARIABLES)  # passed on only when stated: the controller keeps them
    for name in JACKPOT:
        passed = {v for v in SERVICES[name]["environment"] if v.startswith("JACKPOT_")}
        assert passed <= known, f"{name}: {passed - known}"


def test_the_sign_process_trusts_the_proxy_and_no_one_else() -> None:
    """Behind the proxy every screen comes from its address: the sign process tells them apart
    by the proxy's X-Forwarded-For, believed from that address alone (D243)."""
    proxy = SERVICES["proxy"]["networks"]["default"]["ipv4_address"]
    subnet = COMPOSE["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy) in ipaddress.ip_network(subnet)
    told = Settings.from_env(SERVICES["signs"]["environment"]).signs_trusted_proxies
    assert told == (f"{proxy}/32",)


def test_every_file_it_mounts_is_in_the_repository() -> None:
    for name, service in SERVICES.items():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), f"{name}: {source}"
    assert (ROOT / "Dockerfile").exists()
    # the provisioning points where the dashboards are mounted
    grafana = [v.split(":")[1] for v in SERVICES["grafana"]["volumes"]]
    provider = yaml.safe_load(
        (ROOT / "dashboards/grafana/provisioning/dashboards/jackpot.yml").read_text()
    )["providers"][0]
    assert provider["options"]["path"] in grafana


def test_the_proxy_is_given_every_variable_of_its_template() -> None:
    template = (ROOT / "deploy/nginx/templates/jackpot.conf.template").read_text()
    wanted = set(re.findall(r"\$\{([A-Z_]+)\}", template))
    assert wanted == set(SERVICES["proxy"]["environment"])


@needs("promtool")
def test_the_prometheus_config_it_mounts_is_valid(tmp_path: Path) -> None:
    # the secret it reads exists only in a running stack: stand one in
    config = (ROOT / "dashboards/prometheus/prometheus.yml").read_text()
    key = tmp_path / "auditor.key"
    key.write_text("jk_example")
    (tmp_path / "prometheus.yml").write_text(
        config.replace("/run/secrets/prometheus_auditor_key", str(key))
    )
    shutil.copy(ROOT / "dashboards/prometheus/alerts.yml", tmp_path / "alerts.yml")
    checked = subprocess.run(
        ["promtool", "check", "config", str(tmp_path / "prometheus.yml")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    mounted = [v.split(":")[1] for v in SERVICES["prometheus"]["volumes"]]
    assert (
        "--config.file=/etc/prometheus/jackpot/prometheus.yml" in SERVICES["prometheus"]["command"]
        and "/etc/prometheus/jackpot" in mounted
    )


@needs("amtool")
def test_the_alertmanager_config_it_mounts_is_valid() -> None:
    checked = subprocess.run(
        ["amtool", "check-config", str(ROOT / "deploy/alertmanager/alertmanager.yml")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
