"""The published request schemas and the validators agree: bodies generated from each schema
(valid, and broken in one place) get the validator's answer the schema promises."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jackpot.domain.config import MAX_WAGER, Layout, PoolConfig, StagedChange, TableConfig
from jackpot.domain.game import GameChange
from jackpot.domain.paytable import SEED_PAYTABLE
from jackpot.domain.report import parse_report
from jackpot.domain.requests import (
    APPROVE_REQUEST,
    CANCEL_STAGED_REQUEST,
    DISPUTE_REQUEST,
    MOVE_REQUEST,
    RESUME_REQUEST,
    RETIRE_REQUEST,
    ROUND_VOID_APPROVE_REQUEST,
    ROUND_VOID_REFUSE_REQUEST,
    ROUND_VOID_REQUEST,
    SUSPEND_REQUEST,
    VOID_APPROVE_REQUEST,
    VOID_REFUSE_REQUEST,
    VOID_REQUEST,
    Adjustment,
    Confirmation,
    ReconcileRequest,
)
from jackpot.domain.signs import Sign
from jackpot.domain.tablecounts import ACKNOWLEDGE_REQUEST, COUNTS_REQUEST
from jackpot.errors import ValidationError
from tests.support.request_bodies import (
    bodies,
    check_verdict,
    documented_refusal,
    mutations,
    plausible_report,
    request_bodies,
    request_schema,
    schema_valid,
)

OPERATIONS = request_bodies()
SCHEMAS = {name: request_schema(name) for name in OPERATIONS.values()}
NOW_MS = 1_750_000_000_000

CURRENT_POOL = PoolConfig(100_000, 100, 20, cap=5_000_000)
CURRENT_TABLE = TableConfig(pools=("main", "side"), spots=5, min_wager=500, max_wager=5_000)
# wide limits, so that what refuses a generated report is the rules of the game, not the table
LIVE = TableConfig(pools=("main",), decks=8, min_wager=1, max_wager=MAX_WAGER)
STADIUM = TableConfig(
    pools=("main",), decks=8, min_wager=1, max_wager=MAX_WAGER, layout=Layout.STADIUM
)


@dataclass(frozen=True)
class Validator:
    """What checks a request body: `call(body, creating)`."""

    operation: tuple[str, str]
    name: str
    call: Callable[[Any, bool], object]
    base: Any  # a body it accepts, every optional field given
    updates: bool = False  # PUT: the body may create or update
    stadium: bool | None = None  # a round report: at a stadium table or a live one

    @property
    def schema(self) -> dict[str, Any]:
        return SCHEMAS[OPERATIONS[self.operation]]


def _paytable() -> dict[str, Any]:
    lines = SEED_PAYTABLE.to_json()
    lines["four_of_a_kind"] = {"odds": 150, "meter_bp": 2500, "pool": "side",
                               "envy": {"amount": 10_000}}  # fmt: skip
    return lines


NOTE = {"reason": "settled at the cage"}


VALIDATORS = [
    Validator(
        ("/v1/pools/{pool}", "PUT"),
        "pool",
        lambda body, creating: PoolConfig.from_json(body, None if creating else CURRENT_POOL),
        {
            "reset": 100_000,
            "rate_bp": 100,
            "reserve_rate_bp": 20,
            "cap": 500_000,
            "policy": "split",
        },  # fmt: skip
        updates=True,
    ),
    Validator(
        ("/v1/tables/{table}", "PUT"),
        "table",
        lambda body, creating: TableConfig.from_json(body, None if creating else CURRENT_TABLE),
        {
            "pools": ["main", "side"],
            "decks": 8,
            "spots": 5,
            "min_wager": 500,
            "max_wager": 5_000,
            "profile": "stadium",
            "envy_min_wager": 500,
            "paytable": _paytable(),
            "enabled": False,
        },  # fmt: skip
        updates=True,
    ),
    Validator(
        ("/v1/pools/{pool}/adjustments", "POST"),
        "adjustment",
        lambda body, _: Adjustment.from_json(body),
        {"id": "adj-1", "amount": -500, "units": 17, "target": "reserve", "reason": "ticket 9"},
    ),
    Validator(
        ("/v1/reports/reconcile", "POST"),
        "reconcile",
        lambda body, _: ReconcileRequest.from_json(body, NOW_MS),
        {"pool": "main", "from": 1_000, "to": 2_000},
    ),
    Validator(
        ("/v1/pools/{pool}/game", "PUT"),
        "game change",
        lambda body, _: GameChange.from_json(body),
        {"decks": 8, "paytable": _paytable(), "reason": "approved change"},
    ),
    Validator(
        ("/v1/payouts/{payout}/confirm", "POST"),
        "confirm",
        lambda body, _: Confirmation.from_json(body),
        {
            "paid_by": "DANA-REYES",
            "witness": "SAM-OKAFOR",
            "slip": "HP-2231",
            **NOTE,
            "expect": "pending",
        },  # fmt: skip
    ),
    Validator(
        ("/v1/payouts/{payout}/dispute", "POST"),
        "dispute",
        lambda body, _: DISPUTE_REQUEST.check(body),
        {**NOTE, "expect": "pending"},
    ),
    Validator(
        ("/v1/payouts/{payout}/approve", "POST"),
        "approve",
        lambda body, _: APPROVE_REQUEST.check(body),
        {**NOTE, "expect": "awaiting_approval"},
    ),
    Validator(
        ("/v1/payouts/{payout}/void", "POST"),
        "void",
        lambda body, _: VOID_REQUEST.check(body),
        {**NOTE, "expect": "disputed"},
    ),
    Validator(
        ("/v1/payouts/{payout}/void/approve", "POST"),
        "approve void",
        lambda body, _: VOID_APPROVE_REQUEST.check(body),
        {**NOTE, "expect": "disputed"},
    ),
    Validator(
        ("/v1/payouts/{payout}/void/refuse", "POST"),
        "refuse void",
        lambda body, _: VOID_REFUSE_REQUEST.check(body),
        NOTE,
    ),
    Validator(
        ("/v1/tables/{table}/counts", "POST"),
        "table counts",
        lambda body, _: COUNTS_REQUEST.check(body),
        {
            "days": [
                {
                    "day": "2026-11-27",
                    "rounds": 40,
                    "side_bets": 96,
                    "handle": 48_000,
                    "fixed": 12_500,
                    "envy": 0,
                    "jackpot": 0,
                    "voids": 1,
                    "through": 1_795_769_340_613,
                }
            ]
        },  # fmt: skip
    ),
    Validator(
        ("/v1/tables/{table}/counts/acknowledge", "POST"),
        "table counts acknowledgement",
        lambda body, _: ACKNOWLEDGE_REQUEST.check(body),
        {"day": "2026-11-27", "reason": "failover, two rounds reentered", "checked_at": 1},
    ),
    Validator(
        ("/v1/rounds/{table}/{round}/void", "POST"),
        "round void",
        lambda body, _: ROUND_VOID_REQUEST.check(body),
        {"reason": "no card dealt to spot 3", "spots": [3]},
    ),
    Validator(
        ("/v1/rounds/{table}/{round}/void/approve", "POST"),
        "round void approval",
        lambda body, _: ROUND_VOID_APPROVE_REQUEST.check(body),
        NOTE,
    ),
    Validator(
        ("/v1/rounds/{table}/{round}/void/refuse", "POST"),
        "round void refusal",
        lambda body, _: ROUND_VOID_REFUSE_REQUEST.check(body),
        {"reason": "the card was dealt: camera 4"},
    ),
    Validator(
        ("/v1/pools/{pool}/suspend", "POST"),
        "suspend",
        lambda body, _: SUSPEND_REQUEST.check(body),
        {"reason": "link down for a paytable change"},
    ),
    Validator(
        ("/v1/pools/{pool}/staged", "POST"),
        "stage",
        lambda body, _: StagedChange.from_request(body, CURRENT_POOL, "operator:k"),
        {
            "reset": 200_000,
            "rate_bp": 150,
            "reserve_rate_bp": 30,
            "cap": 900_000,
            "policy": "split",
            "effective_at": "2026-11-26T06:00:00-05:00",
            "reason": "approved change 12",
        },  # fmt: skip
    ),
    Validator(
        ("/v1/signs/{sign}", "PUT"),
        "sign",
        lambda body, _: Sign.from_json("lobby", body),
        {
            "levels": [{"pool": "main", "name": "Grand"}, {"pool": "side", "name": "Mini"}],
            "title": "Casino War Progressive",
            "branding": "Only at the Riverside",
            "orientation": "portrait",
            "currency": "CAD",
            "locale": "fr-CA",
        },
    ),
    Validator(
        ("/v1/pools/{pool}/staged/cancel", "POST"),
        "cancel staged",
        lambda body, _: CANCEL_STAGED_REQUEST.check(body),
        {"reason": "withdrawn"},
    ),
    Validator(
        ("/v1/pools/{pool}/retire", "POST"),
        "retire",
        lambda body, _: RETIRE_REQUEST.check(body),
        {"id": "retire-1", "to": "main", "reason": "bank re-themed"},
    ),
    Validator(
        ("/v1/tables/{table}/move", "POST"),
        "move table",
        lambda body, _: MOVE_REQUEST.check(body),
        {"pools": ["west"], "reason": "east link closed"},
    ),
    Validator(
        ("/v1/pools/{pool}/resume", "POST"),
        "resume",
        lambda body, _: RESUME_REQUEST.check(body),
        {"reason": "approved change in place"},
    ),
    Validator(
        ("/v1/rounds", "POST"),
        "report at a live table",
        lambda body, _: parse_report(body, LIVE),
        {
            "table": "T1",
            "round": "r1",
            "dealer": {"card": "Qs", "war_card": "7h"},
            "community_war": False,
            "spots": [
                {
                    "spot": 1,
                    "player": "p-1",
                    "wager": 500,
                    "card": "Qh",
                    "war": True,
                    "war_card": "2c",
                },
                {"spot": 2, "player": "p-2", "wager": 500, "card": "4d", "war": False},
                {"spot": 3, "card": "9h"},
            ],
        },  # fmt: skip
        stadium=False,
    ),
    Validator(
        ("/v1/rounds", "POST"),
        "report at a stadium",
        lambda body, _: parse_report(body, STADIUM),
        {
            "table": "T2",
            "round": "r2",
            "dealer": {"card": "Qs", "war_card": "7h"},
            "community_war": True,
            "spots": [
                {
                    "spot": 1,
                    "card": "Qh",
                    "war_card": "2c",
                    "bets": [{"player": "p-1", "wager": 500, "war": True}, {"wager": 100}],
                },
                {"spot": 2, "card": "4d", "bets": [{"player": "p-3", "wager": 500}]},
            ],
        },  # fmt: skip
        stadium=True,
    ),
]


def refusal(validator: Validator, body: Any, creating: bool) -> tuple[str | None, str] | None:
    try:
        validator.call(body, creating)
    except ValidationError as err:
        return err.field, err.code
    return None


def test_every_request_body_of_the_document_has_its_validator_here() -> None:
    assert {v.operation for v in VALIDATORS} == set(OPERATIONS)


@pytest.mark.slow  # 150 generated bodies a validator: the whole suite runs it, `fast` not
@pytest.mark.parametrize("validator", VALIDATORS, ids=lambda v: v.name)
def test_the_validator_answers_what_the_schema_promises(validator: Validator) -> None:
    schema, answers = validator.schema, Counter[str]()

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(data=st.data())
    def answer(data: Any) -> None:
        prepare = None
        if validator.stadium is not None and data.draw(st.booleans(), label="plausible"):
            prepare = partial(plausible_report, stadium=validator.stadium)
        body = data.draw(bodies(validator.operation, prepare), label="body")
        creating = data.draw(st.booleans(), label="creating") if validator.updates else True
        refused = refusal(validator, body, creating)
        answers["refused" if refused else "accepted"] += 1
        check_verdict(schema, body, refused, creating)

    answer()
    # both answers were put to the test
    assert answers["accepted"] and answers["refused"], answers


@pytest.mark.parametrize("validator", VALIDATORS, ids=lambda v: v.name)
def test_each_change_of_a_valid_body_in_one_place_gets_the_answer_the_schema_promises(
    validator: Validator,
) -> None:
    schema = validator.schema
    assert schema_valid(schema, validator.base) and refusal(validator, validator.base, True) is None
    changed = mutations(schema, validator.base)
    assert len(changed) > 20
    disagreements = []
    for creating in (True, False) if validator.updates else (True,):
        for body in changed:
            try:
                check_verdict(schema, body, refusal(validator, body, creating), creating)
            except AssertionError as err:
                disagreements.append(f"creating={creating}: {err}")
    assert not disagreements, "\n".join(disagreements[:10])


# -- the cases the drift was found by, and that the test above can fail -------------------------

POOL = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}


def test_a_negative_reset_is_refused_by_the_schema_as_by_the_validator() -> None:
    body = {**POOL, "reset": -5}
    assert not schema_valid(SCHEMAS["PoolConfig"], body)
    with pytest.raises(ValidationError):
        PoolConfig.from_json(body)


def test_a_pool_update_without_reset_is_valid_to_the_schema_and_to_the_validator() -> None:
    schema = SCHEMAS["PoolConfig"]
    assert "required" not in schema
    assert schema["x-required-on-create"] == ["reset", "rate_bp", "reserve_rate_bp"]
    assert schema_valid(schema, {"rate_bp": 50})
    assert PoolConfig.from_json({"rate_bp": 50}, CURRENT_POOL).rate_bp == 50
    # and on a create the documented requirement refuses it, naming the field
    with pytest.raises(ValidationError) as caught:
        PoolConfig.from_json({"rate_bp": 50})
    assert (caught.value.field, caught.value.code) == ("reset", "missing")
    assert documented_refusal(schema, {"rate_bp": 50}, "reset", "missing", creating=True)
    assert not documented_refusal(schema, {"rate_bp": 50}, "reset", "missing", creating=False)


def test_a_refusal_the_schema_does_not_document_fails_the_verdict() -> None:
    schema = SCHEMAS["PoolConfig"]
    with pytest.raises(AssertionError, match="does not document"):
        check_verdict(schema, POOL, ("reset", "out_of_range"))
    with pytest.raises(AssertionError, match="the schema refuses it"):
        check_verdict(schema, {**POOL, "reset": -5}, None)
    check_verdict(schema, {**POOL, "cap": 5}, ("cap", "out_of_range"))  # cap ≥ reset: documented


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({**POOL, "reset": 5.0}, False),  # the API's integers have no fraction (info.description)
        ({**POOL, "reset": True}, False),
        ({**POOL, "policy": None}, False),
        ({**POOL, "cap": None}, True),
        ({**POOL, "seed": 1}, False),
    ],
)
def test_the_schemas_verdict_on_the_awkward_values(body: dict[str, Any], valid: bool) -> None:
    assert schema_valid(SCHEMAS["PoolConfig"], body) is valid


@pytest.mark.parametrize("ident", ["T1\n", "", "x" * 129, "a b"])
def test_an_identifier_the_validator_refuses_is_schema_invalid(ident: str) -> None:
    assert not schema_valid(SCHEMAS["Adjustment"], {"id": ident, "amount": 1, "reason": "r"})


@pytest.mark.parametrize("card", ["As", "as", "AS", "10h", "10H", "Td", "tD", "2c"])
def test_every_card_spelling_the_validator_knows_is_schema_valid(card: str) -> None:
    body = {"table": "T1", "round": "r", "dealer": {"card": card}, "spots": [{"spot": 1,
            "card": card}]}  # fmt: skip
    assert schema_valid(SCHEMAS["RoundReport"], body)
    parse_report(body, LIVE)


@pytest.mark.parametrize("card", ["1h", "10", "Ax", "Ahh", "11h", "", "A s"])
def test_a_card_the_validator_refuses_is_schema_invalid(card: str) -> None:
    body = {"table": "T1", "round": "r", "dealer": {"card": card}, "spots": [{"spot": 1,
            "card": "2c"}]}  # fmt: skip
    assert not schema_valid(SCHEMAS["RoundReport"], body)
    with pytest.raises(ValidationError):
        parse_report(body, LIVE)
