"""A Stadium war is always communal (SPEC §2, API.md "Round report"): `community_war` may be
left out at a stadium table, `false` with two different war cards is refused, and a tied
hand whose bets all surrendered may show the community war card."""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_lib

from tests.support.api import Api, round_body
from tests.support.checks import DELETE, patched, post_round, refused


@pytest.fixture
def stadium(api: Api) -> Api:
    """Pool `arena` and the stadium table T2 feeding it."""
    api.put_pool("arena")
    api.put_table("T2", pools=["arena"], profile="stadium")
    return api


def war_round(round_id: str, **changes: Any) -> dict[str, Any]:
    """Hands 1 and 2 tie the dealer's nine: p-1 goes to war on hand 1, p-2 surrenders on
    hand 2; hand 3 loses."""
    body = round_body(
        round_id,
        table="T2",
        dealer="9s",
        dealer_war="Kd",
        spots=[
            {"spot": 1, "card": "9h", "war_card": "Ac", "bets": [
                {"player": "p-1", "wager": 500, "war": True},
            ]},
            {"spot": 2, "card": "9d", "bets": [{"player": "p-2", "wager": 500}]},
            {"spot": 3, "card": "2h", "bets": [{"player": "p-3", "wager": 500}]},
        ],
    )  # fmt: skip
    return patched(body, changes)


def settled(api: Api, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The answer without its round id and when it was settled, and how much the meter
    rose."""
    before = api.pool("arena")["value"]
    response = post_round(api, body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer.pop("round") == body["round"]
    answer.pop("pools")
    answer.pop("settled_at")
    return answer, api.pool("arena")["value"] - before


@pytest.mark.parametrize(
    "flag",
    [pytest.param(True, id="true"), pytest.param(False, id="false")],
)
def test_community_war_left_out_settles_as_the_explicit_flag(stadium: Api, flag: bool) -> None:
    omitted = settled(stadium, war_round("s-omitted"))
    explicit = settled(stadium, war_round(f"s-{flag}", community_war=flag))
    assert omitted == explicit
    assert omitted[0]["spots"][0]["outcome"] != "none"  # the war was settled, not ignored


def test_the_digest_is_of_the_body_as_sent(stadium: Api, redis: redis_lib.Redis) -> None:
    # An identical resend is a replay; the same round written another way is another body.
    first = post_round(stadium, war_round("s-1"))
    assert first.status_code == 200, first.get_json()
    replay = post_round(stadium, war_round("s-1"))
    assert replay.get_json() == {**first.get_json(), "replayed": True}
    send = lambda: post_round(stadium, war_round("s-1", community_war=True))  # noqa: E731
    refused(redis, send, 409, "round")


def test_a_surrendered_tie_may_show_the_community_war_card(stadium: Api) -> None:
    without = settled(stadium, war_round("s-plain"))
    shown = settled(stadium, war_round("s-shown", **{"spots[1].war_card": "ac"}))
    assert shown == without
    stored = stadium.client.get("/v1/rounds/T2/s-shown", headers=stadium.keys.header("auditor"))
    assert stored.status_code == 200


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param(
            {"community_war": False, "spots[1].bets[0].war": True, "spots[1].war_card": "Qc"},
            "spots[1].war_card",
            id="false with two different war cards",
        ),
        pytest.param(
            {"spots[1].bets[0].war": True, "spots[1].war_card": "Qc"},
            "spots[1].war_card",
            id="two different war cards, the flag left out",
        ),
        pytest.param(
            {"spots[1].war_card": "Qc"},
            "spots[1].war_card",
            id="a surrendered tie showing another card",
        ),
        pytest.param(
            {
                "spots[0].bets[0].war": False,
                "spots[0].war_card": DELETE,
                "spots[1].war_card": "Ac",
                "dealer.war_card": DELETE,
            },
            "spots[1].war_card",
            id="a surrendered tie showing a card when no hand went to war",
        ),
    ],
)
def test_war_cards_that_are_not_one_community_card_are_refused(
    stadium: Api, redis: redis_lib.Redis, changes: dict[str, Any], field: str
) -> None:
    refused(redis, lambda: post_round(stadium, war_round("s-bad", **changes)), 400, field)
