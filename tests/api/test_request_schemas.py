"""Through the real app, each endpoint that reads a body answers generated bodies as its
published schema promises (tests/request_bodies.py), and every such endpoint documents the
413 it gives a body over the limit."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jackpot.api.body import MAX_BODY_BYTES
from jackpot.api.openapi import document
from jackpot.domain.config import MAX_WAGER
from jackpot.domain.fields import Identifier
from tests.support.api import Api, round_body
from tests.support.checks import assert_error
from tests.support.request_bodies import (
    bodies,
    check_verdict,
    plausible_report,
    request_bodies,
    request_schema,
    schema_valid,
)
from tests.support.stores import SharedApp

OPERATIONS = request_bodies()
EXAMPLES = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
POOL = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}
WIDE = {"decks": 8, "min_wager": 1, "max_wager": MAX_WAGER}


@pytest.fixture
def world(api: Api, shared: SharedApp) -> dict[str, Any]:
    """Built once per store layout, restored for each test."""
    return shared.world("request-schemas", lambda: build_world(api))


def build_world(api: Api) -> dict[str, Any]:
    """Pool `main` fed by live table T1, pool `arena` by stadium table T2 (the table key may
    report for both), and a pending jackpot payout."""
    api.put_pool()
    api.put_pool("arena")
    api.put_table("T1", **WIDE)
    api.put_table("T2", pools=["arena"], profile="stadium", **WIDE)
    api.put_pool("p1")  # updated by the generated bodies, where p2 is created
    api.put_pool("tp")
    api.put_table("t1", pools=["tp"])  # likewise t1 and t2
    hit = api.report(
        round_body(
            "r-hit",
            dealer="As",
            dealer_war="As",
            spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        )
    )
    assert hit.status_code == 200, hit.get_json()
    return {"payout": hit.get_json()["jackpots"][0]["id"]}


def held(
    operation: tuple[str, str],
    body: Any,
    response: Any,
    answers: Counter[int],
    creating: bool = True,
    state_codes: frozenset[str] = frozenset(),
) -> None:
    """The app's answer to `body` is the one the schema promises; `state_codes` are the 400,
    404 and 409 codes the operation documents for a valid body that meets the stored state
    (a 400 such as `return_too_high` names a field, but it is the tables that refuse it)."""
    schema = request_schema(OPERATIONS[operation])
    status = response.status_code
    error = (response.get_json() or {}).get("error", {}) if status >= 300 else {}
    # a documented refusal by the stored state comes after the body was accepted: it counts
    # as an accepted body (the validator's other side), not as a refused one
    accepted = status < 300 or error.get("code") in state_codes
    answers[200 if accepted else status // 100 * 100] += 1
    assert status < 500, (status, response.get_data(as_text=True))
    if status < 300:
        check_verdict(schema, body, None, creating)
        return
    if status == 400 and error.get("code") not in state_codes:
        check_verdict(schema, body, (error.get("field"), error["code"]), creating)
        return
    assert error["code"] in state_codes, (status, error, body)
    # the stored state is consulted only once the body has been checked
    assert schema_valid(schema, body), (status, error, body)


def generated(run: Callable[[Any, Counter[int]], None]) -> None:
    """Run `run(data, answers)` over generated examples; both bodies the validator accepts
    (answered 2xx, or refused by the stored state after it) and bodies it refuses (400) must
    come up."""
    answers = Counter[int]()

    @EXAMPLES
    @given(data=st.data())
    def example(data: Any) -> None:
        run(data, answers)

    example()
    assert answers[200] and answers[400], answers


def send(api: Api, method: str, path: str, body: Any, role: str) -> Any:
    # json.dumps, not json=: the test client sends no body at all for json=None
    return api.client.open(
        path,
        method=method,
        data=json.dumps(body),
        content_type="application/json",
        headers=api.keys.header(role),
    )


def _identifiers(values: Any) -> list[str]:
    valid = Identifier()
    out = []
    for value in values if isinstance(values, list) else []:
        try:
            out.append(valid.check(value, "pool"))
        except Exception:  # noqa: BLE001 - an invalid id is the validator's to refuse
            pass
    return out


def test_pool_put_answers_as_its_schema_promises(api: Api, world: Any) -> None:
    operation = ("/v1/pools/{pool}", "PUT")

    def run(data: Any, answers: Counter[int]) -> None:
        pool = data.draw(st.sampled_from(["p1", "p2"]), label="pool")
        body = data.draw(bodies(operation), label="body")
        creating = api.client.get(f"/v1/pools/{pool}").status_code == 404
        if not creating:  # parameters change only while the link is suspended
            send(api, "POST", f"/v1/pools/{pool}/suspend", {"reason": "change"}, "operator")
        response = send(api, "PUT", f"/v1/pools/{pool}", body, "operator")
        states = frozenset({"cap_below_value", "link_group"})
        held(operation, body, response, answers, creating, states)

    generated(run)


def test_table_put_answers_as_its_schema_promises(api: Api, world: Any) -> None:
    operation = ("/v1/tables/{table}", "PUT")
    headers = api.keys.header("operator")

    def run(data: Any, answers: Counter[int]) -> None:
        table = data.draw(st.sampled_from(["t1", "t2"]), label="table")
        body = data.draw(bodies(operation), label="body")
        for pool in _identifiers(body.get("pools") if isinstance(body, dict) else None):
            # the pools a body names exist: what is left to refuse it is the body
            if api.client.get(f"/v1/pools/{pool}").status_code == 404:
                api.put_pool(pool)
        creating = api.client.get(f"/v1/tables/{table}", headers=headers).status_code == 404
        response = send(api, "PUT", f"/v1/tables/{table}", body, "operator")
        held(operation, body, response, answers, creating, frozenset({"linked_tables_differ"}))

    generated(run)


def test_an_adjustment_answers_as_its_schema_promises(api: Api, world: Any) -> None:
    operation = ("/v1/pools/{pool}/adjustments", "POST")

    def run(data: Any, answers: Counter[int]) -> None:
        body = data.draw(bodies(operation), label="body")
        response = send(api, "POST", "/v1/pools/main/adjustments", body, "operator")
        held(operation, body, response, answers, state_codes=frozenset({"adjustment_refused"}))

    generated(run)


def test_a_round_report_answers_as_its_schema_promises(api: Api, world: Any) -> None:
    operation = ("/v1/rounds", "POST")

    def run(data: Any, answers: Counter[int]) -> None:
        table = data.draw(st.sampled_from(["T1", "T2"]), label="table")
        plausible = data.draw(st.booleans(), label="plausible")

        def prepare(body: Any) -> Any:
            body = _naming("table", table)(body)
            return plausible_report(body, table == "T2") if plausible else body

        body = data.draw(bodies(operation, prepare), label="body")
        # a report for a table its key does not cover is 403 before the body is read further
        assume(not isinstance(body, dict) or body.get("table") in ("T1", "T2", None))
        response = send(api, "POST", "/v1/rounds", body, "table")
        held(
            operation,
            body,
            response,
            answers,
            state_codes=frozenset({"round_conflict", "round_expired"}),
        )

    generated(run)


def test_a_reconciliation_request_answers_as_its_schema_promises(api: Api, world: Any) -> None:
    operation = ("/v1/reports/reconcile", "POST")

    def run(data: Any, answers: Counter[int]) -> None:
        body = data.draw(bodies(operation, _naming("pool", "main")), label="body")
        response = send(api, "POST", "/v1/reports/reconcile", body, "auditor")
        held(operation, body, response, answers, state_codes=frozenset({"unknown_pool"}))

    generated(run)


def test_a_payout_note_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    def run(data: Any, answers: Counter[int]) -> None:
        action = data.draw(
            st.sampled_from(
                ["confirm", "approve", "dispute", "void", "void/approve", "void/refuse"]
            ),
            label="action",
        )
        operation = (f"/v1/payouts/{{payout}}/{action}", "POST")
        body = data.draw(bodies(operation), label="body")
        url = f"/v1/payouts/{world['payout']}/{action}"
        response = send(api, "POST", url, body, "operator")
        # a valid step may meet a payout in another status: refused, or stale (`expect`)
        codes = frozenset(
            {
                "payout_state",
                "payout_changed",
                "second_person_required",
                "no_void_awaiting",
                "unknown_person",
                "person_inactive",
            }
        )
        held(operation, body, response, answers, state_codes=codes)

    generated(run)


def test_a_round_void_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    every_spot = [{"spot": s, "wager": 500, "card": "4d"} for s in range(1, 8)]
    assert api.report(round_body("r-void", spots=every_spot)).status_code == 200

    def run(data: Any, answers: Counter[int]) -> None:
        action = data.draw(st.sampled_from(["void", "void/approve", "void/refuse"]), label="action")
        operation = (f"/v1/rounds/{{table}}/{{round}}/{action}", "POST")
        body = data.draw(bodies(operation), label="body")
        response = send(api, "POST", f"/v1/rounds/T1/r-void/{action}", body, "operator")
        # nothing awaits approval: no void of this test is held
        held(operation, body, response, answers, state_codes=frozenset({"no_void_awaiting"}))

    generated(run)


def test_a_tables_counts_answer_as_their_schema_promises(api: Api, world: dict[str, Any]) -> None:
    operation = ("/v1/tables/{table}/counts", "POST")

    def run(data: Any, answers: Counter[int]) -> None:
        body = data.draw(bodies(operation), label="body")
        response = send(api, "POST", "/v1/tables/T1/counts", body, "table")
        held(operation, body, response, answers)

    generated(run)


def test_a_table_counts_acknowledgement_answers_as_its_schema_promises(
    api: Api, world: dict[str, Any]
) -> None:
    operation = ("/v1/tables/{table}/counts/acknowledge", "POST")
    # T1 sent no counts: a valid body meets no comparison of its day (404), never a 5xx
    unknown = frozenset({"unknown_counts", "counts_match", "counts_changed"})

    def run(data: Any, answers: Counter[int]) -> None:
        body = data.draw(bodies(operation), label="body")
        response = send(api, "POST", "/v1/tables/T1/counts/acknowledge", body, "operator")
        held(operation, body, response, answers, state_codes=unknown)

    generated(run)


def test_a_link_change_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    def run(data: Any, answers: Counter[int]) -> None:
        action = data.draw(st.sampled_from(["suspend", "resume"]), label="action")
        operation = (f"/v1/pools/{{pool}}/{action}", "POST")
        body = data.draw(bodies(operation), label="body")
        response = send(api, "POST", f"/v1/pools/tp/{action}", body, "operator")
        held(operation, body, response, answers)

    generated(run)


def test_a_staged_change_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    def run(data: Any, answers: Counter[int]) -> None:
        action = data.draw(st.sampled_from(["staged", "staged/cancel"]), label="action")
        operation = (f"/v1/pools/{{pool}}/{action}", "POST")
        body = data.draw(bodies(operation), label="body")
        response = send(api, "POST", f"/v1/pools/tp/{action}", body, "operator")
        # the tables feeding tp may refuse a valid change: a line paying a percentage of a
        # level made must-hit-by, or terms returning too much (D224, D229)
        states = frozenset({"trigger_level", "return_too_high", "trigger_range_in_force"})
        held(operation, body, response, answers, creating=False, state_codes=states)

    generated(run)


def test_a_sign_put_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    operation = ("/v1/signs/{sign}", "PUT")

    def public_pools(body: Any) -> Any:
        """Levels naming the world's pool: what is left to refuse is the body itself."""
        if isinstance(body, dict) and isinstance(body.get("levels"), list):
            levels = body["levels"]
            body = {**body, "levels": [
                {**lv, "pool": "tp" if i == 0 else f"tp{i}"} if isinstance(lv, dict) else lv
                for i, lv in enumerate(levels)
            ]}  # fmt: skip
        return body

    for i in range(1, 8):
        api.put_pool(f"tp{i}")

    def run(data: Any, answers: Counter[int]) -> None:
        body = data.draw(bodies(operation).map(public_pools), label="body")
        response = send(api, "PUT", "/v1/signs/lobby", body, "operator")
        held(operation, body, response, answers)

    generated(run)


