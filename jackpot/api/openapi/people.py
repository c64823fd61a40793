"""The register of people, the key's session, the operators' activity."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import op, query_param, ref

PATHS: dict[str, Any] = {
    "/v1/session": {
        "get": op(
            "the key's role and person, the casino's time zone",
            ["operator", "auditor"],
            ref("Session"),
        )
    },
    "/v1/activity": {
        "get": op(
            "the recent operators' steps, newest first",
            ["operator", "auditor"],
            ref("Activity"),
            params=[query_param("limit", {"type": "integer", "minimum": 1, "maximum": 500})],
        )
    },
    "/v1/people": {
        "get": op(
            "the register of people, to pick a payer and a witness (changed only with "
            "`jackpot people` on the controller's machine)",
            ["operator", "auditor"],
            {
                "type": "object",
                "properties": {"people": {"type": "array", "items": ref("Person")}},
            },
            params=[
                query_param("q", {"type": "string", "description": "ids and names holding it"}),
                query_param("active", {"enum": ["true", "false"], "default": "true"}),
                query_param("limit", {"type": "integer", "minimum": 1, "maximum": 1000}),
            ],
        ),
    },
    "/v1/people/{person}": {
        "get": op(
            "one person of the register",
            ["operator", "auditor"],
            ref("Person"),
            params=[
                {"name": "person", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
        ),
    },
}
