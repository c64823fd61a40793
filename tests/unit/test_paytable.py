"""Paytables (docs/RULES.md §3): the seed paytable and a configured one's validation."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from jackpot.domain.outcomes import WINNING_OUTCOMES, Outcome
from jackpot.domain.paytable import SEED_PAYTABLE, Envy, PayLine, Paytable
from jackpot.errors import ValidationError

# a meter pay states its qualifying wager and what a smaller wager wins, defaults written out
QUALIFYING = {"qualifying_wager": 500, "below_qualifying": "proportional"}
SEED_JSON = {
    "suited_four_of_a_kind": {
        "odds": 1000,
        "meter_bp": 10_000,
        **QUALIFYING,
        "envy": {"multiple": 200},
    },  # fmt: skip
    "suited_double_tie": {"odds": 200},
    "four_of_a_kind": {"odds": 150},
    "double_tie": {"odds": 30},
    "suited_tie": {"odds": 15},
    "tie": {"odds": 5},
}


@pytest.mark.parametrize(
    ("outcome", "odds"),
    [
        (Outcome.SUITED_FOUR_OF_A_KIND, 1000),
        (Outcome.SUITED_DOUBLE_TIE, 200),
        (Outcome.FOUR_OF_A_KIND, 150),
        (Outcome.DOUBLE_TIE, 30),
        (Outcome.SUITED_TIE, 15),
        (Outcome.TIE, 5),
    ],
)
def test_the_seed_paytable_pays_the_rules_odds(outcome, odds):
    line = SEED_PAYTABLE.line(outcome)
    assert line is not None
    assert line.odds == odds


def test_only_the_seed_suited_four_of_a_kind_pays_the_meter_and_envy():
    jackpot = SEED_PAYTABLE.line(Outcome.SUITED_FOUR_OF_A_KIND)
    assert jackpot == PayLine(1000, meter_bp=10_000, pool=None, envy=Envy(multiple=200))
    for outcome in WINNING_OUTCOMES[1:]:
        line = SEED_PAYTABLE.line(outcome)
        assert line is not None
        assert (line.meter_bp, line.pool, line.envy) == (0, None, None)


def test_the_seed_envy_is_1000_dollars_on_a_5_dollar_wager():
    jackpot = SEED_PAYTABLE.line(Outcome.SUITED_FOUR_OF_A_KIND)
    assert jackpot is not None and jackpot.envy is not None
    assert jackpot.envy.pay_for(500) == 100_000


def test_the_seed_paytable_lists_every_winning_outcome_best_first_and_no_loss():
    assert [o for o, _ in SEED_PAYTABLE.lines] == list(WINNING_OUTCOMES)
    assert SEED_PAYTABLE.line(Outcome.NONE) is None


def test_the_seed_paytable_on_the_wire():
    assert SEED_PAYTABLE.to_json() == SEED_JSON
    assert Paytable.from_json(SEED_JSON) == SEED_PAYTABLE


def test_the_seed_pays_a_percentage_of_the_tables_first_pool_only():
    assert SEED_PAYTABLE.meter_pools("main") == {"main"}


def custom() -> dict[str, Any]:
    return copy.deepcopy(SEED_JSON)


def test_a_custom_paytable_round_trips_through_json():
    raw = custom()
    raw["four_of_a_kind"] = {"odds": 150, "meter_bp": 2_500, "pool": "side", **QUALIFYING}
    raw["suited_tie"] = {"odds": 15, "meter_bp": 100, "qualifying_wager": 2_500,
                         "below_qualifying": "nothing", "envy": {"amount": 500}}  # fmt: skip
    raw["tie"] = {"odds": 0}
    table = Paytable.from_json(raw)
    assert table.line(Outcome.FOUR_OF_A_KIND) == PayLine(150, 2_500, "side")
    assert table.line(Outcome.SUITED_TIE) == PayLine(
        15, 100, None, Envy(amount=500), 2_500, "nothing"
    )
    assert table.line(Outcome.TIE) == PayLine(0)
    assert table.to_json() == raw
    assert table.meter_pools("main") == {"main", "side"}


@pytest.mark.parametrize(
    ("line", "json"),
    [
        (PayLine(5), {"odds": 5}),
        (PayLine(5, 100), {"odds": 5, "meter_bp": 100, **QUALIFYING}),
        (PayLine(5, 100, "side"), {"odds": 5, "meter_bp": 100, "pool": "side", **QUALIFYING}),
        (PayLine(5, envy=Envy(multiple=3)), {"odds": 5, "envy": {"multiple": 3}}),
        (PayLine(5, envy=Envy(amount=250)), {"odds": 5, "envy": {"amount": 250}}),
    ],
)
def test_a_pay_line_writes_only_what_it_pays(line, json):
    assert line.to_json() == json


@pytest.mark.parametrize(
    ("envy", "wager", "pay"),
    [
        (Envy(multiple=200), 500, 100_000),
        (Envy(multiple=200), 100, 20_000),
        (Envy(multiple=1), 2_500, 2_500),
        (Envy(amount=50_000), 100, 50_000),
        (Envy(amount=50_000), 2_500, 50_000),
    ],
)
def test_envy_pays_a_multiple_of_the_receivers_wager_or_a_fixed_amount(envy, wager, pay):
    assert envy.pay_for(wager) == pay


def with_line(outcome: str, line: Any) -> dict[str, Any]:
    raw = custom()
    raw[outcome] = line
    return raw


def without(outcome: str) -> dict[str, Any]:
    raw = custom()
    del raw[outcome]
    return raw


@pytest.mark.parametrize(
    ("raw", "field", "code"),
    [
        ([], "paytable", "not_an_object"),
        ({**custom(), "royal_flush": {"odds": 1}}, "paytable.royal_flush", "unknown_field"),
        ({**custom(), "none": {"odds": 0}}, "paytable.none", "unknown_field"),
        (with_line("tie", 5), "paytable.tie", "not_an_object"),
        (with_line("tie", {}), "paytable.tie.odds", "missing"),
        (with_line("tie", {"odds": -1}), "paytable.tie.odds", "out_of_range"),
        (with_line("tie", {"odds": 1_000_001}), "paytable.tie.odds", "out_of_range"),
        (with_line("tie", {"odds": 5.0}), "paytable.tie.odds", "not_an_integer"),
        (with_line("tie", {"odds": "5"}), "paytable.tie.odds", "not_an_integer"),
        (with_line("tie", {"odds": True}), "paytable.tie.odds", "not_an_integer"),
        (with_line("tie", {"odds": 5, "bonus": 1}), "paytable.tie.bonus", "unknown_field"),
        (with_line("tie", {"odds": 5, "meter_bp": -1}), "paytable.tie.meter_bp", "out_of_range"),
        (
            with_line("tie", {"odds": 5, "meter_bp": 10_001}),
            "paytable.tie.meter_bp",
            "out_of_range",
        ),
        (
            with_line("tie", {"odds": 5, "meter_bp": "100"}),
            "paytable.tie.meter_bp",
            "not_an_integer",
        ),
        (with_line("tie", {"odds": 5, "pool": "side"}), "paytable.tie.pool", "invalid"),
        (
            with_line("tie", {"odds": 5, "meter_bp": 0, "pool": "side"}),
            "paytable.tie.pool",
            "invalid",
        ),
        (
            with_line("tie", {"odds": 5, "meter_bp": 100, "pool": "side pool"}),
            "paytable.tie.pool",
            "invalid_identifier",
        ),
        (
            with_line("tie", {"odds": 5, "meter_bp": 100, "pool": 7}),
            "paytable.tie.pool",
            "invalid_identifier",
        ),
        (with_line("tie", {"odds": 5, "envy": 200}), "paytable.tie.envy", "not_an_object"),
        (with_line("tie", {"odds": 5, "envy": {}}), "paytable.tie.envy", "invalid"),
        (
            with_line("tie", {"odds": 5, "envy": {"multiple": 2, "amount": 100}}),
            "paytable.tie.envy",
            "invalid",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"percent": 2}}),
            "paytable.tie.envy.percent",
            "unknown_field",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"multiple": 0}}),
            "paytable.tie.envy.multiple",
            "out_of_range",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"multiple": 100_001}}),
            "paytable.tie.envy.multiple",
            "out_of_range",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"multiple": 2.5}}),
            "paytable.tie.envy.multiple",
            "not_an_integer",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"amount": 0}}),
            "paytable.tie.envy.amount",
            "out_of_range",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"amount": 100_000_001}}),
            "paytable.tie.envy.amount",
            "out_of_range",
        ),
        (
            with_line("tie", {"odds": 5, "envy": {"amount": "100"}}),
            "paytable.tie.envy.amount",
            "not_an_integer",
        ),
        (
            with_line("suited_four_of_a_kind", {"odds": 1000, "meter_bp": 10_000.0}),
            "paytable.suited_four_of_a_kind.meter_bp",
            "not_an_integer",
        ),
    ],
)
def test_a_bad_paytable_is_refused_naming_the_field(raw, field, code):
    with pytest.raises(ValidationError) as caught:
        Paytable.from_json(raw)
    assert (caught.value.field, caught.value.code) == (field, code)


@pytest.mark.parametrize("outcome", [o.value for o in WINNING_OUTCOMES])
def test_every_winning_outcome_must_be_listed(outcome):
    with pytest.raises(ValidationError) as caught:
        Paytable.from_json(without(outcome))
    assert caught.value.field == f"paytable.{outcome}"


def test_a_winning_outcome_left_out_is_missing_like_any_required_field():
    with pytest.raises(ValidationError) as caught:
        Paytable.from_json(without("tie"))
    assert (caught.value.field, caught.value.code) == ("paytable.tie", "missing")


def test_the_field_prefix_is_the_callers():
    with pytest.raises(ValidationError) as caught:
        Paytable.from_json(with_line("double_tie", {"odds": -5}), field="tables.T1.paytable")
    assert caught.value.field == "tables.T1.paytable.double_tie.odds"


@pytest.mark.parametrize(
    "line",
    [
        {"odds": 0},
        {"odds": 1_000_000},
        {"odds": 5, "meter_bp": 0},
        {"odds": 5, "meter_bp": 10_000, "pool": "a.b_c:d-1"},
        {"odds": 5, "envy": {"multiple": 1}},
        {"odds": 5, "envy": {"multiple": 100_000}},
        {"odds": 5, "envy": {"amount": 1}},
        {"odds": 5, "envy": {"amount": 100_000_000}},
    ],
)
def test_the_limits_of_a_pay_line_are_accepted(line):
    table = Paytable.from_json(with_line("tie", line))
    assert table.line(Outcome.TIE) is not None


def test_a_meter_pay_is_for_its_qualifying_wager_and_a_smaller_wins_its_part_or_nothing():
    line = PayLine(1000, 10_000)
    assert (line.qualifying_wager, line.below_qualifying) == (500, "proportional")
    assert line.meter_scale(500) is None and line.meter_scale(2_500) is None
    assert line.meter_scale(100) == (100, 500)
    assert PayLine(1000, 10_000, below_qualifying="nothing").meter_scale(499) == (0, 500)
    for field, value in (("qualifying_wager", 500), ("below_qualifying", "nothing")):
        raw = custom()
        raw["tie"] = {"odds": 5, field: value}
        with pytest.raises(ValidationError) as refused:
            Paytable.from_json(raw)
        assert refused.value.field == f"paytable.tie.{field}"