def test_a_retirement_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    fresh = iter(range(10**6))

    def run(data: Any, answers: Counter[int]) -> None:
        operation = ("/v1/pools/{pool}/retire", "POST")
        body = data.draw(bodies(operation).map(_naming("to", "main")), label="body")
        pool = f"retiring-{next(fresh)}"  # a pool no table feeds, retired by a valid body
        api.put_pool(pool)
        response = send(api, "POST", f"/v1/pools/{pool}/retire", body, "operator")
        # an id drawn twice with another body is refused
        held(operation, body, response, answers, state_codes=frozenset({"adjustment_refused"}))

    generated(run)


def test_a_move_answers_as_its_schema_promises(api: Api, world: dict[str, Any]) -> None:
    fresh = iter(range(10**6))
    api.put_pool("east", group="east")
    api.put_pool("home")  # the moving tables' own link: T1 of the world plays another game

    def run(data: Any, answers: Counter[int]) -> None:
        operation = ("/v1/tables/{table}/move", "POST")
        body = data.draw(bodies(operation).map(_naming("pools", ["east"])), label="body")
        table = f"moving-{next(fresh)}"  # a disabled table, moved by a valid body
        api.put_table(table, pools=["home"], enabled=False)
        response = send(api, "POST", f"/v1/tables/{table}/move", body, "operator")
        held(operation, body, response, answers)

    generated(run)


