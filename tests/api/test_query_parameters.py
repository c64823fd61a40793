"""A query parameter given empty is refused, naming it, on every read that takes parameters
(`status=` is not "any status", `before=` not the first page); a payout searched by a
number below 1 is refused (docs/DECISIONS.md D246). What each read does with its parameters
is in the tests of that read."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.support.api import Api, hit
from tests.support.checks import assert_error

pytestmark = pytest.mark.one_store  # refused before the store is read

_TAKES = re.compile(r"\(it takes: (.*)\)$")


def parameters(api: Api, path: str) -> list[str]:
    """The query parameters `path` takes, as its refusal of an unknown one lists them."""
    answer = api.client.get(f"{path}?no_such_parameter=1", headers=api.keys.header("auditor"))
    if answer.status_code != 400:
        answer.close()  # a page's answer holds its file open until closed
        return []  # a read that takes no query (and ignores one)
    takes = _TAKES.search(answer.get_json()["error"]["message"])
    assert takes, answer.get_json()
    return [] if takes[1] == "none" else takes[1].split(", ")


def reads(app: Flask) -> list[str]:
    """Every GET route without a variable, and the accounting range's files."""
    plain = [
        r.rule for r in app.url_map.iter_rules() if "GET" in (r.methods or ()) and "<" not in r.rule
    ]
    return sorted(plain) + ["/v1/accounting/pools.csv"]


def test_a_parameter_given_empty_is_400_naming_it_on_every_read(app: Flask, api: Api) -> None:
    asked = {path: parameters(api, path) for path in reads(app)}
    assert {"/v1/payouts", "/v1/payouts/history", "/v1/journal", "/v1/activity"} <= {
        path for path, names in asked.items() if names
    }, asked
    for path, names in asked.items():
        for name in names:
            for empty in ("", " ", "%20%09"):
                answer = api.client.get(
                    f"{path}?{name}={empty}", headers=api.keys.header("auditor")
                )
                error = assert_error(answer, 400, name)
                assert error["code"] == "empty", (path, name, error)


@pytest.mark.parametrize("payout", ["0", "-1", "P000000", "p0", "east:0", "P-1"])
def test_a_payout_numbered_below_1_is_not_searched_for(api: Api, payout: str) -> None:
    answer = api.client.get(
        "/v1/payouts/history", query_string={"payout": payout}, headers=api.keys.header("auditor")
    )
    assert assert_error(answer, 400, "payout")["code"] == "out_of_range"


@pytest.mark.parametrize("payout", [" 1", "1 ", "+1", "main:P1", "main:1", "1e0", "P 1"])
def test_a_payout_is_named_exactly(api: Api, payout: str) -> None:
    """The examiner's finds (issue 38): "+1" (a space, as a query decodes it), " 1" and
    "1 " found P000001, and "main:P1" named no payout the main group can hold."""
    answer = api.client.get(
        "/v1/payouts/history", query_string={"payout": payout}, headers=api.keys.header("auditor")
    )
    assert_error(answer, 400, "payout")


def test_a_payout_is_searched_by_its_number_or_its_id(api: Api) -> None:
    payout = hit(api)
    for asked in (payout, payout.lower(), str(int(payout[1:]))):
        answer = api.client.get(
            "/v1/payouts/history",
            query_string={"payout": asked},
            headers=api.keys.header("auditor"),
        )
        assert answer.status_code == 200, answer.get_json()
        assert [p["id"] for p in answer.get_json()["payouts"]] == [payout], asked


@pytest.mark.parametrize("status", [",", "paid,", ",paid", "paid,,void"])
def test_an_empty_status_in_the_list_is_refused(api: Api, status: str) -> None:
    answer = api.client.get(
        "/v1/payouts/history", query_string={"status": status}, headers=api.keys.header("auditor")
    )
    assert assert_error(answer, 400, "status")["code"] == "empty"


@pytest.mark.parametrize(
    ("path", "name"),
    [("/v1/checkpoints", "after"), ("/v1/checkpoints", "limit"), ("/v1/journal", "after")],
)
def test_an_integer_parameter_reads_leading_zeros_and_size_alike(
    api: Api, path: str, name: str
) -> None:
    def ask(value: str) -> tuple[int, str | None]:
        answer = api.client.get(f"{path}?{name}={value}", headers=api.keys.header("auditor"))
        body = answer.get_json()
        return answer.status_code, body["error"]["code"] if answer.status_code == 400 else None

    assert ask("1") == ask("0001") == ask("0" * 40 + "1") == (200, None)
    for big in (str(2**63), str(2**64), "0" * 5 + str(2**64), "9" * 40):
        assert ask(big) == (400, "out_of_range"), big
    for bad in ("1.0", "-1", "+1", "1e3", "%EF%BC%91"):  # the last a fullwidth 1
        assert ask(bad) == (400, "not_an_integer"), bad
