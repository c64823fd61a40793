"""Answers declared once (jackpot.domain.answers): the JSON a record is written as is the
JSON its published schema describes, field for field."""

from __future__ import annotations

from itertools import product
from typing import Any

import jsonschema
import pytest

from jackpot.domain.answers import answer_schema, to_json
from jackpot.domain.payout import ComparedNames, Payout, VoidRequest
from jackpot.domain.payoutanswers import RECORDED, PayoutRecord, PayoutStep, StepName
from jackpot.domain.payoutrecord import ENTRY_TYPES, fold
from jackpot.domain.roundanswers import BetResult, HandPayHeld, JackpotWon, PoolValue, RoundResult
from tests.support.payouts import a_payout

COVERED = {"id": 3, "short": "0123456789ab", "hash": "0123456789ab" * 5 + "0123", "ts": 1}


def judge(answer: type[Any], value: dict[str, Any]) -> None:
    """Validate `value` against the answer's schema, its references among the answers'."""
    components = {a.NAME: answer_schema(a) for a in (PayoutRecord, PayoutStep)}
    components["Payout"] = {"type": "object", "required": ["id"]}
    root = {"$ref": f"#/components/schemas/{answer.NAME}", "components": {"schemas": components}}
    jsonschema.Draft202012Validator(root).validate(value)


def entry(kind: str, **fields: str) -> dict[str, str]:
    return {"type": kind, "ts": "1700000000000", "who": "operator:a1", **fields}


@pytest.mark.parametrize("kind", ENTRY_TYPES)
def test_every_kind_of_step_is_written_as_its_schema_says(kind: str) -> None:
    everything = {key: f"{key} given" for key in RECORDED} | {"amount": "500", "person": "Dana"}
    for fields, (hash_, person) in product(
        (entry(kind), entry(kind, **everything)), ((None, None), ("ab" * 32, "Lee Chan"))
    ):
        written = to_json(PayoutStep.of(fields, 12, hash_, person))
        judge(PayoutStep, written)
        assert (written["seq"], written["hash"], written["person"]) == (12, hash_, person)


def test_a_field_left_out_while_none_is_written_when_it_holds_zero_or_false() -> None:
    made = to_json(PayoutStep.of(entry("hit", amount="0"), 1, None, None))
    assert made["amount"] == 0 and "withdrawn" not in made and "from" not in made
    refused = to_json(PayoutStep.of(entry("payout_void_refused", withdrawn="0"), 2, None, None))
    assert refused["withdrawn"] is False and refused["refuser"] == ""
    assert "amount" not in refused


def test_a_paid_step_carrying_an_approver_is_an_approval() -> None:
    paid = PayoutStep.of(entry("payout_paid", paid_by="Dana"), 1, None, None)
    approved = PayoutStep.of(entry("payout_paid", approver="Lee"), 2, None, None)
    assert (paid.step, approved.step) == (StepName.PAID, StepName.APPROVED)
    assert to_json(approved)["approver"] == "Lee"


def test_a_record_nests_its_steps_and_writes_null_where_nothing_covers_it() -> None:
    steps = (
        PayoutStep.of(entry("hit", amount="900", outcome="tie_of_aces"), 1, None, None),
        PayoutStep.of(entry("payout_voided", **{"from": "pending"}), 2, None, None),
    )
    for checkpoint in (None, COVERED):
        written = to_json(PayoutRecord(a_payout(id="p-1"), "pool:main", steps, checkpoint))
        judge(PayoutRecord, written)
        assert written["checkpoint"] == checkpoint
        assert [s["step"] for s in written["steps"]] == ["won", "voided"]
        assert written["steps"][1]["from"] == "pending"


