"""The OpenAPI 3.1 document of the whole v1 API, served at /openapi.json.

tests/api/test_openapi.py holds it to the app: every route is documented and every
documented operation exists, with the roles the app enforces. The request bodies' schemas
are the domain's declarations (jackpot.domain.fields), the ones the validators check with;
tests/unit/test_request_schemas.py holds the two together.
"""

from __future__ import annotations

from typing import Any

from jackpot import __version__
from jackpot.api.body import MAX_BODY_BYTES
from jackpot.domain.checkpoints import COVERED_SCHEMA as COVERED
from jackpot.domain.checkpoints import SCHEMA as CHECKPOINT
from jackpot.domain.config import POOL_REQUEST, STAGE_REQUEST, TABLE_REQUEST
from jackpot.domain.fields import Identifier
from jackpot.domain.outcomes import Outcome
from jackpot.domain.requests import (
    ADJUSTMENT_REQUEST,
    APPROVE_REQUEST,
    CANCEL_STAGED_REQUEST,
    CONFIRM_REQUEST,
    DISPUTE_REQUEST,
    GAME_CHANGE_REQUEST,
    MOVE_REQUEST,
    PAYOUT_STATUSES,
    RECONCILE_REQUEST,
    RESUME_REQUEST,
    RETIRE_REQUEST,
    ROUND_REPORT,
    ROUND_VOID_APPROVE_REQUEST,
    ROUND_VOID_REFUSE_REQUEST,
    ROUND_VOID_REQUEST,
    SUSPEND_REQUEST,
    VOID_APPROVE_REQUEST,
    VOID_REFUSE_REQUEST,
    VOID_REQUEST,
)
from jackpot.domain.signs import SIGN_REQUEST
from jackpot.domain.tablecounts import ACKNOWLEDGE_REQUEST, COUNTS_REQUEST
from jackpot.services.dayclose import SECTIONS

ID = Identifier().schema()
CENTS = {"type": "integer", "description": "whole cents"}
ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "field": {"type": "string", "description": "path of the field at fault"},
            },
        }
    },
}

