"""Jackpot payouts and their verification: list, confirm, approve, dispute, void (asked,
approved, refused)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from jackpot.api.auth import current_actor, require, services
from jackpot.api.body import json_body, known_query, query_int, request_body
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.fields import Record
from jackpot.domain.payout import CoveredPayout, PayoutAfterStep
from jackpot.domain.payoutanswers import PayoutList
from jackpot.domain.payoutrecord import HISTORY_PARAMETERS, history_query
from jackpot.domain.requests import (
    APPROVE_REQUEST,
    DISPUTE_REQUEST,
    PAYOUT_STATUSES,
    VOID_APPROVE_REQUEST,
    VOID_REFUSE_REQUEST,
    VOID_REQUEST,
    Confirmation,
)
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ValidationError
from jackpot.services.payouthistory import MAX_PAGE
from jackpot.services.payouts import HandPay

bp = Blueprint("payouts", __name__, url_prefix="/v1/payouts")


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_payouts() -> Response:
    known_query("status", "limit")
    status = request.args.get("status")
    if status is not None and status not in PAYOUT_STATUSES:
        raise ValidationError("status", f"must be one of {', '.join(PAYOUT_STATUSES)}")
    limit = query_int("limit", 100, 1, 10_000)
    return jsonify(to_json(PayoutList(tuple(services().payouts.list(status, limit)))))


@bp.get("/history")
@require(Role.OPERATOR, Role.AUDITOR)
def history() -> Response:
    """Search every payout ever made, the archived history and the live floor as one."""
    known_query(*HISTORY_PARAMETERS)
    args = request.args
    found = services().history
    query = history_query(
        # none empty (known_query); text typed in a search box is taken without the spaces
        # around it, but a payout is named exactly: " 1" or "+1" (a space) is no payout
        {k: v if k == "payout" else v.strip() for k, v in args.items()},
        services().days(),
        found.holders,
    )
    limit = query_int("limit", 100, 1, MAX_PAGE)
    return jsonify(to_json(found.search(query, limit)))


@bp.get("/<payout>/record")
@require(Role.OPERATOR, Role.AUDITOR)
def payout_record(payout: str) -> Response:
    """A payout and every step it took: what, when, who, payer, witness, slip, approver."""
    parse_identifier(payout, "payout")
    return jsonify(to_json(services().history.record(payout)))


@bp.get("/<payout>")
@require(Role.OPERATOR, Role.AUDITOR)
def get_payout(payout: str) -> Response:
    parse_identifier(payout, "payout")
    found = services().groups.payouts_of(payout).get(payout)
    # the slip's witness: the signed checkpoint covering the payout's newest step (D257)
    covered = services().history.record(payout).checkpoint
    return jsonify(to_json(CoveredPayout.from_payout(found, checkpoint=covered)))


@bp.post("/<payout>/confirm")
@require(Role.OPERATOR)
def confirm(payout: str) -> Response:
    """Record a hand pay: who paid it, who witnessed it, the slip."""
    parse_identifier(payout, "payout")
    # a confirmation without a body is refused like one without a witness: nothing is paid
    # on an empty form
    given = Confirmation.from_json(json_body() if request_body() else {})
    actor = current_actor()
    given.check_people(given.paid_by or actor.person_id, actor.person_id)
    people = services().people
    paid_by = people.active(given.paid_by or actor.person_id, "paid_by")
    witness = people.active(given.witness, "witness")
    hand_pay = HandPay(paid_by, witness, given.slip, given.note)
    return _answer(
        services().groups.payouts_of(payout).confirm(payout, actor, hand_pay, given.expect)
    )


@bp.post("/<payout>/approve")
@require(Role.OPERATOR)
def approve(payout: str) -> Response:
    """Two-person control: another operator approves a confirmed hand pay."""
    return _answer(_step(payout, "approve", APPROVE_REQUEST, reason_required=False))


@bp.post("/<payout>/dispute")
@require(Role.OPERATOR)
def dispute(payout: str) -> Response:
    return _answer(_step(payout, "dispute", DISPUTE_REQUEST, reason_required=True))


@bp.post("/<payout>/void")
@require(Role.OPERATOR)
def void(payout: str) -> tuple[Response, int]:
    """Void a jackpot; from the approval threshold up, ask for it (202) until another person
    approves the void (docs/RULES.md §5)."""
    after = _step(payout, "void", VOID_REQUEST, reason_required=True)
    return _answer(after), 202 if after.status != "void" else 200


@bp.post("/<payout>/void/approve")
@require(Role.OPERATOR)
def approve_void(payout: str) -> Response:
    """Two-person control: another person applies the void asked for."""
    return _answer(_step(payout, "approve_void", VOID_APPROVE_REQUEST, reason_required=False))


@bp.post("/<payout>/void/refuse")
@require(Role.OPERATOR)
def refuse_void(payout: str) -> Response:
    """Another person refuses the void asked, or the one who asked withdraws it: dropped."""
    return _answer(_step(payout, "refuse_void", VOID_REFUSE_REQUEST, reason_required=True))


def _step(payout: str, step: str, record: Record, reason_required: bool) -> PayoutAfterStep:
    """A step whose body is `{"reason", "expect"}` (the reason required or not)."""
    parse_identifier(payout, "payout")
    if request_body():
        data = record.check(json_body())
    elif reason_required:
        raise ValidationError("reason", "this step names its reason", "missing")
    else:
        data = {}
    note, expect = str(data.get("reason", "")), str(data.get("expect", ""))
    return services().groups.payouts_of(payout).step(payout, step, current_actor(), note, expect)


def _answer(after: PayoutAfterStep) -> Response:
    """The payout after the step, with `changed` (false: it had been taken already)."""
    return jsonify(to_json(after))
