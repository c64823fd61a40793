"""The signs' definitions."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import op, path_param

PATHS: dict[str, Any] = {
    "/v1/signs": {"get": op("every sign's definition", ["operator", "auditor"])},
    "/v1/signs/{sign}": {
        "get": op("a sign's definition (what its screen shows)", [], params=[path_param("sign")]),
        "put": op(
            "create or change a sign: its pools in order, names, title, orientation, "
            "currency and locale",
            ["operator"],
            body="Sign",
            params=[path_param("sign")],
        ),
        "delete": op("delete a sign", ["operator"], params=[path_param("sign")]),
    },
}