SCHEMAS: dict[str, Any] = {
    "Error": ERROR,
    "Checkpoint": CHECKPOINT,
    "PoolConfig": POOL_REQUEST.schema(),
    "Pool": {
        "type": "object",
        "required": ["pool", "value", "reset", "cap"],
        "properties": {
            "pool": ID,
            "name": {
                "oneOf": [{"type": "string"}, {"type": "null"}],
                "description": "what signs and pages call the pool; null: none, its id is shown",
            },
            "value": CENTS,
            "reset": CENTS,
            "cap": {"oneOf": [CENTS, {"type": "null"}]},
            "rate_bp": {"type": "integer"},
            "level": {"enum": ["hand", "must_hit_by", "mystery"]},
            "qualifying_wager": {
                **CENTS,
                "description": "a must_hit_by or mystery level: the smallest wager that can "
                "win it, whole cents (0: every wager)",
            },
            "reserve_rate_bp": {"type": "integer"},
            "policy": {"enum": ["sequential", "split"]},
            "state": {
                "enum": ["running", "suspended", "retired"],
                "description": "suspended: every linked table's side bet is closed",
            },
            "hits": {"type": "integer"},
            "last_hits": {"type": "array", "items": {"type": "object"}},
        },
    },
    "TableConfig": TABLE_REQUEST.schema(),
    "RoundReport": ROUND_REPORT.schema(),
    "RoundResult": {
        "type": "object",
        "required": ["table", "round", "replayed", "spots", "jackpots", "pools"],
        "properties": {
            "table": ID,
            "round": ID,
            "replayed": {"type": "boolean"},
            "spots": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["spot", "outcome", "wager", "pay", "jackpot", "envy"],
                    "properties": {
                        "spot": {"type": "integer"},
                        "player": ID,
                        "outcome": {"enum": [o.value for o in Outcome]},
                        "wager": CENTS,
                        "pay": CENTS,
                        "jackpot": CENTS,
                        "envy": CENTS,
                    },
                },
            },
            "jackpots": {"type": "array", "items": {"$ref": "#/components/schemas/Payout"}},
            "pools": {
                "type": "object",
                "additionalProperties": {"type": "object", "properties": {"value": CENTS}},
            },
            "settled_at": {
                "type": "integer",
                "description": "when the controller settled the round, ms since the epoch",
            },
            "gaming_day": {
                "type": "string",
                "format": "date",
                "description": "the controller's gaming day the round counts in (a table's "
                "own counts of its day are compared by it)",
            },
            "void": {
                "type": "object",
                "description": "GET only: what is void of the round, once anything is",
            },
        },
    },
    "Person": {
        "type": "object",
        "description": "a person of the register: every rule of people compares `id`",
        "required": ["id", "name", "active"],
        "properties": {
            "id": {"type": "string", "description": "the employee or badge number"},
            "name": {"type": "string", "description": "shown beside the number, never compared"},
            "position": {"type": "string"},
            "active": {"type": "boolean"},
            "shown": {"type": "string", "description": "name and number: `Dana Reyes (E1042)`"},
            "created": {"type": "integer"},
            "changed": {"type": "integer"},
            "keys": {"type": "array", "items": {"type": "string"}},
        },
    },
    "Payout": {
        "type": "object",
        "required": ["id", "pool", "amount", "status"],
        "properties": {
            "checkpoint": {
                **COVERED,
                "description": "GET /v1/payouts/{payout}: the signed checkpoint covering its "
                "newest step (null: not yet covered)",
            },
            "id": {"type": "string"},
            "pool": ID,
            "table": ID,
            "round": ID,
            "spot": {"type": "integer"},
            "player": {"oneOf": [ID, {"type": "null"}]},
            "amount": CENTS,
            "status": {"enum": list(PAYOUT_STATUSES)},
            "changed": {"type": "boolean"},
            "void_request": {
                "type": "object",
                "description": "a void asked from the approval threshold up, awaiting "
                "another person's approval: who asked (`requested_by`, `person`), why "
                "(`reason`), when (`at`, ms) and the status it was asked from (`from`)",
                "properties": {
                    "requested_by": {"type": "string"},
                    "person": {"type": "string"},
                    "reason": {"type": "string"},
                    "at": {"type": "integer"},
                    "from": {"enum": list(PAYOUT_STATUSES)},
                },
            },
        },
    },
    "PayoutHistory": {
        "type": "object",
        "required": ["payouts", "totals", "next"],
        "properties": {
            "payouts": {"type": "array", "items": {"$ref": "#/components/schemas/Payout"}},
            "totals": {
                "type": "object",
                "description": "every payout matched, by status: how many, and their cents",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"payouts": {"type": "integer"}, "amount": CENTS},
                },
            },
            "next": {
                "type": ["string", "null"],
                "description": "the page's end when more match: give it back as `before`",
            },
        },
    },
    "PayoutRecord": {
        "type": "object",
        "required": ["payout", "journal", "steps"],
        "properties": {
            "payout": {"$ref": "#/components/schemas/Payout"},
            "journal": {"type": "string"},
            "checkpoint": COVERED,
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["step", "at", "who", "seq"],
                    "properties": {
                        "step": {
                            "enum": [
                                "won",
                                "held",
                                "confirmed",
                                "paid",
                                "approved",
                                "disputed",
                                "voided",
                            ]  # fmt: skip
                        },
                        "at": {"type": "integer", "description": "ms since the epoch"},
                        "who": {"type": "string"},
                        "person": {"type": ["string", "null"]},
                        "paid_by": {"type": "string"},
                        "witness": {"type": "string"},
                        "slip": {"type": "string"},
                        "approver": {"type": "string"},
                        "seq": {"type": "integer"},
                        "hash": {"type": ["string", "null"]},
                    },
                },
            },
        },
    },
    "ReconcileRequest": RECONCILE_REQUEST.schema(),
    "Adjustment": ADJUSTMENT_REQUEST.schema(),
    "Suspend": SUSPEND_REQUEST.schema(),
    "Resume": RESUME_REQUEST.schema(),
    "Retire": RETIRE_REQUEST.schema(),
    "TableMove": MOVE_REQUEST.schema(),
    "StageChange": STAGE_REQUEST.schema(),
    "Sign": SIGN_REQUEST.schema(),
    "CancelStaged": CANCEL_STAGED_REQUEST.schema(),
    "PayoutConfirm": CONFIRM_REQUEST.schema(),
    "PayoutDispute": DISPUTE_REQUEST.schema(),
    "PayoutApprove": APPROVE_REQUEST.schema(),
    "PayoutVoid": VOID_REQUEST.schema(),
    "PayoutVoidApprove": VOID_APPROVE_REQUEST.schema(),
    "PayoutVoidRefuse": VOID_REFUSE_REQUEST.schema(),
    "RoundVoid": ROUND_VOID_REQUEST.schema(),
    "TableCounts": COUNTS_REQUEST.schema(),
    "TableCountsAcknowledge": ACKNOWLEDGE_REQUEST.schema(),
    "RoundVoidApprove": ROUND_VOID_APPROVE_REQUEST.schema(),
    "RoundVoidRefuse": ROUND_VOID_REFUSE_REQUEST.schema(),
    "GameChange": GAME_CHANGE_REQUEST.schema(),
    "Game": {
        "type": "object",
        "required": ["pool", "tables", "pools", "decks", "paytable"],
        "properties": {
            "pool": ID,
            "tables": {"type": "array", "items": ID},
            "pools": {"type": "array", "items": ID},
            "decks": {"type": "integer"},
            "paytable": {"type": "object"},
            "status": {"enum": ["changed", "unchanged"]},
            "reason": {"type": "string"},
            "version": {"type": "string"},
        },
    },
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _held(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """An operation that answers 202, the payout in its status, while a second person's
    approval is awaited (and 200 otherwise)."""
    op = _op(*args, **kwargs)
    op["responses"]["202"] = {
        "description": "asked: awaiting another person's approval; nothing else changed",
        "content": {"application/json": {"schema": _ref("Payout")}},
    }
    return op


def _op(
    summary: str,
    roles: list[str],
    ok: dict[str, Any] | None = None,
    body: str | None = None,
    params: list[dict[str, Any]] | None = None,
    ok_status: str = "200",
    content: str = "application/json",
    body_required: bool = True,
) -> dict[str, Any]:
    responses: dict[str, Any] = {
        ok_status: {
            "description": "success",
            "content": {content: {"schema": ok or {"type": "object"}}},
        },
        "4XX": {
            "description": "bad request, credentials, unknown or conflicting",
            "content": {"application/json": {"schema": _ref("Error")}},
        },
    }
    if body:
        responses["413"] = {
            "description": f"the body is longer than {MAX_BODY_BYTES} bytes; nothing was applied",
            "content": {"application/json": {"schema": _ref("Error")}},
        }
    if body or roles:
        responses["503"] = {
            "description": "the store is unavailable; nothing was applied",
            "content": {"application/json": {"schema": _ref("Error")}},
        }
    op: dict[str, Any] = {"summary": summary, "x-roles": roles, "responses": responses}
    if roles:
        op["security"] = [{"bearer": []}]
    else:
        op["security"] = []
    if body:
        op["requestBody"] = {
            "required": body_required,
            "content": {"application/json": {"schema": _ref(body)}},
        }
    if params:
        op["parameters"] = params
    return op


def _path(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": ID}


def _query(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema}


def document() -> dict[str, Any]:
    pool, table = [_path("pool")], [_path("table")]
    payout = [{"name": "payout", "in": "path", "required": True, "schema": {"type": "string"}}]
    journal_params = [
        _query("pool", ID),
        _query("after", {"type": "integer", "minimum": 0}),
        _query("limit", {"type": "integer", "minimum": 1, "maximum": 5000, "default": 100}),
    ]
    day_param = {
        "name": "day",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
    }
    # an RFC 3339 time, or a gaming day (its start in `from`, its end in `to`)
    when = {"type": "string", "pattern": r"^([0-9]{4}-[0-9]{2}-[0-9]{2})(T.*)?$"}
    span_params = [_query("from", when), _query("to", when), _query("table", ID)]
    paths: dict[str, Any] = {
        "/healthz": {"get": _op("200 while the process is up", [])},
        "/readyz": {"get": _op("200 only while the store answers", [])},
        "/metrics": {
            "get": _op(
                "Prometheus text exposition of the public pools; of every pool with an "
                "operator's or auditor's key (another key: 401 or 403)",
                [],
                {"type": "string"},
                content="text/plain",
            )
        },
        "/metrics/accounting": {
            "get": _op(
                "Prometheus text exposition of the hidden reserve, contributions and liability",
                ["operator", "auditor"],
                {"type": "string"},
                content="text/plain",
            )
        },
        "/openapi.json": {"get": _op("this document", [])},
        "/": {"get": _op("the meter display page", [], {"type": "string"}, content="text/html")},
        "/console": {
            "get": _op("the operator console page", [], {"type": "string"}, content="text/html")
        },
        "/reports/day": {
            "get": _op(
                "a closed gaming day's report to read and print (asks for an auditor key)",
                [],
                {"type": "string"},
                params=[_query("day", {"type": "string", "format": "date"})],
                content="text/html",
            )
        },
        "/v1/session": {
            "get": _op("the key's role and person, the casino's time zone", ["operator", "auditor"])
        },
        "/v1/meters": {
            "get": _op("every pool's meters, retired pools included", ["operator", "auditor"])
        },
        "/v1/signs": {"get": _op("every sign's definition", ["operator", "auditor"])},
        "/v1/signs/{sign}": {
            "get": _op("a sign's definition (what its screen shows)", [], params=[_path("sign")]),
            "put": _op(
                "create or change a sign: its pools in order, names, title, orientation, "
                "currency and locale",
                ["operator"],
                body="Sign",
                params=[_path("sign")],
            ),
            "delete": _op("delete a sign", ["operator"], params=[_path("sign")]),
        },
        "/v1/activity": {
            "get": _op(
                "the recent operators' steps, newest first",
                ["operator", "auditor"],
                params=[_query("limit", {"type": "integer", "minimum": 1, "maximum": 500})],
            )
        },
        "/v1/pools": {"get": _op("every pool's public meter", [])},
        "/v1/checkpoints/latest": {
            "get": _op(
                "the newest signed checkpoint of the journals' heads (404 before the first)",
                [],
                _ref("Checkpoint"),
            )
        },
        "/v1/checkpoints": {
            "get": _op(
                "signed checkpoints numbered above `after`, oldest first: an auditor's pull",
                [],
                {
                    "type": "object",
                    "required": ["checkpoints"],
                    "properties": {"checkpoints": {"type": "array", "items": _ref("Checkpoint")}},
                },
                params=[
                    _query("after", {"type": "integer", "minimum": 0, "default": 0}),
                    _query(
                        "limit", {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}
                    ),
                ],
            )
        },
        "/v1/pools/{pool}": {
            "get": _op("a pool's public meter and its last 25 hits", [], _ref("Pool"), params=pool),
            "put": _op(
                "create or update a pool; updating never moves money",
                ["operator"],
                _ref("Pool"),
                "PoolConfig",
                pool,
            ),
        },
        "/v1/pools/{pool}/meters": {
            "get": _op(
                "the regulator's meters, exact units included", ["operator", "auditor"], params=pool
            ),
        },
        "/v1/pools/{pool}/adjustments": {
            "post": _op(
                "an audited manual movement of money, once per id",
                ["operator"],
                body="Adjustment",
                params=pool,
            ),
        },
        "/v1/pools/{pool}/suspend": {
            "post": _op(
                "close the side bet on every linked table (body: {reason}); journaled",
                ["operator"],
                body="Suspend",
                params=pool,
            ),
        },
        "/v1/pools/{pool}/resume": {
            "post": _op(
                "open the side bet again (body optional: {reason}); journaled",
                ["operator"],
                body="Resume",
                params=pool,
                body_required=False,
            ),
        },
        "/v1/pools/{pool}/staged": {
            "post": _op(
                "stage a parameter change: at the next suspension, or at effective_at",
                ["operator"],
                body="StageChange",
                params=pool,
            ),
        },
        "/v1/pools/{pool}/staged/cancel": {
            "post": _op(
                "drop the staged parameter change (body: {reason})",
                ["operator"],
                body="CancelStaged",
                params=pool,
            ),
        },
        "/v1/pools/{pool}/retire": {
            "post": _op(
                "retire the pool and move its meter and reserve to another pool, once per id",
                ["operator"],
                body="Retire",
                params=pool,
            ),
        },
        "/v1/pools/{pool}/game": {
            "get": _op(
                "the game the pool's linked group plays: its tables, deck count and paytable",
                ["operator", "auditor"],
                _ref("Game"),
                params=pool,
            ),
            "put": _op(
                "change the deck count and/or paytable of every table of the pool's linked "
                "group in one atomic step, journaled once with who and why",
                ["operator"],
                _ref("Game"),
                body="GameChange",
                params=pool,
            ),
        },
        "/v1/tables": {"get": _op("every table", ["operator", "auditor"])},
        "/v1/tables/{table}": {
            "get": _op("config plus online and last_seen", ["operator", "auditor"], params=table),
            "put": _op("create or update a table", ["operator"], body="TableConfig", params=table),
        },
        "/v1/tables/{table}/move": {
            "post": _op(
                "move a disabled table to the link group of the pools named, with its recent "
                "rounds; journaled in both groups' house journals, resumable",
                ["operator"],
                body="TableMove",
                params=table,
            ),
        },
        "/v1/tables/{table}/counts": {
            "post": _op(
                "a table's own counts of what the controller acknowledged to it, per gaming "
                "day; answered with the controller's latest comparison of each day",
                ["table"],
                body="TableCounts",
                params=[_path("table")],
            ),
        },
        "/v1/tables/{table}/counts/acknowledge": {
            "post": _op(
                "a person acknowledges the difference between a table's own counts of a gaming "
                "day and the controller's; journaled once per difference; it leaves the metric, "
                "alert and console once the day is closed too",
                ["operator", "auditor"],
                body="TableCountsAcknowledge",
                params=[_path("table")],
            ),
        },
        "/v1/tables/{table}/heartbeat": {
            "post": _op(
                "liveness of the table; answers its pools' link states and whether its side "
                "bet is open",
                ["table"],
                params=table,
            ),
        },
        "/v1/rounds": {
            "post": _op("report a finished round", ["table"], _ref("RoundResult"), "RoundReport"),
        },
        "/v1/rounds/{table}/{round}": {
            "get": _op(
                "the stored result of a round",
                ["table", "operator", "auditor"],
                _ref("RoundResult"),
                params=[_path("table"), _path("round")],
            ),
        },
        "/v1/rounds/{table}/{round}/void": {
            "post": _op(
                "void a settled round, whole or some spots' bets: its handle, pays, meter "
                "contributions and jackpots taken back as new journal entries; 202 while a "
                "second person's approval is awaited (always, when a table asks for it: its "
                "own rounds only) (docs/RULES.md §6)",
                ["operator", "table"],
                body="RoundVoid",
                params=[_path("table"), _path("round")],
            ),
        },
        "/v1/rounds/{table}/{round}/void/approve": {
            "post": _op(
                "another person approves the void awaiting approval (body: {reason}, optional)",
                ["operator"],
                body="RoundVoidApprove",
                params=[_path("table"), _path("round")],
                body_required=False,
            ),
        },
        "/v1/rounds/{table}/{round}/void/refuse": {
            "post": _op(
                "a person refuses the void awaiting approval, or the one who asked withdraws "
                "it (body: {reason}): dropped, nothing moves",
                ["operator"],
                body="RoundVoidRefuse",
                params=[_path("table"), _path("round")],
            ),
        },
        "/v1/voids/awaiting": {
            "get": _op(
                "every void awaiting a second person's approval, of every link group, oldest "
                "first: round voids in `voids`, jackpot (payout) voids in `payouts`; `count`: "
                "both",
                ["operator", "auditor"],
            ),
        },
        "/v1/voids/applied": {
            "get": _op(
                "every round's void applied in [from, to) (RFC 3339 times or gaming days), of "
                "every link group, oldest first, as the day's voids section shows each (who "
                "asked, who approved, why, what it took back): a shift's",
                ["operator", "auditor"],
                params=span_params[:2],
            ),
        },
        "/v1/journal": {
            "get": _op(
                "journal entries after a seq, oldest first (a pool's, or the house's), from "
                "the archive and the live tail as one sequence; `from`/`to` bound the entries' "
                "times, `table` keeps one table's",
                ["auditor"],
                params=journal_params + span_params,
            ),
        },
        "/v1/journal.csv": {
            "get": _op(
                "the journal as CSV",
                ["auditor"],
                {"type": "string"},
                params=journal_params[:2] + span_params,
                content="text/csv",
            ),
        },
        "/v1/payouts": {
            "get": _op(
                "jackpot payouts, newest first",
                ["operator", "auditor"],
                params=[
                    _query("status", {"enum": list(PAYOUT_STATUSES)}),
                    _query("limit", {"type": "integer", "minimum": 1}),
                ],
            ),
        },
        "/v1/payouts/history": {
            "get": _op(
                "search every payout ever made, newest first, with totals by status",
                ["operator", "auditor"],
                _ref("PayoutHistory"),
                params=[
                    _query(
                        "payout",
                        {
                            "type": "string",
                            "description": "an id (P000123, east:P000123) or number (123), from 1",
                        },
                    ),
                    _query("table", ID),
                    _query("pool", ID),
                    _query("person", {"type": "string"}),
                    _query("status", {"type": "string", "description": "statuses, by commas"}),
                    _query("from", {"type": "string", "format": "date"}),
                    _query("to", {"type": "string", "format": "date"}),
                    _query("changed_from", {"type": "string", "format": "date-time"}),
                    _query("changed_to", {"type": "string", "format": "date-time"}),
                    _query("limit", {"type": "integer", "minimum": 1, "maximum": 1000}),
                    _query("before", {"type": "string"}),
                ],
            ),
        },
        "/v1/people": {
            "get": _op(
                "the register of people, to pick a payer and a witness (changed only with "
                "`jackpot people` on the controller's machine)",
                ["operator", "auditor"],
                {
                    "type": "object",
                    "properties": {"people": {"type": "array", "items": _ref("Person")}},
                },
                params=[
                    _query("q", {"type": "string", "description": "ids and names holding it"}),
                    _query("active", {"enum": ["true", "false"], "default": "true"}),
                    _query("limit", {"type": "integer", "minimum": 1, "maximum": 1000}),
                ],
            ),
        },
        "/v1/people/{person}": {
            "get": _op(
                "one person of the register",
                ["operator", "auditor"],
                _ref("Person"),
                params=[
                    {"name": "person", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
            ),
        },
        "/v1/payouts/{payout}": {
            "get": _op("one payout", ["operator", "auditor"], _ref("Payout"), params=payout),
        },
        "/v1/payouts/{payout}/record": {
            "get": _op(
                "a payout's full record: every step, who, when, payer, witness, slip",
                ["operator", "auditor"],
                _ref("PayoutRecord"),
                params=payout,
            ),
        },
        "/v1/payouts/{payout}/confirm": {
            "post": _op(
                "record a jackpot's hand pay (paid, or awaiting approval from the threshold)",
                ["operator"],
                _ref("Payout"),
                "PayoutConfirm",
                payout,
                body_required=False,
            ),
        },
        "/v1/payouts/{payout}/dispute": {
            "post": _op(
                "dispute a jackpot (body: {reason})",
                ["operator"],
                _ref("Payout"),
                "PayoutDispute",
                payout,
            ),
        },
        "/v1/payouts/{payout}/approve": {
            "post": _op(
                "a second operator approves a confirmed hand pay",
                ["operator"],
                _ref("Payout"),
                "PayoutApprove",
                payout,
                body_required=False,
            ),
        },
        "/v1/payouts/{payout}/void": {
            "post": _held(
                "void a confirmed, awaiting or disputed jackpot (body: {reason}); from the "
                "approval threshold up, 202: asked, until another person approves it",
                ["operator"],
                _ref("Payout"),
                "PayoutVoid",
                payout,
            ),
        },
        "/v1/payouts/{payout}/void/approve": {
            "post": _op(
                "another person applies the void asked of a jackpot (body: {reason}, optional)",
                ["operator"],
                _ref("Payout"),
                "PayoutVoidApprove",
                payout,
                body_required=False,
            ),
        },
        "/v1/payouts/{payout}/void/refuse": {
            "post": _op(
                "another person refuses the void asked of a jackpot, or the one who asked "
                "withdraws it (body: {reason}): the request is dropped, nothing else changes; "
                "none waiting is 409 no_void_awaiting",
                ["operator"],
                _ref("Payout"),
                "PayoutVoidRefuse",
                payout,
            ),
        },
        "/v1/reports/reconcile": {
            "post": _op(
                "queue a pool's reconciliation over [from, to) ms for the worker",
                ["auditor"],
                body="ReconcileRequest",
                ok_status="202",
            ),
        },
        "/v1/accounting/days": {
            "get": _op("the closed gaming days, oldest first", ["auditor"]),
        },
        "/v1/accounting/days/{day}/timeline": {
            "get": _op(
                "what a closed day's report draws: each pool's meter over the day (whole cents "
                "at slice ends and around every hit, reset, adjustment and void) and the day's "
                "corrections with who and why",
                ["auditor"],
                params=[day_param],
            ),
        },
        "/v1/accounting/days/{day}": {
            "get": _op(
                "a closed gaming day's report: per pool (balances, movements, liability, "
                "balanced), per table (handle, pays, win, hold, outcomes) and the hit register, "
                "and `checkpoint`, the one signed at its close (null: not yet covered); "
                "409 day_not_over or day_not_closed, 404 unknown_day before the history",
                ["auditor"],
                params=[day_param],
            ),
        },
        "/v1/accounting/days/{day}/{section}.csv": {
            "get": _op(
                "one section of a closed gaming day's report as CSV, as an accounting system "
                "imports it (pools, tables, hits or table_counts; columns in "
                "docs/OPERATIONS.md)",
                ["auditor"],
                {"type": "string"},
                params=[
                    day_param,
                    {
                        "name": "section",
                        "in": "path",
                        "required": True,
                        "schema": {"enum": list(SECTIONS)},
                    },
                ],
                content="text/csv",
            ),
        },
        "/v1/accounting/{section}.csv": {
            "get": _op(
                "one section over the closed gaming days from..to (inclusive, at most 366) as "
                "one CSV file: the header once, each day's rows and totals; 409 for a day of "
                "the range not closed",
                ["auditor"],
                {"type": "string"},
                params=[
                    {
                        "name": "section",
                        "in": "path",
                        "required": True,
                        "schema": {"enum": list(SECTIONS)},
                    },
                    *(
                        {
                            "name": name,
                            "in": "query",
                            "required": True,
                            "schema": {"type": "string", "format": "date"},
                        }
                        for name in ("from", "to")
                    ),
                ],
                content="text/csv",
            ),
        },
        "/v1/reports/{report_id}": {
            "get": _op(
                "a queued report: status, and the result when finished",
                ["auditor"],
                params=[
                    {
                        "name": "report_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
            ),
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Casino War progressive jackpot controller",
            "version": __version__,
            "description": (
                "Money is whole cents as JSON integers; rates are basis points. An integer is "
                "written without a fraction or an exponent: 5.0 and 5e0 are refused. A body is "
                "a JSON object without repeated keys, and fields the schema does not name are "
                "refused."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
