"""Bad input gets a 4xx with the docs/API.md error body naming the field, and changes nothing.

Every refusal is checked against a snapshot of the whole store: every key, its type and its
content, before and after the request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
from flask.testing import FlaskClient

from jackpot.domain.auth import Role
from jackpot.domain.paytable import SEED_PAYTABLE
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, Keys, round_body
from tests.support.checks import (
    DELETE,
    assert_error,
    jackpot_body,
    patched,
    post_round,
    refused,
    report_body,
    send_raw,
    snapshot,
)
from tests.support.people import issue
from tests.support.redis_server import start_server
from tests.support.stores import SharedApp

# -- helpers ---------------------------------------------------------------------------------


# -- the floor every test starts from ----------------------------------------------------------


@pytest.fixture
def floor(api: Api, shared: SharedApp) -> dict[str, Any]:
    """Pool `main`, a 5-spot table T1, a jackpot hit (pending payout) and a later round, so
    the meter sits above its reset: built once per store layout, restored for each test."""
    return shared.world("bad-input", lambda: build_floor(api))


def build_floor(api: Api) -> dict[str, Any]:
    api.put_pool()
    api.put_table("T1", spots=5)
    hit = api.report(jackpot_body("r-hit"))
    assert hit.status_code == 200, hit.get_json()
    after = api.report(report_body("r-after"))
    assert after.status_code == 200, after.get_json()
    assert api.pool()["value"] > 100_000
    return {"payout": hit.get_json()["jackpots"][0]["id"]}


# -- round reports -----------------------------------------------------------------------------

LONG_ID = "x" * 129
SIX_SPOTS = [{"spot": n, "card": "5d"} for n in range(1, 7)]

ROUND_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("an unknown card", {"spots[2].card": "Xx"}, "spots[2].card"),
    ("a rank 1", {"spots[2].card": "1h"}, "spots[2].card"),
    ("a rank 11", {"spots[2].card": "11h"}, "spots[2].card"),
    ("an unknown suit", {"spots[2].card": "9x"}, "spots[2].card"),
    ("three letters", {"spots[2].card": "9hh"}, "spots[2].card"),
    ("a card with a space", {"spots[2].card": "9 h"}, "spots[2].card"),
    ("an empty card", {"spots[2].card": ""}, "spots[2].card"),
    ("a card as a number", {"spots[2].card": 9}, "spots[2].card"),
    ("a card as null", {"spots[2].card": None}, "spots[2].card"),
    ("a missing card", {"spots[2].card": DELETE}, "spots[2].card"),
    ("an unknown dealer card", {"dealer.card": "Qz"}, "dealer.card"),
    ("a missing dealer card", {"dealer.card": DELETE}, "dealer.card"),
    ("an unknown war card", {"spots[0].war_card": "2z"}, "spots[0].war_card"),
    ("an unknown dealer war card", {"dealer.war_card": "7z"}, "dealer.war_card"),
    ("war without a tie", {"spots[1].war": True, "spots[1].war_card": "5c"}, "spots[1].war"),
    ("a missing war card", {"spots[0].war_card": DELETE}, "spots[0].war_card"),
    ("a war card without war", {"spots[1].war_card": "5c"}, "spots[1].war_card"),
    ("a missing dealer war card", {"dealer.war_card": DELETE}, "dealer.war_card"),
    (
        "a dealer war card without war",
        {"spots[0].war": DELETE, "spots[0].war_card": DELETE},
        "dealer.war_card",
    ),
    ("war as a string", {"spots[0].war": "yes"}, "spots[0].war"),
    ("war as 1", {"spots[0].war": 1}, "spots[0].war"),
    ("a duplicate spot", {"spots[2].spot": 1}, "spots[2].spot"),
    ("spot 0", {"spots[2].spot": 0}, "spots[2].spot"),
    ("spot 8", {"spots[2].spot": 8}, "spots[2].spot"),
    ("spot 6 at a 5-spot table", {"spots[2].spot": 6}, "spots[2].spot"),
    ("spot -1", {"spots[2].spot": -1}, "spots[2].spot"),
    ("spot as a string", {"spots[2].spot": "3"}, "spots[2].spot"),
    ("spot 3.0", {"spots[2].spot": 3.0}, "spots[2].spot"),
    ("spot true", {"spots[2].spot": True}, "spots[2].spot"),
    ("a missing spot number", {"spots[2].spot": DELETE}, "spots[2].spot"),
    ("more spots than the table has", {"spots": SIX_SPOTS}, "spots"),
    ("a wager below the minimum", {"spots[1].wager": 99}, "spots[1].wager"),
    ("a wager above the maximum", {"spots[1].wager": 2501}, "spots[1].wager"),
    ("a negative wager", {"spots[1].wager": -500}, "spots[1].wager"),
    ("a wager of 5.0", {"spots[1].wager": 5.0}, "spots[1].wager"),
    ("a wager of 500.0", {"spots[1].wager": 500.0}, "spots[1].wager"),
    ("a wager as a string", {"spots[1].wager": "500"}, "spots[1].wager"),
    ("a wager of true", {"spots[1].wager": True}, "spots[1].wager"),
    ("a wager of null", {"spots[1].wager": None}, "spots[1].wager"),
    ("a wager at war below the minimum", {"spots[0].wager": 1}, "spots[0].wager"),
    ("a player with a space", {"spots[1].player": "p 2"}, "spots[1].player"),
    ("a player of 129 characters", {"spots[1].player": LONG_ID}, "spots[1].player"),
    ("an empty player", {"spots[1].player": ""}, "spots[1].player"),
    ("a player as a number", {"spots[1].player": 2}, "spots[1].player"),
    ("a player without a wager", {"spots[2].player": "p-3"}, "spots[2].player"),
    ("a table with a space", {"table": "T 1"}, "table"),
    ("a table with a slash", {"table": "T1/x"}, "table"),
    ("a table with an accent", {"table": "T\u00e9"}, "table"),
    ("a table of 129 characters", {"table": LONG_ID}, "table"),
    ("an empty table", {"table": ""}, "table"),
    ("a table as a number", {"table": 1}, "table"),
    ("a missing table", {"table": DELETE}, "table"),
    ("a round with a hash", {"round": "r#1"}, "round"),
    ("a round with a newline", {"round": "r1\n"}, "round"),
    ("a round of 129 characters", {"round": LONG_ID}, "round"),
    ("an empty round", {"round": ""}, "round"),
    ("a round as a number", {"round": 7}, "round"),
    ("a missing round", {"round": DELETE}, "round"),
    ("a missing dealer", {"dealer": DELETE}, "dealer"),
    ("a dealer that is a card", {"dealer": "Qs"}, "dealer"),
    ("missing spots", {"spots": DELETE}, "spots"),
    ("no spots", {"spots": []}, "spots"),
    ("spots as an object", {"spots": {"spot": 1, "card": "5d"}}, "spots"),
    ("a spot that is a card", {"spots[2]": "9h"}, "spots[2]"),
    ("an unknown field", {"colour": "red"}, "colour"),
    ("an unknown spot field", {"spots[2].colour": "red"}, "spots[2].colour"),
    ("an unknown dealer field", {"dealer.colour": "red"}, "dealer.colour"),
    (
        "stadium bets at a live table",
        {"spots[2].bets": [{"player": "p-7", "wager": 500}]},
        "spots[2].bets",
    ),
    ("a community war at a live table", {"community_war": True}, "community_war"),
    ("community_war as a string", {"community_war": "no"}, "community_war"),
]


@pytest.mark.parametrize(
    ("changes", "field"),
    [pytest.param(c, f, id=name) for name, c, f in ROUND_REFUSALS],
)
def test_a_malformed_round_report_is_refused_naming_the_field(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, changes: dict[str, Any], field: str
) -> None:
    refused(redis, lambda: post_round(api, report_body(changes=changes)), 400, field)


def stadium_body(**changes: Any) -> dict[str, Any]:
    """A valid report at the stadium table T2: hands 1 and 2 tie and share one war card."""
    body = round_body(
        "s-new",
        table="T2",
        dealer="9s",
        dealer_war="Kd",
        community_war=True,
        spots=[
            {"spot": 1, "card": "9h", "war_card": "3c", "bets": [
                {"player": "p-1", "wager": 500, "war": True},
                {"player": "p-2", "wager": 500},
            ]},
            {"spot": 2, "card": "9d", "war_card": "3c", "bets": [
                {"player": "p-1", "wager": 500, "war": True},
            ]},
            {"spot": 3, "card": "2h", "bets": [{"player": "p-3", "wager": 500}]},
        ],
    )  # fmt: skip
    return patched(body, changes)


STADIUM_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("bets and an inline wager", {"spots[2].wager": 500}, "spots[2].wager"),
    ("bets and an inline player", {"spots[2].player": "p-3"}, "spots[2].player"),
    ("bets as an object", {"spots[2].bets": {"wager": 500}}, "spots[2].bets"),
    ("a bet that is a number", {"spots[2].bets[0]": 500}, "spots[2].bets[0]"),
    ("a bet without a wager", {"spots[2].bets[0].wager": DELETE}, "spots[2].bets[0].wager"),
    ("a bet of 0", {"spots[2].bets[0].wager": 0}, "spots[2].bets[0].wager"),
    ("a bet above the maximum", {"spots[0].bets[1].wager": 2501}, "spots[0].bets[1].wager"),
    ("a bet of 5.0", {"spots[0].bets[1].wager": 5.0}, "spots[0].bets[1].wager"),
    ("a bet at war without a tie", {"spots[2].bets[0].war": True}, "spots[2].bets[0].war"),
    ("an unknown bet field", {"spots[2].bets[0].colour": 1}, "spots[2].bets[0].colour"),
    ("a bet's player with a space", {"spots[2].bets[0].player": "p 3"}, "spots[2].bets[0].player"),
    ("community war cards that differ", {"spots[1].war_card": "4c"}, "spots[1].war_card"),
    (
        "community_war false with two different war cards",
        {"community_war": False, "spots[1].war_card": "4c"},
        "spots[1].war_card",
    ),
    (
        "two different war cards, community_war left out",
        {"community_war": DELETE, "spots[1].war_card": "4c"},
        "spots[1].war_card",
    ),
    ("a war card on a hand that did not tie", {"spots[2].war_card": "3c"}, "spots[2].war_card"),
]


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=name) for name, c, f in STADIUM_REFUSALS]
)
def test_a_malformed_stadium_report_is_refused_naming_the_field(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, changes: dict[str, Any], field: str
) -> None:
    api.put_pool("arena")
    api.put_table("T2", pools=["arena"], profile="stadium")
    assert post_round(api, stadium_body()).status_code == 200
    body = patched(stadium_body(), {"round": "s-bad", **changes})
    refused(redis, lambda: post_round(api, body), 400, field)


@pytest.mark.parametrize(
    ("spot_war", "dealer_war", "field"),
    [
        pytest.param("Ks", "As", "dealer.war_card", id="the dealer's war card"),
        pytest.param("As", "Ks", "spots[0].war_card", id="a spot's war card"),
    ],
)
def test_more_copies_of_a_card_than_the_shoe_holds_are_refused_naming_the_extra_copy(
    api: Api,
    floor: dict[str, Any],
    redis: redis_lib.Redis,
    spot_war: str,
    dealer_war: str,
    field: str,
) -> None:
    # seven aces of spades from a 6-deck shoe: six in the deal, the seventh at war
    body = round_body(
        "r-seven",
        dealer="As",
        dealer_war=dealer_war,
        spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": spot_war}]
        + [{"spot": n, "card": "As"} for n in range(2, 6)],
    )
    error = refused(redis, lambda: post_round(api, body), 400, field)
    assert "As" in error["message"]


def test_as_many_copies_of_a_card_as_the_shoe_holds_are_accepted(
    api: Api, floor: dict[str, Any]
) -> None:
    body = round_body(
        "r-six",
        dealer="As",
        spots=[{"spot": 1, "wager": 500, "card": "As"}]
        + [{"spot": n, "card": "As"} for n in range(2, 6)],
    )
    response = post_round(api, body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["spots"][0]["outcome"] == "suited_tie"


@pytest.mark.parametrize(
    ("dealer", "dealer_war", "card", "war_card"),
    [
        pytest.param("qs", "7H", "QH", "2c", id="lower and upper case"),
        pytest.param("10s", "7h", "10h", "10c", id="10 for T"),
        pytest.param("tS", "10H", "Td", "jc", id="mixed"),
    ],
)
def test_lower_case_and_10_forms_of_a_card_are_accepted(
    api: Api, floor: dict[str, Any], dealer: str, dealer_war: str, card: str, war_card: str
) -> None:
    body = round_body(
        "r-forms",
        dealer=dealer,
        dealer_war=dealer_war,
        spots=[{"spot": 1, "wager": 500, "card": card, "war": True, "war_card": war_card}],
    )
    response = post_round(api, body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["spots"][0]["outcome"] == "tie"


def test_identifiers_of_128_characters_are_accepted(api: Api, floor: dict[str, Any]) -> None:
    body = report_body("r" + "._:-Az09" * 15 + "1234567", {"spots[1].player": "p" * 128})
    assert len(body["round"]) == 128
    response = post_round(api, body)
    assert response.status_code == 200, response.get_json()


def test_a_wager_of_0_means_no_bet(api: Api, floor: dict[str, Any]) -> None:
    response = post_round(
        api, report_body(changes={"spots[1].wager": 0, "spots[1].player": DELETE})
    )
    assert response.status_code == 200, response.get_json()
    assert [s["spot"] for s in response.get_json()["spots"]] == [1]


def test_a_round_of_an_unknown_table_is_404_naming_the_table(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    # the key may report for T2, but no T2 is configured
    refused(redis, lambda: post_round(api, report_body(table="T2")), 404, "table")


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b"{not json", id="not JSON"),
        pytest.param(b'{"table": "T1",', id="truncated JSON"),
        pytest.param(b"[]", id="an array"),
        pytest.param(b'[{"table": "T1"}]', id="an array of an object"),
        pytest.param(b'"T1"', id="a string"),
        pytest.param(b"5", id="a number"),
        pytest.param(b"null", id="null"),
        pytest.param(b"NaN", id="NaN"),
        pytest.param(b"", id="empty"),
        pytest.param(b"\xff\xfe{}", id="not UTF-8"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="nested too deep"),
    ],
)
def test_a_round_body_that_is_not_a_json_object_is_400(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, raw: bytes
) -> None:
    refused(redis, lambda: send_raw(api, "POST", "/v1/rounds", raw, "table"), 400, None)


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"spots[1].card": "5d"}, id="another card"),
        pytest.param({"spots[1].wager": 600}, id="another wager"),
        pytest.param({"spots[2]": DELETE}, id="a spot fewer"),
        pytest.param({"spots[1].player": "p-22"}, id="another player"),
    ],
)
def test_a_different_body_under_the_same_round_is_409_and_changes_nothing(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, changes: dict[str, Any]
) -> None:
    first = post_round(api, report_body("r-dup"))
    assert first.status_code == 200
    stored = api.client.get("/v1/rounds/T1/r-dup", headers=api.keys.header("auditor"))
    refused(redis, lambda: post_round(api, report_body("r-dup", changes)), 409, "round")
    again = api.client.get("/v1/rounds/T1/r-dup", headers=api.keys.header("auditor"))
    assert again.get_json() == stored.get_json()


def test_a_disabled_table_refuses_new_rounds_but_answers_an_identical_replay(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    accepted = post_round(api, report_body("r-before"))
    assert accepted.status_code == 200
    api.put_table("T1", enabled=False)

    refused(redis, lambda: post_round(api, report_body("r-later")), 409, "table")
    before = snapshot(redis)
    other = post_round(api, report_body("r-before", {"spots[1].wager": 600}))
    assert other.status_code == 409, other.get_json()
    assert other.get_json()["error"]["field"] in ("table", "round")
    assert snapshot(redis) == before

    before = snapshot(redis)
    replay = post_round(api, report_body("r-before"))
    assert replay.status_code == 200, replay.get_json()
    assert replay.get_json() == {**accepted.get_json(), "replayed": True}
    assert snapshot(redis) == before


# -- pools -------------------------------------------------------------------------------------

POOL = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}

POOL_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("rate_bp as a float", {"rate_bp": 1.5}, "rate_bp"),
    ("rate_bp of 100.0", {"rate_bp": 100.0}, "rate_bp"),
    ("rate_bp as a string", {"rate_bp": "100"}, "rate_bp"),
    ("a negative rate_bp", {"rate_bp": -1}, "rate_bp"),
    ("rate_bp above 100%", {"rate_bp": 10_001}, "rate_bp"),
    ("rate_bp true", {"rate_bp": True}, "rate_bp"),
    ("a negative reserve_rate_bp", {"reserve_rate_bp": -20}, "reserve_rate_bp"),
    ("rates above 100% together", {"rate_bp": 9000, "reserve_rate_bp": 1001}, "reserve_rate_bp"),
    ("a negative reset", {"reset": -1}, "reset"),
    ("a reset in fractional cents", {"reset": 1000.5}, "reset"),
    ("a reset as a string", {"reset": "100000"}, "reset"),
    ("a reset of null", {"reset": None}, "reset"),
    ("a cap below the reset", {"cap": 99_999}, "cap"),
    ("a negative cap", {"cap": -5}, "cap"),
    ("a cap as a float", {"cap": 200_000.0}, "cap"),
    ("a cap as a string", {"cap": "200000"}, "cap"),
    ("an unknown policy", {"policy": "random"}, "policy"),
    ("a policy in capitals", {"policy": "SPLIT"}, "policy"),
    ("a policy as a number", {"policy": 1}, "policy"),
    ("an unknown field", {"value": 5_000_000}, "value"),
    ("an unknown field named like a meter", {"reserve": 0}, "reserve"),
]


@pytest.mark.parametrize("pool", ["main", "fresh"], ids=["update", "create"])
@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=name) for name, c, f in POOL_REFUSALS]
)
def test_a_bad_pool_body_is_refused_naming_the_field(
    api: Api,
    floor: dict[str, Any],
    redis: redis_lib.Redis,
    pool: str,
    changes: dict[str, Any],
    field: str,
) -> None:
    body = patched(POOL, changes)
    refused(
        redis,
        lambda: api.client.put(f"/v1/pools/{pool}", json=body, headers=api.keys.header("operator")),
        400,
        field,
    )


@pytest.mark.parametrize("field", ["reset", "rate_bp", "reserve_rate_bp"])
def test_a_new_pool_needs_reset_and_both_rates(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, field: str
) -> None:
    body = patched(POOL, {field: DELETE})
    refused(
        redis,
        lambda: api.client.put("/v1/pools/fresh", json=body, headers=api.keys.header("operator")),
        400,
        field,
    )


def test_an_update_keeps_what_it_leaves_out_and_null_removes_the_cap(api: Api) -> None:
    api.put_pool(
        "capped", reset=100_000, rate_bp=100, reserve_rate_bp=20, cap=200_000, policy="split"
    )
    updated = api.put_pool("capped", rate_bp=150)
    assert (updated["cap"], updated["policy"], updated["rate_bp"]) == (200_000, "split", 150)
    uncapped = api.put_pool("capped", cap=None)
    assert (uncapped["cap"], uncapped["policy"]) == (None, "split")


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"[]", b'"main"', b"null", b"[" * 100_000],
    ids=["empty", "not JSON", "an array", "a string", "null", "nested too deep"],
)
def test_a_pool_body_that_is_not_a_json_object_is_400(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, raw: bytes
) -> None:
    refused(redis, lambda: send_raw(api, "PUT", "/v1/pools/main", raw, "operator"), 400, None)


@pytest.mark.parametrize(
    "path",
    ["/v1/pools/bad%20id", "/v1/pools/bad%21", "/v1/pools/" + LONG_ID, "/v1/pools/p%C3%A9"],
    ids=["a space", "a bang", "129 characters", "an accent"],
)
def test_a_pool_id_with_bad_characters_is_400_naming_the_pool(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, path: str
) -> None:
    send = lambda: api.client.put(path, json=POOL, headers=api.keys.header("operator"))  # noqa: E731
    refused(redis, send, 400, "pool")
    assert_error(api.client.get(path), 400, "pool")


def test_a_cap_below_the_current_meter_value_is_409_naming_the_cap(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    value = api.pool()["value"]
    body = {**POOL, "cap": value - 1}
    suspended = api.client.post(
        "/v1/pools/main/suspend", json={"reason": "cap change"}, headers=api.keys.header("operator")
    )
    assert suspended.status_code == 200
    error = refused(
        redis,
        lambda: api.client.put("/v1/pools/main", json=body, headers=api.keys.header("operator")),
        409,
        "cap",
    )
    assert str(value) in error["message"]
    ok = api.client.put(
        "/v1/pools/main", json={**POOL, "cap": value}, headers=api.keys.header("operator")
    )
    assert ok.status_code == 200, ok.get_json()


def test_an_unknown_pool_is_404(api: Api, floor: dict[str, Any]) -> None:
    assert_error(api.client.get("/v1/pools/nope"), 404, "pool")


# -- tables ------------------------------------------------------------------------------------


def seed_paytable() -> dict[str, Any]:
    return SEED_PAYTABLE.to_json()


TABLE_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("5 decks", {"decks": 5}, "decks"),
    ("9 decks", {"decks": 9}, "decks"),
    ("decks as a string", {"decks": "6"}, "decks"),
    ("decks of 6.0", {"decks": 6.0}, "decks"),
    ("0 spots", {"spots": 0}, "spots"),
    ("8 spots", {"spots": 8}, "spots"),
    ("min_wager above max_wager", {"min_wager": 3000, "max_wager": 2000}, "min_wager"),
    ("a min_wager of 0", {"min_wager": 0}, "min_wager"),
    ("a negative max_wager", {"max_wager": -1}, "max_wager"),
    ("a max_wager as a float", {"max_wager": 2500.0}, "max_wager"),
    ("an unknown profile", {"profile": "vegas"}, "profile"),
    ("a jurisdiction for a profile", {"profile": "wisconsin"}, "profile"),
    ("a negative envy_min_wager", {"envy_min_wager": -1}, "envy_min_wager"),
    ("enabled as a string", {"enabled": "yes"}, "enabled"),
    ("enabled as 1", {"enabled": 1}, "enabled"),
    ("no pools", {"pools": []}, "pools"),
    ("pools as a string", {"pools": "main"}, "pools"),
    ("a pool listed twice", {"pools": ["main", "main"]}, "pools"),
    ("a pool id as a number", {"pools": [5]}, "pools[0]"),
    ("a pool id with a space", {"pools": ["main", "bad id"]}, "pools[1]"),
    ("an unknown field", {"colour": "green"}, "colour"),
    ("a paytable as a string", {"paytable": "seed"}, "paytable"),
    ("tie odds as a string", {"paytable.tie.odds": "5"}, "paytable.tie.odds"),
    ("negative tie odds", {"paytable.tie.odds": -1}, "paytable.tie.odds"),
    ("fractional tie odds", {"paytable.tie.odds": 5.5}, "paytable.tie.odds"),
    ("missing tie odds", {"paytable.tie.odds": DELETE}, "paytable.tie.odds"),
    ("a missing outcome", {"paytable.tie": DELETE}, "paytable.tie"),
    ("an outcome that is a number", {"paytable.tie": 5}, "paytable.tie"),
    ("an unknown outcome", {"paytable.royal": {"odds": 5}}, "paytable.royal"),
    ("the losing outcome", {"paytable.none": {"odds": 0}}, "paytable.none"),
    ("meter_bp above 100%", {"paytable.tie.meter_bp": 10_001}, "paytable.tie.meter_bp"),
    ("a pool without meter_bp", {"paytable.tie.pool": "main"}, "paytable.tie.pool"),
    ("an unknown pay field", {"paytable.tie.colour": 1}, "paytable.tie.colour"),
    (
        "an envy both multiple and amount",
        {"paytable.tie.envy": {"multiple": 1, "amount": 100}},
        "paytable.tie.envy",
    ),
    ("an envy multiple of 0", {"paytable.tie.envy": {"multiple": 0}}, "paytable.tie.envy.multiple"),
    (
        "a fractional envy amount",
        {"paytable.tie.envy": {"amount": 1.5}},
        "paytable.tie.envy.amount",
    ),
    (
        "a meter pay of a pool the table does not feed",
        {"paytable.tie.meter_bp": 100, "paytable.tie.pool": "side"},
        "paytable",
    ),
]


@pytest.mark.parametrize("table", ["T1", "T3"], ids=["update", "create"])
@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=name) for name, c, f in TABLE_REFUSALS]
)
def test_a_bad_table_body_is_refused_naming_the_field(
    api: Api,
    floor: dict[str, Any],
    redis: redis_lib.Redis,
    table: str,
    changes: dict[str, Any],
    field: str,
) -> None:
    api.put_pool("side")
    body = patched(
        {"pools": ["main"], "decks": 6, "spots": 5, "paytable": seed_paytable()}, changes
    )
    send = lambda: api.client.put(  # noqa: E731
        f"/v1/tables/{table}", json=body, headers=api.keys.header("operator")
    )
    refused(redis, send, 400, field)


def test_a_new_table_without_pools_is_400_naming_pools(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    send = lambda: api.client.put(  # noqa: E731
        "/v1/tables/T3", json={"decks": 6}, headers=api.keys.header("operator")
    )
    refused(redis, send, 400, "pools")


@pytest.mark.parametrize(
    ("pools", "field"),
    [(["nope"], "pools[0]"), (["main", "nope"], "pools[1]")],
    ids=["first", "second"],
)
def test_a_table_feeding_an_unknown_pool_is_404_naming_it(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, pools: list[str], field: str
) -> None:
    for table in ("T1", "T3"):
        send = lambda t=table: api.client.put(  # noqa: E731
            f"/v1/tables/{t}", json={"pools": pools}, headers=api.keys.header("operator")
        )
        refused(redis, send, 404, field)


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"decks": 8}, id="another deck count"),
        pytest.param({"decks": 7}, id="7 decks"),
        pytest.param({"paytable.tie.odds": 6}, id="another tie pay"),
        pytest.param({"paytable.suited_four_of_a_kind.meter_bp": 5000}, id="another meter pay"),
        pytest.param({"paytable.tie.envy": {"multiple": 1}}, id="an envy the others lack"),
    ],
)
def test_a_linked_table_playing_another_game_is_409(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, changes: dict[str, Any]
) -> None:
    body = patched({"pools": ["main"], "paytable": seed_paytable()}, changes)
    send = lambda: api.client.put(  # noqa: E731
        "/v1/tables/T3", json=body, headers=api.keys.header("operator")
    )
    # the error names what differs, and the table it differs from
    difference = "decks" if "decks" in changes else "paytable"
    error = refused(redis, send, 409, difference)
    assert "'T1'" in error["message"] or "'T2'" in error["message"], error


def test_a_linked_table_cannot_change_its_game_under_the_other(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    api.put_table("T3", spots=7)
    send = lambda: api.client.put(  # noqa: E731
        "/v1/tables/T1", json={"decks": 8}, headers=api.keys.header("operator")
    )
    refused(redis, send, 409, "decks")


def test_an_unknown_table_is_404(api: Api, floor: dict[str, Any]) -> None:
    assert_error(api.client.get("/v1/tables/T7", headers=api.keys.header("operator")), 404, "table")


# -- journal -----------------------------------------------------------------------------------

JOURNAL_REFUSALS = [
    ("after=-1", "after"),
    ("after=abc", "after"),
    ("after=1.5", "after"),
    ("after=", "after"),
    ("after=%C2%B2", "after"),  # a superscript 2: str.isdigit() says yes, int() says no
    ("pool=bad%20id", "pool"),
    ("pool=", "pool"),
    ("pool=" + LONG_ID, "pool"),
    # the last day of the calendar has no end (it was a 500); dates run 1970 to 9998
    ("from=9999-12-31", "from"),
    ("to=9999-12-31", "to"),
    ("from=9999-12-31T23:00:00-05:00", "from"),
    ("to=0001-01-01T00:00:00Z", "to"),
]
LIMIT_REFUSALS = [
    ("limit=0", "limit"),
    ("limit=-5", "limit"),
    ("limit=abc", "limit"),
    ("limit=1e3", "limit"),
    ("limit=%C2%B2", "limit"),
]


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [("/v1/journal", q, f) for q, f in JOURNAL_REFUSALS + LIMIT_REFUSALS]
    + [("/v1/journal.csv", q, f) for q, f in JOURNAL_REFUSALS],
)
def test_a_bad_journal_query_is_400_naming_the_parameter(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, path: str, query: str, field: str
) -> None:
    if not query.startswith("pool="):
        query += "&pool=main"
    send = lambda: api.client.get(f"{path}?{query}", headers=api.keys.header("auditor"))  # noqa: E731
    refused(redis, send, 400, field)


@pytest.mark.parametrize("path", ["/v1/journal", "/v1/journal.csv"])
def test_the_journal_of_an_unknown_pool_is_404(api: Api, floor: dict[str, Any], path: str) -> None:
    assert_error(
        api.client.get(f"{path}?pool=nope", headers=api.keys.header("auditor")), 404, "pool"
    )


def test_the_journal_accepts_a_limit_of_1000(api: Api, floor: dict[str, Any]) -> None:
    response = api.client.get(
        "/v1/journal?pool=main&after=0&limit=1000", headers=api.keys.header("auditor")
    )
    assert response.status_code == 200, response.get_json()


# -- payouts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("status=bogus", "status"),
        ("status=PENDING", "status"),
        ("status=", "status"),
        ("limit=0", "limit"),
        ("limit=abc", "limit"),
        ("limit=%C2%B2", "limit"),
    ],
)
def test_a_bad_payout_filter_is_400_naming_the_parameter(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, query: str, field: str
) -> None:
    send = lambda: api.client.get(  # noqa: E731
        f"/v1/payouts?{query}", headers=api.keys.header("operator")
    )
    refused(redis, send, 400, field)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param(b"", "reason", id="no body"),
        pytest.param(b"{}", "reason", id="an empty object"),
        pytest.param(b'{"reason": ""}', "reason", id="an empty reason"),
        pytest.param(b'{"reason": "   "}', "reason", id="a blank reason"),
        pytest.param(b'{"reason": 5}', "reason", id="a reason as a number"),
        pytest.param(b'{"reason": null}', "reason", id="a reason of null"),
        pytest.param(b'{"reason": "' + b"x" * 501 + b'"}', "reason", id="a reason too long"),
        pytest.param(b'{"reason": "short", "colour": 1}', "colour", id="an unknown field"),
        pytest.param(b'{"reason": ', None, id="not JSON"),
        pytest.param(b'["short"]', None, id="an array"),
    ],
)
def test_a_dispute_without_a_proper_reason_is_400(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, raw: bytes, field: str | None
) -> None:
    path = f"/v1/payouts/{floor['payout']}/dispute"
    refused(redis, lambda: send_raw(api, "POST", path, raw, "operator"), 400, field)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param(
            b'{"witness": "SAM", "slip": "HP-1", "colour": 1}', "colour", id="an unknown field"
        ),
        pytest.param(
            b'{"witness": "SAM", "slip": "HP-1", "reason": 5}', "reason", id="a note as a number"
        ),
        pytest.param(b"{", None, id="not JSON"),
        pytest.param(b"", "witness", id="an empty form"),
        pytest.param(b'{"witness": "SAM"}', "slip", id="no slip"),
    ],
)
def test_a_bad_confirmation_body_is_400(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, raw: bytes, field: str | None
) -> None:
    path = f"/v1/payouts/{floor['payout']}/confirm"
    refused(redis, lambda: send_raw(api, "POST", path, raw, "operator"), 400, field)


@pytest.mark.parametrize(
    ("method", "action"), [("POST", "confirm"), ("POST", "dispute"), ("GET", "")]
)
def test_an_unknown_payout_is_404(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, method: str, action: str
) -> None:
    path = "/v1/payouts/P999999" + (f"/{action}" if action else "")
    body = b'{"reason": "no such hand"}'
    if action == "confirm":
        body = b'{"reason": "no such hand", "witness": "SAM", "slip": "HP-1"}'
    send = lambda: send_raw(api, method, path, body, "operator")  # noqa: E731
    refused(redis, send, 404, "payout")


def test_a_payout_id_with_bad_characters_is_400(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    send = lambda: send_raw(api, "POST", "/v1/payouts/P%201/confirm", b"", "operator")  # noqa: E731
    refused(redis, send, 400, "payout")


def test_a_paid_jackpot_cannot_be_disputed(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    payout = floor["payout"]
    body = b'{"witness": "SAM", "slip": "HP-1"}'
    confirmed = send_raw(api, "POST", f"/v1/payouts/{payout}/confirm", body, "operator")
    assert confirmed.status_code == 200, confirmed.get_json()
    path = f"/v1/payouts/{payout}/dispute"
    send = lambda: send_raw(api, "POST", path, b'{"reason": "late claim"}', "operator")  # noqa: E731
    assert refused(redis, send, 409, None)["code"] == "payout_state"


# -- adjustments -------------------------------------------------------------------------------

ADJUSTMENT = {"id": "adj-1", "amount": 500, "reason": "meter correction, ticket 17"}

ADJUSTMENT_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("a missing id", {"id": DELETE}, "id"),
    ("an id with a space", {"id": "adj 1"}, "id"),
    ("an id of 129 characters", {"id": LONG_ID}, "id"),
    ("an id as a number", {"id": 1}, "id"),
    ("a missing amount", {"amount": DELETE}, "amount"),
    ("a fractional amount", {"amount": 1.5}, "amount"),
    ("an amount of 500.0", {"amount": 500.0}, "amount"),
    ("an amount as a string", {"amount": "500"}, "amount"),
    ("an amount of true", {"amount": True}, "amount"),
    ("an amount of null", {"amount": None}, "amount"),
    ("an amount of 0", {"amount": 0}, "amount"),
    ("units of a whole cent", {"units": 10_000}, "units"),
    ("fractional units", {"units": 1.5}, "units"),
    ("a missing reason", {"reason": DELETE}, "reason"),
    ("an empty reason", {"reason": ""}, "reason"),
    ("a reason as a number", {"reason": 17}, "reason"),
    ("an unknown target", {"target": "bank"}, "target"),
    ("an unknown field", {"who": "me"}, "who"),
]


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=name) for name, c, f in ADJUSTMENT_REFUSALS]
)
def test_a_bad_adjustment_is_400_naming_the_field(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, changes: dict[str, Any], field: str
) -> None:
    body = patched(ADJUSTMENT, changes)
    send = lambda: api.client.post(  # noqa: E731
        "/v1/pools/main/adjustments", json=body, headers=api.keys.header("operator")
    )
    refused(redis, send, 400, field)


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"500"], ids=["empty", "bad", "array", "num"])
def test_an_adjustment_body_that_is_not_a_json_object_is_400(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, raw: bytes
) -> None:
    path = "/v1/pools/main/adjustments"
    refused(redis, lambda: send_raw(api, "POST", path, raw, "operator"), 400, None)


def test_an_adjustment_of_an_unknown_pool_is_404(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    send = lambda: api.client.post(  # noqa: E731
        "/v1/pools/nope/adjustments", json=ADJUSTMENT, headers=api.keys.header("operator")
    )
    refused(redis, send, 404, "pool")


@pytest.mark.parametrize("target", ["visible", "reserve"])
def test_an_adjustment_that_would_go_negative_is_409_naming_the_amount(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, target: str
) -> None:
    body = {**ADJUSTMENT, "amount": -(10**9), "target": target}
    send = lambda: api.client.post(  # noqa: E731
        "/v1/pools/main/adjustments", json=body, headers=api.keys.header("operator")
    )
    refused(redis, send, 409, "amount")


def test_an_adjustment_above_the_cap_is_409_naming_the_amount(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    value = api.pool()["value"]
    api.put_pool(cap=value + 10)
    body = {**ADJUSTMENT, "amount": 11}
    send = lambda: api.client.post(  # noqa: E731
        "/v1/pools/main/adjustments", json=body, headers=api.keys.header("operator")
    )
    refused(redis, send, 409, "amount")


def test_an_adjustment_id_reused_with_another_body_is_409_naming_the_id(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    path = "/v1/pools/main/adjustments"
    first = api.client.post(path, json=ADJUSTMENT, headers=api.keys.header("operator"))
    assert first.status_code == 200, first.get_json()
    body = {**ADJUSTMENT, "amount": 501}
    send = lambda: api.client.post(path, json=body, headers=api.keys.header("operator"))  # noqa: E731
    refused(redis, send, 409, "id")
    before = snapshot(redis)
    replay = api.client.post(path, json=ADJUSTMENT, headers=api.keys.header("operator"))
    assert replay.status_code == 200 and replay.get_json()["replayed"] is True
    assert snapshot(redis) == before


# -- the store not answering -------------------------------------------------------------------


def test_when_the_store_does_not_answer_a_round_is_503_and_nothing_is_applied(
    tmp_path: Path,
) -> None:
    # A server of this test's own: the session's shared server is never stopped.
    server = start_server(tmp_path / "redis")
    try:
        settings = Settings(
            data_dir=tmp_path / "var", key_cache_seconds=0.0, redis_timeout_seconds=0.5
        )
        app = create_app(settings, server.url)
        services = app.extensions["jackpot"]
        table_key = services.credentials.create(Role.TABLE, frozenset({"T1"}))[0]
        operator_key = issue(services, Role.OPERATOR, (), "Dana Reyes")
        client: FlaskClient = app.test_client()
        api = Api(client, Keys(operator_key, "", "", table_key, ""))
        api.put_pool()
        api.put_table("T1")
        assert client.get("/readyz").status_code == 200
        store = redis_lib.Redis.from_url(server.url, decode_responses=True)
        before = snapshot(store)
        store.close()

        server.stop()
        down = post_round(api, report_body("r-down"))
        assert_error(down, 503, None)
        assert down.headers.get("Retry-After")
        readyz = client.get("/readyz")
        assert readyz.status_code == 503
        assert client.get("/healthz").status_code == 200

        server.start()
        store = redis_lib.Redis.from_url(server.url, decode_responses=True)
        assert snapshot(store) == before
        assert client.get("/readyz").status_code == 200
        # the table adapter's replay of the unsent report is then applied, once
        retried = post_round(api, report_body("r-down"))
        assert retried.status_code == 200, retried.get_json()
        assert retried.get_json()["replayed"] is False
        assert post_round(api, report_body("r-down")).get_json()["replayed"] is True
        store.close()
    finally:
        server.stop()


# -- reports -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        pytest.param({}, 400, "pool", id="no pool"),
        pytest.param({"pool": "bad id"}, 400, "pool", id="a pool with a space"),
        pytest.param({"pool": "main", "from": -1}, 400, "from", id="a negative from"),
        pytest.param({"pool": "main", "from": 1.5}, 400, "from", id="a fractional from"),
        pytest.param({"pool": "main", "from": 10, "to": 10}, 400, "to", id="an empty period"),
        pytest.param({"pool": "main", "to": "now"}, 400, "to", id="to as a string"),
        pytest.param({"pool": "main", "colour": 1}, 400, "colour", id="an unknown field"),
        pytest.param({"pool": "nope"}, 404, "pool", id="an unknown pool"),
    ],
)
def test_a_bad_reconciliation_request_is_refused_naming_the_field(
    api: Api,
    floor: dict[str, Any],
    redis: redis_lib.Redis,
    body: dict[str, Any],
    status: int,
    field: str,
) -> None:
    send = lambda: api.client.post(  # noqa: E731
        "/v1/reports/reconcile", json=body, headers=api.keys.header("auditor")
    )
    refused(redis, send, status, field)


@pytest.mark.parametrize(
    "report_id",
    ["r.1", "r:1", "%3B", "%C3%BC", "x" * 200],
    ids=["a dot", "a colon", "a semicolon", "a u-umlaut", "200 characters"],
)
def test_a_report_id_that_cannot_exist_is_a_4xx_not_a_crash(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, report_id: str
) -> None:
    before = snapshot(redis)
    response = api.client.get(f"/v1/reports/{report_id}", headers=api.keys.header("auditor"))
    assert response.status_code in (400, 404), response.get_data(as_text=True)[:300]
    assert_error(response, response.status_code, response.get_json()["error"].get("field"))
    assert response.get_json()["error"].get("field") in (None, "report", "report_id")
    assert snapshot(redis) == before


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "1969-12-31"])
def test_a_gaming_day_outside_the_calendar_is_400_naming_the_day(api: Api, day: str) -> None:
    for path in (f"/v1/accounting/days/{day}", f"/v1/accounting/days/{day}/tables.csv"):
        error = assert_error(api.client.get(path, headers=api.keys.header("auditor")), 400, "day")
        assert error["code"] == "out_of_range" and "9998-12-31" in error["message"]
