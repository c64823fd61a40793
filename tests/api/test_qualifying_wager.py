"""Qualifying wagers (docs/RULES.md §3): a meter pay is for its line's qualifying wager (the
seed's $5); a smaller bet wins its part of the share, or nothing, as the line says, exactly;
fixed odds and envy scale with the wager as always."""

from __future__ import annotations

import copy

from jackpot.domain.paytable import SEED_PAYTABLE
from tests.support.api import Api, round_body
from tests.support.checks import assert_error

ACES = {"card": "As", "war": True, "war_card": "As"}


def aces(api: Api, round_id: str, *wagers: int) -> dict:
    spots = [{"spot": i + 1, "wager": w, **ACES} for i, w in enumerate(wagers)]
    r = api.report(round_body(round_id, dealer="As", dealer_war="As", spots=spots))
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def test_a_dollar_bet_wins_a_fifth_of_the_meter_and_a_five_dollar_bet_all_of_it(api: Api) -> None:
    api.put_pool(reset=100_000, rate_bp=0, reserve_rate_bp=0)
    api.put_table()
    small = aces(api, "r1", 100)["spots"][0]
    assert (small["jackpot"], small["pay"]) == (20_000, 100_000), "a fifth; 1000 to 1 on $1"
    assert api.pool()["value"] == 100_000, "the $800 left, topped back up to reset"
    big = aces(api, "r2", 2_500)["spots"][0]
    assert big["jackpot"] == 100_000, "all of it, not more: the meter is one prize"


def test_a_line_may_pay_nothing_below_its_qualifying_wager(api: Api) -> None:
    api.put_pool(reset=100_000, rate_bp=0, reserve_rate_bp=0)
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["suited_four_of_a_kind"]["below_qualifying"] = "nothing"
    api.put_table(paytable=paytable)
    answer = aces(api, "r1", 499)
    assert answer["spots"][0]["jackpot"] == 0 and answer["jackpots"] == []
    assert answer["spots"][0]["pay"] == 499_000, "its fixed pay stands"
    assert aces(api, "r2", 500)["spots"][0]["jackpot"] == 100_000


def test_a_qualifying_wager_is_refused_where_it_means_nothing(api: Api) -> None:
    api.put_pool()
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["tie"] = {"odds": 5, "qualifying_wager": 500}
    r = api.client.put("/v1/tables/T1", json={"pools": ["main"], "paytable": paytable},
                       headers=api.keys.header("operator"))  # fmt: skip
    assert assert_error(r, 400, "paytable.tie.qualifying_wager")
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["suited_four_of_a_kind"] |= {"qualifying_wager": 5_000, "below_qualifying": "nothing"}
    r = api.client.put("/v1/tables/T1", json={"pools": ["main"], "paytable": paytable},
                       headers=api.keys.header("operator"))  # fmt: skip
    assert "no bet could ever win" in assert_error(r, 400, "paytable")["message"]
