"""The Grafana dashboards, as code: `python dashboards/generate.py` writes
dashboards/grafana/dashboards/*.json, the files Grafana provisions (dashboards/grafana/
provisioning/). Edit the panels here, not the JSON: a test fails when the JSON is not what
this script writes, and another runs every panel's query on a real Prometheus.

Four dashboards use only three panel kinds (stat, time series, table) over one Prometheus
data source, so a hundred lines of plain data stand in for a dashboard SDK: nothing to install
or keep in step with Grafana's releases beyond the JSON model's `schemaVersion`.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "grafana" / "dashboards"
DATASOURCE = {"type": "prometheus", "uid": "jackpot-prometheus"}  # provisioned with this uid
CENTS = "/ 100"  # the controller counts cents; the dashboards show currency


@dataclass(frozen=True)
class Panel:
    title: str
    kind: str  # stat, timeseries, table
    queries: tuple[tuple[str, str], ...]  # (expr, legend)
    unit: str = "short"
    width: int = 4
    height: int = 4
    description: str = ""
    instant: bool = False


def stat(title: str, expr: str, legend: str = "", unit: str = "short", **kw: Any) -> Panel:
    return Panel(title, "stat", ((expr, legend),), unit, **kw)


def series(title: str, *queries: tuple[str, str], unit: str = "short", **kw: Any) -> Panel:
    return Panel(title, "timeseries", queries, unit, width=12, height=8, **kw)


def table(title: str, *queries: tuple[str, str], **kw: Any) -> Panel:
    return Panel(title, "table", queries, width=12, height=8, instant=True, **kw)


@dataclass(frozen=True)
class Dashboard:
    uid: str
    title: str
    description: str
    panels: list[Panel]
    variables: list[tuple[str, str]] = field(default_factory=list)  # (name, label_values query)

    def model(self) -> dict[str, Any]:
        panels, x, y, row_height = [], 0, 0, 0
        for n, p in enumerate(self.panels, start=1):
            if x + p.width > 24:
                x, y, row_height = 0, y + row_height, 0
            panels.append(_panel(n, p, x, y))
            x, row_height = x + p.width, max(row_height, p.height)
        return {
            "uid": self.uid,
            "title": self.title,
            "description": self.description,
            "tags": ["jackpot"],
            "editable": True,
            "schemaVersion": 39,
            "version": 1,
            "refresh": "30s",
            "time": {"from": "now-6h", "to": "now"},
            "timezone": "browser",
            "templating": {"list": [_variable(name, query) for name, query in self.variables]},
            "annotations": {"list": []},
            "panels": panels,
        }


def _panel(n: int, p: Panel, x: int, y: int) -> dict[str, Any]:
    targets = [
        {
            "refId": chr(ord("A") + i),
            "datasource": DATASOURCE,
            "expr": expr,
            "legendFormat": legend,
            "instant": p.instant,
            "range": not p.instant,
            **({"format": "table"} if p.kind == "table" else {}),
        }
        for i, (expr, legend) in enumerate(p.queries)
    ]
    options: dict[str, Any] = {}
    if p.kind == "stat":
        options = {
            "reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
            "colorMode": "value",
            "graphMode": "area",
            "textMode": "auto",
        }
    elif p.kind == "timeseries":
        options = {"legend": {"displayMode": "list", "placement": "bottom", "showLegend": True}}
    panel: dict[str, Any] = {
        "id": n,
        "type": p.kind,
        "title": p.title,
        "description": p.description,
        "datasource": DATASOURCE,
        "gridPos": {"x": x, "y": y, "w": p.width, "h": p.height},
        "targets": targets,
        "fieldConfig": {"defaults": {"unit": p.unit}, "overrides": []},
        "options": options,
    }
    if p.kind == "table":
        panel["transformations"] = [{"id": "merge", "options": {}}]
    return panel


def _variable(name: str, query: str) -> dict[str, Any]:
    return {
        "name": name,
        "label": name.capitalize(),
        "type": "query",
        "datasource": DATASOURCE,
        "definition": query,
        "query": {"query": query, "refId": f"{name}-values"},
        "refresh": 2,
        "includeAll": True,
        "multi": True,
        "allValue": ".*",
        "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
        "sort": 1,
    }


ROUNDS = 'endpoint="/v1/rounds"'


def quantile(q: str) -> str:
    return (
        f"histogram_quantile({q}, sum by (le) "
        f"(rate(jackpot_http_request_duration_seconds_bucket{{{ROUNDS}}}[$__rate_interval])))"
    )


FLOOR = Dashboard(
    "jackpot-floor",
    "Progressive floor",
    "Each pool's meter and hits, the jackpots waiting for their hand pay, the tables' links, "
    "the round path's rate, latency and refusals.",
    [
        stat(
            "Meter",
            f'jackpot_pool_value_cents{{pool=~"$pool"}} {CENTS}',
            "{{pool}}",
            "currencyUSD",
            width=8,
        ),
        stat(
            "Jackpots hit",
            'sum by (pool) (increase(jackpot_pool_hits_total{pool=~"$pool"}[$__range]))',
            "{{pool}}",
            description="in the dashboard's time range",
        ),
        stat(
            "Jackpots won",
            'sum by (pool) (increase(jackpot_pool_won_cents_total{pool=~"$pool"}'
            f"[$__range])) {CENTS}",
            "{{pool}}",
            "currencyUSD",
        ),
        stat(
            "Pending jackpots",
            'sum(jackpot_payouts_pending{pool=~"$pool"})',
            description="won, waiting for their hand pay",
        ),
        stat(
            "Oldest pending jackpot",
            "max(time() - jackpot_payouts_oldest_pending_timestamp_"
            'seconds{pool=~"$pool"}) or vector(0)',
            unit="s",
            description="how long the longest-waiting winner has waited (0: nobody waits)",
        ),
        stat("Tables online", "sum(jackpot_table_online)"),
        stat("Tables offline", "count(jackpot_table_online == 0) or vector(0)"),
        stat(
            "Rounds per second", "sum(rate(jackpot_rounds_total[$__rate_interval]))", unit="reqps"
        ),
        stat("Round p99", quantile("0.99"), unit="s"),
        series(
            "Rounds per second",
            ("sum(rate(jackpot_rounds_total[$__rate_interval]))", "rounds/s"),
            unit="reqps",
        ),
        series("Round latency", (quantile("0.5"), "p50"), (quantile("0.99"), "p99"), unit="s"),
        series(
            "Refusals and errors by code",
            ("sum by (code) (rate(jackpot_refusals_total[$__rate_interval]))", "{{code}}"),
            unit="reqps",
        ),
        series(
            "Meters",
            (f'jackpot_pool_value_cents{{pool=~"$pool"}} {CENTS}', "{{pool}}"),
            unit="currencyUSD",
        ),
    ],
    [("pool", "label_values(jackpot_pool_value_cents, pool)")],
)

TABLES = Dashboard(
    "jackpot-tables",
    "Table links",
    "Each table's link to the controller: heard from, enabled, the pools it feeds, its rounds.",
    [
        table(
            "Tables",
            ('jackpot_table_online{table=~"$table"}', "online"),
            ('jackpot_table_enabled{table=~"$table"}', "enabled"),
            (
                'time() - jackpot_table_last_seen_timestamp_seconds{table=~"$table"}',
                "heard (s ago)",
            ),
            ('jackpot_table_pool_info{table=~"$table"}', "pool"),
        ),
        series(
            "Rounds per second by table",
            (
                'sum by (table) (rate(jackpot_table_rounds_total{table=~"$table"}'
                "[$__rate_interval]))",
                "{{table}}",
            ),
            unit="reqps",
        ),
        series(
            "Seconds since heard from",
            ('time() - jackpot_table_last_seen_timestamp_seconds{table=~"$table"}', "{{table}}"),
            unit="s",
            description="a table is offline past JACKPOT_OFFLINE_AFTER_SECONDS",
        ),
        series("Online", ('jackpot_table_online{table=~"$table"}', "{{table}}")),
    ],
    [("table", "label_values(jackpot_table_online, table)")],
)

ACCOUNTING = Dashboard(
    "jackpot-accounting",
    "Progressive accounting",
    "Handle, contributions, pays by kind, seed funding and what each pool owes. Reserve, "
    "contributions and liability come from /metrics/accounting (scraped with an auditor's "
    "key); the gaming-day reports remain the books (GET /v1/accounting/days/{day}).",
    [
        stat(
            "Handle",
            'sum by (pool) (increase(jackpot_pool_wagered_cents_total{pool=~"$pool"}'
            f"[$__range])) {CENTS}",
            "{{pool}}",
            "currencyUSD",
            width=6,
        ),
        stat(
            "Contributions",
            "sum by (pool) (increase(jackpot_pool_contributions_cents_total"
            f'{{pool=~"$pool"}}[$__range])) {CENTS}',
            "{{pool}}",
            "currencyUSD",
            width=6,
        ),
        stat(
            "Seed funding",
            "sum by (pool) (increase(jackpot_pool_seed_funding_cents_total"
            f'{{pool=~"$pool"}}[$__range])) {CENTS}',
            "{{pool}}",
            "currencyUSD",
            width=6,
            description="what the house added when a reserve could not fund a reset",
        ),
        stat(
            "Liability",
            f'jackpot_pool_liability_cents{{pool=~"$pool"}} {CENTS}',
            "{{pool}}",
            "currencyUSD",
            width=6,
            description="meter + reserve + jackpots won and not yet paid",
        ),
        series(
            "Pays by kind",
            (
                f"sum by (kind) (increase(jackpot_paid_cents_total[$__rate_interval])) {CENTS}",
                "{{kind}}",
            ),
            unit="currencyUSD",
        ),
        series(
            "Meter and reserve",
            (f'jackpot_pool_value_cents{{pool=~"$pool"}} {CENTS}', "{{pool}} meter"),
            (f'jackpot_pool_reserve_cents{{pool=~"$pool"}} {CENTS}', "{{pool}} reserve"),
            unit="currencyUSD",
        ),
        series(
            "Jackpots not yet paid",
            (f'jackpot_payouts_pending_cents{{pool=~"$pool"}} {CENTS}', "{{pool}}"),
            unit="currencyUSD",
        ),
        series(
            "Handle per hour",
            (
                f'sum by (pool) (increase(jackpot_pool_wagered_cents_total{{pool=~"$pool"}}[1h]))'
                f" {CENTS}",
                "{{pool}}",
            ),
            unit="currencyUSD",
        ),
    ],
    [("pool", "label_values(jackpot_pool_value_cents, pool)")],
)

SERVICE = Dashboard(
    "jackpot-service",
    "Controller health",
    "The store, the background workers and their queue, the archive, the HTTP service.",
    [
        stat("Store up", "min(jackpot_store_up)"),
        stat("Uptime", "time() - min(jackpot_start_time_seconds)", unit="s"),
        stat("Workers", "sum(jackpot_workers)"),
        stat("Queued jobs", "sum(jackpot_queue_jobs)"),
        stat("Failed jobs", "sum(jackpot_queue_failed_jobs)"),
        stat("Firing alerts", 'count(ALERTS{alertstate="firing"}) or vector(0)'),
        series("Store PING", ("jackpot_store_ping_seconds", "{{instance}}"), unit="s"),
        table(
            "Store durability and version",
            ("jackpot_store_durability_info", "store"),
            ("jackpot_build_info", "build"),
        ),
        series(
            "Worker heartbeat age",
            ("time() - jackpot_worker_last_heartbeat_timestamp_seconds", "{{queue}}"),
            unit="s",
        ),
        series(
            "Queue",
            ("jackpot_queue_jobs", "{{queue}} queued"),
            ("jackpot_queue_failed_jobs", "{{queue}} failed"),
        ),
        series(
            "Archive lag",
            ("sum by (journal) (jackpot_archive_lag_entries)", "{{journal}} unarchived"),
            ("sum(jackpot_redis_journal_entries)", "entries in Redis"),
        ),
        series(
            "Since the last full archive run",
            ("time() - jackpot_archive_last_success_timestamp_seconds", "age"),
            ("jackpot_archive_chain_problems", "chain problems"),
            ("jackpot_archive_round_repeats", "rounds settled twice"),
            unit="s",
        ),
        series(
            "Requests by status",
            ("sum by (status) (rate(jackpot_http_requests_total[$__rate_interval]))", "{{status}}"),
            unit="reqps",
        ),
        series(
            "Latency by endpoint, p99",
            (
                "histogram_quantile(0.99, sum by (endpoint, le) (rate("
                "jackpot_http_request_duration_seconds_bucket[$__rate_interval])))",
                "{{endpoint}}",
            ),
            unit="s",
        ),
    ],
)

DASHBOARDS = [FLOOR, TABLES, ACCOUNTING, SERVICE]


def rendered() -> dict[str, str]:
    """File name -> JSON text, as this script writes them."""
    return {f"{d.uid}.json": json.dumps(d.model(), indent=2) + "\n" for d in DASHBOARDS}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in rendered().items():
        (OUT / name).write_text(text)
        print(f"wrote {OUT / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
