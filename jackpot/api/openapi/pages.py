"""The pages, the probes, the metrics and this document."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import op, query_param, ref

PATHS: dict[str, Any] = {
    "/healthz": {"get": op("200 while the process is up", [], ref("Liveness"))},
    "/readyz": {
        "get": op(
            "200 only while the store answers and the controller's self-check passed; else "
            "503 with the same answer, saying why",
            [],
            ref("Readiness"),
        )
    },
    "/metrics": {
        "get": op(
            "Prometheus text exposition of the public pools; of every pool with an "
            "operator's or auditor's key (another key: 401 or 403)",
            [],
            {"type": "string"},
            content="text/plain",
        )
    },
    "/metrics/accounting": {
        "get": op(
            "Prometheus text exposition of the hidden reserve, contributions and liability",
            ["operator", "auditor"],
            {"type": "string"},
            content="text/plain",
        )
    },
    "/openapi.json": {"get": op("this document", [])},
    "/": {"get": op("the meter display page", [], {"type": "string"}, content="text/html")},
    "/console": {
        "get": op("the operator console page", [], {"type": "string"}, content="text/html")
    },
    "/reports/day": {
        "get": op(
            "a closed gaming day's report to read and print (asks for an auditor key)",
            [],
            {"type": "string"},
            params=[query_param("day", {"type": "string", "format": "date"})],
            content="text/html",
        )
    },
}