def test_every_body_reading_operation_is_exercised_here() -> None:
    exercised = {
        ("/v1/pools/{pool}", "PUT"),
        ("/v1/tables/{table}", "PUT"),
        ("/v1/pools/{pool}/adjustments", "POST"),
        ("/v1/rounds", "POST"),
        ("/v1/reports/reconcile", "POST"),
        # generated game changes are refused by the linked tables' state nearly always (a
        # generated paytable pays from pools they do not feed): its schema is held to the
        # validator in tests/unit/test_request_schemas.py, its answers in test_linked_game.py
        ("/v1/pools/{pool}/game", "PUT"),
        ("/v1/payouts/{payout}/confirm", "POST"),
        ("/v1/payouts/{payout}/dispute", "POST"),
        ("/v1/payouts/{payout}/approve", "POST"),
        ("/v1/payouts/{payout}/void", "POST"),
        ("/v1/payouts/{payout}/void/approve", "POST"),
        ("/v1/payouts/{payout}/void/refuse", "POST"),
        ("/v1/rounds/{table}/{round}/void", "POST"),
        ("/v1/rounds/{table}/{round}/void/approve", "POST"),
        ("/v1/rounds/{table}/{round}/void/refuse", "POST"),
        ("/v1/tables/{table}/counts", "POST"),
        ("/v1/tables/{table}/counts/acknowledge", "POST"),
        ("/v1/pools/{pool}/suspend", "POST"),
        ("/v1/pools/{pool}/resume", "POST"),
        ("/v1/pools/{pool}/retire", "POST"),
        ("/v1/tables/{table}/move", "POST"),
        ("/v1/pools/{pool}/staged", "POST"),
        ("/v1/pools/{pool}/staged/cancel", "POST"),
        ("/v1/signs/{sign}", "PUT"),
    }
    assert set(OPERATIONS) == exercised


