"""The signs' definitions."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import CREATED, op, path_param, ref

PATHS: dict[str, Any] = {
    "/v1/signs": {"get": op("every sign's definition", ["operator", "auditor"], ok=ref("Signs"))},
    "/v1/signs/{sign}": {
        "get": op(
            "a sign's definition (what its screen shows)",
            [],
            ok=ref("SignDefinition"),
            params=[path_param("sign")],
        ),
        "put": op(
            "create or change a sign: its pools in order, names, title, orientation, "
            "currency and locale",
            ["operator"],
            ok=ref("SignDefinition"),
            body="Sign",
            params=[path_param("sign")],
            also=CREATED,
        ),
        "delete": op(
            "delete a sign", ["operator"], ok=ref("SignDeleted"), params=[path_param("sign")]
        ),
    },
}