def test_the_schema_refuses_what_the_record_never_writes() -> None:
    written = to_json(PayoutStep.of(entry("payout_disputed"), 1, None, None))
    for broken in (
        {**written, "surprise": 1},
        {k: v for k, v in written.items() if k != "seq"},
        {**written, "step": "paid_twice"},
        {**written, "at": "1700000000000"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            judge(PayoutStep, broken)


def test_a_rounds_result_with_a_level_won_and_hand_pays_is_written_as_published() -> None:
    answers = (RoundResult, BetResult, JackpotWon, HandPayHeld, PoolValue)
    components = {a.NAME: answer_schema(a) for a in answers}
    static = {"table": "T1", "round": "r1", "spots": [
        {"spot": 1, "player": "p1", "outcome": "suited_four_of_a_kind", "wager": 500,
         "pay": 500_000, "envy": 0},
        {"spot": 2, "outcome": "none", "wager": 500, "pay": 0, "envy": 100_000}]}  # fmt: skip
    dynamic = {
        "jackpots": [{"id": "P000007", "pool": "mhb", "bet": 0, "amount": 70, "level": "mystery"}],
        "hand_pays": [{"id": "P000008", "kind": "envy", "bet": 1, "amount": 100_000}],
        "pools": {"mhb": "20"},
        "at": 1_795_768_800_123,
    }
    result = RoundResult.of(static, dynamic, False, lambda ms: "2026-11-27")
    written = to_json(result)
    root = {"$ref": "#/components/schemas/RoundResult", "components": {"schemas": components}}
    jsonschema.Draft202012Validator(root).validate(written)
    assert written == {
        "table": "T1", "round": "r1", "replayed": False,
        "spots": [{**static["spots"][0], "jackpot": 70}, {**static["spots"][1], "jackpot": 0}],
        "jackpots": [{"id": "P000007", "pool": "mhb", "spot": 1, "player": "p1", "amount": 70,
                      "status": "pending", "level": "mystery"}],
        "pools": {"mhb": {"value": 20}},
        "hand_pays": [{"id": "P000008", "kind": "envy", "spot": 2, "amount": 100_000,
                       "status": "pending"}],
        "settled_at": 1_795_768_800_123, "gaming_day": "2026-11-27",
    }  # fmt: skip
    assert list(written["spots"][0]) == ["spot", "player", "outcome", "wager", "pay", "envy",
                                         "jackpot"]  # fmt: skip


# -- a payout, as the archive folds it and as the scripts wrote it before the register -------

PAYOUT_ANSWERS = (Payout, VoidRequest, ComparedNames)


def judge_payout(value: dict[str, Any]) -> None:
    components = {a.NAME: answer_schema(a) for a in PAYOUT_ANSWERS}
    root = {"$ref": "#/components/schemas/Payout", "components": {"schemas": components}}
    jsonschema.Draft202012Validator(root).validate(value)


def test_a_payout_folded_through_every_step_is_written_as_its_schema_says() -> None:
    won = entry("hit", payout="P000007", table="T1", round="r1", spot="2", player="", amount="900",
                outcome="suited_four_of_a_kind", level="must_hit_by", trigger_cents="4200",
                salt="ab" * 16, commitment="cd" * 32)  # fmt: skip
    steps = [
        entry("payout_disputed", note="camera check"),
        entry("payout_confirmed", paid_by="Dana (E1)", witness="Lee (E2)", slip="HP-1",
              paid_by_id="E1", witness_id="E2", person_id="E3"),  # fmt: skip
        entry("payout_void_requested", person="Kim (E4)", person_id="E4", reason="misread",
              **{"from": "awaiting_approval"}),  # fmt: skip
        entry("payout_void_withdrawn", by_step="approve"),
        entry("payout_paid", approver="Sam (E5)", person_id="E5"),
        entry("payout_voided", requested_by="operator:k", requester="Kim (E4)",
              requested_at="1", approver="Sam (E5)", person_id="E5", **{"from": "paid"}),
    ]  # fmt: skip
    record = fold(None, "main", won)
    judge_payout(to_json(Payout.of(record)))
    for step in steps:
        record = fold(record, "main", step)
        written = to_json(Payout.of(record))
        judge_payout(written)
        # what the fold left None (no witness, no slip) is left out, as the scripts leave it
        assert written == {k: v for k, v in record.items() if v is not None or k == "player"}
    assert written["status"] == "void" and written["trigger"] == 4200
    assert written["player"] is None, "no player: null, as the scripts write it"


def test_a_hand_pay_confirmed_before_the_register_keeps_the_names_compared_then() -> None:
    stored = {"id": "P000009", "kind": "envy", "pool": "main", "table": "T1", "round": "r1",
              "spot": 3, "player": "p3", "outcome": "tie", "amount": 100_000,
              "status": "awaiting_approval", "created": 1, "confirmed_by": "operator:a",
              "confirmed_at": 2, "confirmer": "Dana", "paid_by": "Dana", "witness": "Lee",
              "people": {"confirmer": "dana", "paid_by": "dana", "witness": "lee"},
              "void_request": {"requested_by": "operator:a", "person": "Dana",
                               "compared": "dana", "reason": "misread", "at": 3,
                               "from": "awaiting_approval"}}  # fmt: skip
    written = to_json(Payout.of(stored))
    judge_payout(written)
    assert written == stored


def test_the_payout_schema_refuses_what_the_record_never_writes() -> None:
    written = to_json(a_payout())
    for broken in (
        {**written, "surprise": 1},
        {k: v for k, v in written.items() if k != "created"},
        {**written, "status": "paid_twice"},
        {**written, "void_request": {"requested_by": "operator:a"}},
    ):
        with pytest.raises(jsonschema.ValidationError):
            judge_payout(broken)
    # a key no field declares (a later version's, read after a rollback) is left out
    assert Payout.of({**written, "surprise": 1}) == Payout.of(written)
