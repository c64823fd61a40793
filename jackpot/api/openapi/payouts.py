"""The payouts: verification, hand pay, approval, disputes and voids; the history."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import ID, PAYOUT, held, op, query_param, ref
from jackpot.domain.requests import PAYOUT_STATUSES

PATHS: dict[str, Any] = {
    "/v1/payouts": {
        "get": op(
            "jackpot payouts, newest first",
            ["operator", "auditor"],
            ref("Payouts"),
            params=[
                query_param("status", {"enum": list(PAYOUT_STATUSES)}),
                query_param("limit", {"type": "integer", "minimum": 1}),
            ],
        ),
    },
    "/v1/payouts/history": {
        "get": op(
            "search every payout ever made, newest first, with totals by status",
            ["operator", "auditor"],
            ref("PayoutHistory"),
            params=[
                query_param(
                    "payout",
                    {
                        "type": "string",
                        "description": "an id (P000123, east:P000123) or number (123), from 1",
                    },
                ),
                query_param("table", ID),
                query_param("pool", ID),
                query_param("person", {"type": "string"}),
                query_param("status", {"type": "string", "description": "statuses, by commas"}),
                query_param("from", {"type": "string", "format": "date"}),
                query_param("to", {"type": "string", "format": "date"}),
                query_param("changed_from", {"type": "string", "format": "date-time"}),
                query_param("changed_to", {"type": "string", "format": "date-time"}),
                query_param("limit", {"type": "integer", "minimum": 1, "maximum": 1000}),
                query_param("before", {"type": "string"}),
            ],
        ),
    },
    "/v1/payouts/{payout}": {
        "get": op(
            "one payout, and the signed checkpoint covering its newest step",
            ["operator", "auditor"],
            ref("CoveredPayout"),
            params=PAYOUT,
        ),
    },
    "/v1/payouts/{payout}/record": {
        "get": op(
            "a payout's full record: every step, who, when, payer, witness, slip",
            ["operator", "auditor"],
            ref("PayoutRecord"),
            params=PAYOUT,
        ),
    },
    "/v1/payouts/{payout}/confirm": {
        "post": op(
            "record a jackpot's hand pay (paid, or awaiting approval from the threshold)",
            ["operator"],
            ref("PayoutAfterStep"),
            "PayoutConfirm",
            PAYOUT,
            body_required=False,
        ),
    },
    "/v1/payouts/{payout}/dispute": {
        "post": op(
            "dispute a jackpot (body: {reason})",
            ["operator"],
            ref("PayoutAfterStep"),
            "PayoutDispute",
            PAYOUT,
        ),
    },
    "/v1/payouts/{payout}/approve": {
        "post": op(
            "a second operator approves a confirmed hand pay",
            ["operator"],
            ref("PayoutAfterStep"),
            "PayoutApprove",
            PAYOUT,
            body_required=False,
        ),
    },
    "/v1/payouts/{payout}/void": {
        "post": held(
            "void a confirmed, awaiting or disputed jackpot (body: {reason}); from the "
            "approval threshold up, 202: asked, until another person approves it",
            ["operator"],
            ref("PayoutAfterStep"),
            "PayoutVoid",
            PAYOUT,
        ),
    },
    "/v1/payouts/{payout}/void/approve": {
        "post": op(
            "another person applies the void asked of a jackpot (body: {reason}, optional)",
            ["operator"],
            ref("PayoutAfterStep"),
            "PayoutVoidApprove",
            PAYOUT,
            body_required=False,
        ),
    },
    "/v1/payouts/{payout}/void/refuse": {
        "post": op(
            "another person refuses the void asked of a jackpot, or the one who asked "
            "withdraws it (body: {reason}): the request is dropped, nothing else changes; "
            "none waiting is 409 no_void_awaiting",
            ["operator"],
            ref("PayoutAfterStep"),
            "PayoutVoidRefuse",
            PAYOUT,
        ),
    },
}
