"""The building blocks of the document's operations: an operation with its roles, body and
answers (`op`), a reference to a component schema, and the parameters paths share."""

from __future__ import annotations

from typing import Any

from jackpot.api.body import MAX_BODY_BYTES
from jackpot.domain.fields import Identifier

ID = Identifier().schema()
CENTS = {"type": "integer", "description": "whole cents"}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def held(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """An operation that answers 202, the payout in its status, while a second person's
    approval is awaited (and 200 otherwise)."""
    return op(*args, **{**kwargs, "also": AWAITING})


def op(
    summary: str,
    roles: list[str],
    ok: dict[str, Any] | None = None,
    body: str | None = None,
    params: list[dict[str, Any]] | None = None,
    ok_status: str = "200",
    content: str = "application/json",
    body_required: bool = True,
    also: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An operation: its summary and roles, its answer (`ok`, under `ok_status`, and under
    each status of `also` with what that status says), its body and parameters."""
    answer = {content: {"schema": ok or {"type": "object"}}}
    responses: dict[str, Any] = {
        ok_status: {"description": "success", "content": answer},
        **{
            status: {"description": said, "content": answer}
            for status, said in (also or {}).items()
        },
        "4XX": {
            "description": "bad request, credentials, unknown or conflicting",
            "content": {"application/json": {"schema": ref("Error")}},
        },
    }
    if body:
        responses["413"] = {
            "description": f"the body is longer than {MAX_BODY_BYTES} bytes; nothing was applied",
            "content": {"application/json": {"schema": ref("Error")}},
        }
    if body or roles:
        responses["503"] = {
            "description": "the store is unavailable; nothing was applied",
            "content": {"application/json": {"schema": ref("Error")}},
        }
    operation: dict[str, Any] = {"summary": summary, "x-roles": roles, "responses": responses}
    if roles:
        operation["security"] = [{"bearer": []}]
    else:
        operation["security"] = []
    if body:
        operation["requestBody"] = {
            "required": body_required,
            "content": {"application/json": {"schema": ref(body)}},
        }
    if params:
        operation["parameters"] = params
    return operation


def path_param(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": ID}


def query_param(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema}


POOL = [path_param("pool")]
TABLE = [path_param("table")]
PAYOUT = [{"name": "payout", "in": "path", "required": True, "schema": {"type": "string"}}]
JOURNAL_PARAMS = [
    query_param("pool", ID),
    query_param("after", {"type": "integer", "minimum": 0}),
    query_param("limit", {"type": "integer", "minimum": 1, "maximum": 5000, "default": 100}),
]
DAY = {
    "name": "day",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
}
# an RFC 3339 time, or a gaming day (its start in `from`, its end in `to`)
WHEN = {"type": "string", "pattern": r"^([0-9]{4}-[0-9]{2}-[0-9]{2})(T.*)?$"}
SPAN_PARAMS = [query_param("from", WHEN), query_param("to", WHEN), query_param("table", ID)]

# the further answers of an operation that may create, or wait for a second person
CREATED = {"201": "created (200: updated)"}
AWAITING = {"202": "asked: awaiting another person's approval; nothing else changed"}
