"""The controller refuses a game whose side bet would return 100% or more over the long run:
a table's paytable, a pool's rates or reset (now or staged), a linked group's new game; the
400 names the field and gives the figure, and nothing changes."""

from __future__ import annotations

import copy

from jackpot.domain.paytable import SEED_PAYTABLE
from tests.support.api import Api
from tests.support.checks import assert_error

OPERATOR = "operator"


def generous() -> dict:
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["tie"] = {"odds": 12}
    return paytable


def test_a_paytable_returning_more_than_it_takes_is_refused(api: Api) -> None:
    api.put_pool()
    api.put_table()
    r = api.client.put("/v1/tables/T1", json={"paytable": generous()},
                       headers=api.keys.header(OPERATOR))  # fmt: skip
    error = assert_error(r, 400, "paytable")
    assert (
        error["code"] == "return_too_high"
        and "% of its wager over the long run" in (error["message"])
    )
    shown = api.client.get("/v1/tables/T1", headers=api.keys.header(OPERATOR)).get_json()
    assert shown["paytable"]["tie"] == {"odds": 5}, "unchanged"
    game = api.client.put("/v1/pools/main/game", json={"paytable": generous(), "reason": "x"},
                          headers=api.keys.header(OPERATOR))  # fmt: skip
    assert assert_error(game, 400, "paytable")["code"] == "return_too_high"


def test_a_pools_terms_that_would_make_its_tables_return_too_much_are_refused(api: Api) -> None:
    api.put_pool()
    api.put_table()
    header = api.keys.header(OPERATOR)
    assert api.client.post("/v1/pools/main/suspend", json={"reason": "change"},
                           headers=header).status_code == 200  # fmt: skip
    # 40% of every wager onto the meter on top of 74% in fixed pays
    r = api.client.put("/v1/pools/main", json={"rate_bp": 4_000}, headers=header)
    error = assert_error(r, 400, "rate_bp")
    assert error["code"] == "return_too_high" and "pool main" in error["message"]
    assert api.meters()["rate_bp"] == 100
    later = {"rate_bp": 4_000, "reason": "later"}
    staged = api.client.post("/v1/pools/main/staged", json=later, headers=header)
    assert assert_error(staged, 400, "rate_bp")["code"] == "return_too_high"
    assert api.meters()["staged"] is None
    # a pool no table feeds is only a pool: its tables are checked when they link to it
    api.put_pool("spare", rate_bp=4_000)
