"""The round reports, a round's result, and round voids (two people)."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import AWAITING, SPAN_PARAMS, op, path_param, ref

PATHS: dict[str, Any] = {
    "/v1/rounds": {
        "post": op("report a finished round", ["table"], ref("RoundResult"), "RoundReport"),
    },
    "/v1/rounds/{table}/{round}": {
        "get": op(
            "the stored result of a round",
            ["table", "operator", "auditor"],
            ref("RoundResult"),
            params=[path_param("table"), path_param("round")],
        ),
    },
    "/v1/rounds/{table}/{round}/void": {
        "post": op(
            "void a settled round, whole or some spots' bets: its handle, pays, meter "
            "contributions and jackpots taken back as new journal entries; 202 while a "
            "second person's approval is awaited (always, when a table asks for it: its "
            "own rounds only) (docs/RULES.md §6)",
            ["operator", "table"],
            body="RoundVoid",
            params=[path_param("table"), path_param("round")],
            also=AWAITING,
        ),
    },
    "/v1/rounds/{table}/{round}/void/approve": {
        "post": op(
            "another person approves the void awaiting approval (body: {reason}, optional)",
            ["operator"],
            body="RoundVoidApprove",
            params=[path_param("table"), path_param("round")],
            also={"202": "approved by one person: awaiting another's approval"},
            body_required=False,
        ),
    },
    "/v1/rounds/{table}/{round}/void/refuse": {
        "post": op(
            "a person refuses the void awaiting approval, or the one who asked withdraws "
            "it (body: {reason}): dropped, nothing moves",
            ["operator"],
            body="RoundVoidRefuse",
            params=[path_param("table"), path_param("round")],
        ),
    },
    "/v1/voids/awaiting": {
        "get": op(
            "every void awaiting a second person's approval, of every link group, oldest "
            "first: round voids in `voids`, jackpot (payout) voids in `payouts`; `count`: "
            "both",
            ["operator", "auditor"],
        ),
    },
    "/v1/voids/applied": {
        "get": op(
            "every round's void applied in [from, to) (RFC 3339 times or gaming days), of "
            "every link group, oldest first, as the day's voids section shows each (who "
            "asked, who approved, why, what it took back): a shift's",
            ["operator", "auditor"],
            params=SPAN_PARAMS[:2],
        ),
    },
}