def _naming(key: str, value: Any) -> Callable[[Any], Any]:
    """Name an existing table or pool in a generated body: the rest is what is tested."""
    return lambda body: {**body, key: value} if isinstance(body, dict) else body


# -- 413 -----------------------------------------------------------------------------------


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in document()["paths"].items()
        for method, op in item.items()
        if path not in ("/", "/console")  # static pages: a file handle the test leaves open
    ]


@pytest.mark.parametrize(
    ("path", "method", "op"), _operations(), ids=[f"{m} {p}" for p, m, _ in _operations()]
)
def test_an_operation_answers_413_to_a_body_over_the_limit_exactly_when_it_documents_it(
    api: Api, world: dict[str, Any], path: str, method: str, op: dict[str, Any]
) -> None:
    url = path.replace("{payout}", world["payout"]).replace("{table}", "T1")
    url = (
        url.replace("{round}", "r-hit")
        .replace("{report_id}", "x")
        .replace("{pool}", "main")
        .replace("{sign}", "lobby")
    )
    headers = api.keys.header(op["x-roles"][0]) if op["x-roles"] else {}
    big = b'{"pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    response = api.client.open(
        url, method=method.upper(), data=big, headers=headers, content_type="application/json"
    )
    documented = "413" in op["responses"]
    assert (response.status_code == 413) is documented, (response.status_code, documented)
    if documented:
        assert_error(response, 413, None)
