"""The tables: configuration, moves between link groups, heartbeats, their own counts."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import CREATED, TABLE, op, path_param, ref

PATHS: dict[str, Any] = {
    "/v1/tables": {"get": op("every table", ["operator", "auditor"], ok=ref("Tables"))},
    "/v1/tables/{table}": {
        "get": op(
            "config plus online and last_seen",
            ["operator", "auditor"],
            ok=ref("Table"),
            params=TABLE,
        ),
        "put": op(
            "create or update a table",
            ["operator"],
            ok=ref("Table"),
            body="TableConfig",
            params=TABLE,
            also=CREATED,
        ),
    },
    "/v1/tables/{table}/move": {
        "post": op(
            "move a disabled table to the link group of the pools named, with its recent "
            "rounds; journaled in both groups' house journals, resumable",
            ["operator"],
            ok=ref("TableMoved"),
            body="TableMove",
            params=TABLE,
        ),
    },
    "/v1/tables/{table}/counts": {
        "post": op(
            "a table's own counts of what the controller acknowledged to it, per gaming "
            "day; answered with the controller's latest comparison of each day",
            ["table"],
            ok=ref("TableCountsChecked"),
            body="TableCounts",
            params=[path_param("table")],
        ),
    },
    "/v1/tables/{table}/counts/acknowledge": {
        "post": op(
            "a person acknowledges the difference between a table's own counts of a gaming "
            "day and the controller's; journaled once per difference; it leaves the metric, "
            "alert and console once the day is closed too",
            ["operator", "auditor"],
            ok=ref("TableCountsAcknowledged"),
            body="TableCountsAcknowledge",
            params=[path_param("table")],
        ),
    },
    "/v1/tables/{table}/heartbeat": {
        "post": op(
            "liveness of the table; answers its pools' link states and whether its side "
            "bet is open",
            ["table"],
            ok=ref("Heartbeat"),
            params=TABLE,
        ),
    },
}
