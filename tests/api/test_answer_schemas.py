"""The answers the API gives are the ones its document publishes (jackpot.domain.answers):
a payout's full record, taken through every kind of step, validates against the served
schema, whose fields are the record's own (a field the API writes and the document does not
name fails here). A payout in every status, read every way and answered by every step, is
the published `Payout` and holds what the scripts stored, key for key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from rq import Queue, SimpleWorker

from jackpot.bootstrap import Services
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.store.keys import Keys as StoreKeys
from tests.support.api import Api, hit, round_body
from tests.support.payout_steps import CONFIRM, operators, step, two_person_control
from tests.support.stores import Store


@pytest.fixture
def approval(services: Services) -> Iterator[Services]:
    """Two-person control from $500.00, for this test only (the app is shared)."""
    yield from two_person_control(services)


def judge(api: Api, name: str, value: Any) -> None:
    served = api.client.get("/openapi.json").get_json()
    root = {"$ref": f"#/components/schemas/{name}", "components": served["components"]}
    jsonschema.Draft202012Validator(root).validate(value)


def record(api: Api, payout: str) -> dict[str, Any]:
    r = api.client.get(f"/v1/payouts/{payout}/record", headers=api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def test_a_payouts_record_through_every_kind_of_step_is_the_published_answer(
    api: Api, approval: Services
) -> None:
    people = operators(approval)
    dana, lee, kim = people["dana"], people["lee"], people["kim"]
    payout = hit(api, "r-answers")
    judge(api, "PayoutRecord", record(api, payout))
    taken = [
        ("dispute", {"reason": "camera check"}, dana),
        ("void", {"reason": "misdeal on review"}, dana),  # asked: a second person decides
        ("void/refuse", {"reason": "one slip only: checked"}, kim),
        ("confirm", CONFIRM, dana),  # awaiting a second person's approval
        ("void", {"reason": "misdeal on review"}, dana),
        ("approve", None, lee),  # the pay approved: the void asked is withdrawn
    ]
    for name, body, header in taken:
        r = step(api, payout, name, body, header)
        assert r.status_code in (200, 202), (name, r.get_json())
        judge(api, "PayoutRecord", record(api, payout))
    steps = [s["step"] for s in record(api, payout)["steps"]]
    assert set(steps) >= {"won", "disputed", "void_requested", "void_refused", "confirmed"}
    assert steps[-1] == "approved", steps


def test_a_step_the_document_does_not_name_fails_the_published_schema(api: Api) -> None:
    written = record(api, hit(api, "r-answers-strict"))
    written["steps"][0]["surprise"] = True
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "PayoutRecord", written)


def test_the_register_is_answered_as_published(api: Api, approval: Services) -> None:
    operators(approval)  # people with keys: Dana (two), Lee, Kim
    listed = api.client.get("/v1/people", headers=api.keys.header("auditor")).get_json()
    assert len(listed["people"]) >= 3
    for person in listed["people"]:
        judge(api, "Person", person)
        one = api.client.get(f"/v1/people/{person['id']}", headers=api.keys.header("auditor"))
        assert one.get_json() == person


def test_a_page_of_the_payouts_history_is_answered_as_published(api: Api) -> None:
    for round_id in ("r-page-1", "r-page-2", "r-page-3"):
        hit(api, round_id)
    for query in ("limit=2", "limit=1000", "status=pending&limit=1", "table=NOSUCH"):
        r = api.client.get(f"/v1/payouts/history?{query}", headers=api.keys.header("auditor"))
        assert r.status_code == 200, r.get_json()
        judge(api, "PayoutHistory", r.get_json())
    first = api.client.get("/v1/payouts/history?limit=1", headers=api.keys.header("auditor"))
    assert first.get_json()["next"] is not None and len(first.get_json()["payouts"]) == 1


def test_a_linked_groups_game_is_answered_as_published_read_and_changed(api: Api) -> None:
    hit(api, "r-game")  # pool main, table T1
    operator = api.keys.header("operator")
    read = api.client.get("/v1/pools/main/game", headers=operator)
    assert read.status_code == 200, read.get_json()
    judge(api, "Game", read.get_json())
    assert "status" not in read.get_json()
    for decks, status in ((8, "changed"), (8, "unchanged"), (6, "changed")):
        body = {"decks": decks, "reason": "the floor's new shoes"}
        changed = api.client.put("/v1/pools/main/game", json=body, headers=operator)
        assert changed.status_code == 200, changed.get_json()
        judge(api, "Game", changed.get_json())
        assert (changed.get_json()["decks"], changed.get_json()["status"]) == (decks, status)


def test_a_pools_public_read_and_its_meters_are_answered_as_published(api: Api) -> None:
    hit(api, "r-pools")  # pool main, a hand level, and a jackpot on it
    api.put_pool("myst", reset=50, rate_bp=1_000, reserve_rate_bp=0, level="mystery",
                 trigger_low=1_000, trigger_high=5_000)  # fmt: skip
    operator = api.keys.header("operator")
    for pool in api.client.get("/v1/pools").get_json()["pools"]:
        judge(api, "Pool", pool)
    myst = api.client.get("/v1/pools/myst").get_json()
    judge(api, "Pool", myst)
    assert "trigger" in myst and "trigger_low" not in myst and "last_hits" in myst
    for pool in api.client.get("/v1/meters", headers=operator).get_json()["pools"]:
        judge(api, "Meters", pool)
    meters = api.client.get("/v1/pools/myst/meters", headers=operator).get_json()
    judge(api, "Meters", meters)
    assert (meters["trigger_low"], meters["trigger_high"]) == (1_000, 5_000)
    steps = [
        ("post", "/v1/pools/main/suspend", {"reason": "count"}),
        ("post", "/v1/pools/main/resume", {"reason": "counted"}),
        ("put", "/v1/pools/side-answers", {"reset": 5_000, "rate_bp": 50, "reserve_rate_bp": 0}),
    ]
    for method, path, body in steps:
        r = getattr(api.client, method)(path, json=body, headers=operator)
        assert r.status_code in (200, 201), r.get_json()
        judge(api, "Meters", r.get_json())


def test_a_creation_answers_201_and_the_document_says_so(api: Api) -> None:
    """The document lists every status an operation answers with (an examiner found the
    creations' 201 and the voids' 202 missing)."""
    operator = api.keys.header("operator")
    served = api.client.get("/openapi.json").get_json()
    body = {"reset": 5_000, "rate_bp": 50, "reserve_rate_bp": 0}
    created = api.client.put("/v1/pools/created-answers", json=body, headers=operator)
    assert created.status_code == 201, created.get_json()
    answers = served["paths"]["/v1/pools/{pool}"]["put"]["responses"]
    schema = answers["201"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/Meters"}
    judge(api, "Meters", created.get_json())
    assert "201" in served["paths"]["/v1/tables/{table}"]["put"]["responses"]
    for path in ("/v1/rounds/{table}/{round}/void", "/v1/rounds/{table}/{round}/void/approve"):
        assert "202" in served["paths"][path]["post"]["responses"], path


def test_a_rounds_answer_its_replay_and_its_read_with_a_void_are_as_published(api: Api) -> None:
    payout = hit(api, "r-answer-round")
    body = round_body(
        "r-answer-plain",
        spots=[{"spot": 1, "wager": 500, "card": "4d", "player": "p-881"},
               {"spot": 2, "wager": 500, "card": "Qd"}],
    )  # fmt: skip
    first = api.report(body).get_json()
    judge(api, "RoundResult", first)
    assert "player" not in first["spots"][1] and "hand_pays" not in first
    again = api.report(body).get_json()
    judge(api, "RoundResult", again)
    assert again == {**first, "replayed": True}
    read = api.client.get("/v1/rounds/T1/r-answer-round", headers=api.keys.header("auditor"))
    judge(api, "RoundResult", read.get_json())
    assert read.get_json()["jackpots"][0]["id"] == payout
    voided = api.client.post(
        "/v1/rounds/T1/r-answer-plain/void",
        json={"reason": "misdeal"},
        headers=api.keys.header("operator"),
    )
    assert voided.status_code == 200, voided.get_json()
    read = api.client.get("/v1/rounds/T1/r-answer-plain", headers=api.keys.header("auditor"))
    judge(api, "RoundResult", read.get_json())
    assert read.get_json()["void"]["status"] == "void"
    written = dict(first, surprise=1)
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "RoundResult", written)


def test_a_refusal_is_the_published_error_body(linked: Api) -> None:
    api = linked
    bad = api.report(round_body("r-answer-bad", spots=[{"spot": 1, "wager": 500, "card": "1x"}]))
    unknown = api.client.get("/v1/payouts/P999999", headers=api.keys.header("auditor"))
    anonymous = api.client.get("/v1/payouts/P999999")
    for refused, status in ((bad, 400), (unknown, 404), (anonymous, 401)):
        assert refused.status_code == status, refused.get_json()
        judge(api, "Error", refused.get_json())
    assert bad.get_json()["error"]["field"] == "spots[0].card"
    assert "field" not in anonymous.get_json()["error"]
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Error", {"error": {**bad.get_json()["error"], "hint": "x"}})


# -- a payout, in every status ----------------------------------------------------------------


def stored(services: Services, payout: str) -> dict[str, Any]:
    """The payout as the scripts wrote it into its group's hash of payouts."""
    group = services.groups.of_payout(payout)
    return dict(json.loads(group.client.hget(group.keys.payouts, payout)))


def read_every_way(api: Api, services: Services, payout: str) -> dict[str, Any]:
    """The payout as each read answers it, each its published answer; one payout's read
    answers what the store holds, key for key, and the signed checkpoint covering it."""
    auditor = api.keys.header("auditor")
    one = api.client.get(f"/v1/payouts/{payout}", headers=auditor).get_json()
    judge(api, "CoveredPayout", one)
    assert {k: v for k, v in one.items() if k != "checkpoint"} == stored(services, payout)
    listed = api.client.get("/v1/payouts?limit=10000", headers=auditor).get_json()
    judge(api, "Payouts", listed)
    assert [p for p in listed["payouts"] if p["id"] == payout] == [stored(services, payout)]
    found = api.client.get("/v1/payouts/history", query_string={"payout": payout},
                           headers=auditor)  # fmt: skip
    assert found.status_code == 200, found.get_json()
    judge(api, "PayoutHistory", found.get_json())
    judge(api, "PayoutRecord", record(api, payout))
    return dict(one)


def taken(api: Api, services: Services, payout: str, name: str, body: Any,
          header: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    """A step's answer: the published one, the payout as stored after it and `changed`."""
    r = step(api, payout, name, body, header)
    assert r.status_code in (200, 202), (name, r.get_json())
    judge(api, "PayoutAfterStep", r.get_json())
    after = {k: v for k, v in r.get_json().items() if k != "changed"}
    assert after == stored(services, payout), name
    return read_every_way(api, services, payout)


def test_a_payout_paid_and_voided_without_a_second_person_is_answered_as_published(
    api: Api, services: Services
) -> None:
    dana = operators(services)["dana"]
    payout = hit(api, "r-payout-plain")
    assert read_every_way(api, services, payout)["status"] == "pending"
    disputed = taken(api, services, payout, "dispute", {"reason": "camera check"}, dana)
    assert (disputed["status"], disputed["note"]) == ("disputed", "camera check")
    paid = taken(api, services, payout, "confirm", CONFIRM, dana)
    assert paid["status"] == "paid" and (paid["paid_by_id"], paid["witness_id"]) == (
        "SAM-OKAFOR", "ANA-RUIZ")  # fmt: skip
    voided = taken(api, services, payout, "void", {"reason": "misdeal on review"}, dana)
    assert (voided["status"], voided["voided_from"]) == ("void", "paid")


def test_a_payout_under_two_person_control_is_answered_as_published(
    api: Api, approval: Services
) -> None:
    people = operators(approval)
    dana, lee, kim = people["dana"], people["lee"], people["kim"]
    payout = hit(api, "r-payout-two")
    awaiting = taken(api, approval, payout, "confirm", CONFIRM, dana)
    assert awaiting["status"] == "awaiting_approval" and awaiting["confirmer_id"]
    asked = taken(api, approval, payout, "void", {"reason": "slip misread"}, dana)
    assert asked["void_request"]["from"] == "awaiting_approval"
    refused = taken(api, approval, payout, "void/refuse", {"reason": "checked"}, kim)
    assert "void_request" not in refused
    approved = taken(api, approval, payout, "approve", None, lee)
    assert approved["status"] == "paid" and approved["approver_id"]
    asked = taken(api, approval, payout, "void", {"reason": "misdeal on review"}, dana)
    assert (asked["status"], asked["void_request"]["from"]) == ("paid", "paid")
    voided = taken(api, approval, payout, "void/approve", {"reason": "seen"}, lee)
    assert voided["status"] == "void" and voided["void_requester_id"] and voided["void_approver"]


LOSSES = ("2c", "3d", "4h")  # under the dealer's queen: no meter line


def test_a_trigger_levels_hit_is_answered_as_published_with_its_reveal(
    api: Api, services: Services
) -> None:
    api.put_pool()
    api.put_pool("mhb-answers", reset=20, rate_bp=1_000, reserve_rate_bp=0, cap=70,
                 level="must_hit_by")  # fmt: skip
    api.put_table(pools=["main", "mhb-answers"])
    losses = [{"spot": i + 1, "wager": 100, "card": card} for i, card in enumerate(LOSSES)]
    for n in range(1, 40):  # 10 cents a bet: the 50-cent range in at most 5 rounds
        won = api.report(round_body(f"r-mhb-{n}", spots=losses)).get_json()["jackpots"]
        if won:
            break
    [jackpot] = won
    payout = read_every_way(api, services, jackpot["id"])
    assert payout["level"] == "must_hit_by" and 21 <= payout["trigger"] <= 70
    assert payout["salt"] and len(payout["commitment"]) == 64
    dana = operators(services)["dana"]
    assert taken(api, services, jackpot["id"], "confirm", CONFIRM, dana)["status"] == "paid"


def test_hand_pays_are_answered_as_published_with_their_kind(
    api: Api, services: Services, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fixed and envy pays from $1,000.00 held as hand pays (JACKPOT_HANDPAY_CENTS), then
    voided with their round."""
    for group in {MAIN_GROUP, store.group or MAIN_GROUP}:
        monkeypatch.setattr(services.groups.of(group).rounds, "_handpay_cents", 100_000)
    api.put_pool()
    api.put_table()
    aces = {"card": "As", "war": True, "war_card": "As"}
    spots = [{"spot": 1, "wager": 500, "player": "p1", **aces},
             {"spot": 2, "wager": 500, "card": "4d", "player": "p2"}]  # fmt: skip
    answer = api.report(round_body("r-held", dealer="As", dealer_war="As", spots=spots))
    assert answer.status_code == 200, answer.get_json()
    held = {h["kind"]: h["id"] for h in answer.get_json()["hand_pays"]}
    for kind, payout in held.items():
        shown = read_every_way(api, services, payout)
        player = {"fixed": "p1", "envy": "p2"}[kind]
        assert (shown["kind"], shown["status"], shown["player"]) == (kind, "pending", player)
    operator = api.keys.header("operator")
    voided = api.client.post("/v1/rounds/T1/r-held/void", json={"reason": "malfunction"},
                             headers=operator)  # fmt: skip
    assert voided.status_code == 200, voided.get_json()
    for payout in [*held.values(), answer.get_json()["jackpots"][0]["id"]]:
        shown = read_every_way(api, services, payout)
        assert (shown["status"], shown["voided_from"]) == ("void", "pending")


# -- a table ----------------------------------------------------------------------------------


def test_a_table_written_read_listed_and_beating_is_answered_as_published(
    api: Api, services: Services
) -> None:
    api.put_pool()
    operator = api.keys.header("operator")
    created = api.client.put("/v1/tables/T1", json={"pools": ["main"]}, headers=operator)
    assert created.status_code == 201 and created.get_json()["status"] == "created"
    judge(api, "Table", created.get_json())
    for body, status in (
        ({"asset": "A-7", "location": "Pit 3"}, "updated"),
        ({"enabled": False, "reason": "felt change"}, "updated"),
        ({"enabled": False}, "unchanged"),
        ({"enabled": True, "reason": "felt changed"}, "updated"),
    ):
        written = api.client.put("/v1/tables/T1", json=body, headers=operator)
        assert written.status_code == 200 and written.get_json()["status"] == status
        judge(api, "Table", written.get_json())
    beat = api.client.post("/v1/tables/T1/heartbeat", headers=api.keys.header("table"))
    assert beat.status_code == 200 and beat.get_json()["pools"] == {"main": "running"}
    judge(api, "Heartbeat", beat.get_json())
    assert beat.get_json()["side_bet_open"] is True
    api.client.post("/v1/pools/main/suspend", json={"reason": "count"}, headers=operator)
    beat = api.client.post("/v1/tables/T1/heartbeat", headers=api.keys.header("table"))
    judge(api, "Heartbeat", beat.get_json())
    assert beat.get_json()["side_bet_open"] is False
    read = api.client.get("/v1/tables/T1", headers=operator).get_json()
    judge(api, "Table", read)
    assert read["online"] is True and read["asset"] == "A-7" and "status" not in read
    judge(api, "Tables", api.client.get("/v1/tables", headers=operator).get_json())
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Table", {**read, "surprise": 1})


def test_a_tables_counts_and_their_acknowledgement_are_answered_as_published(
    linked: Api, services: Services
) -> None:
    api = linked
    day = api.report(round_body("r-counts")).get_json()["gaming_day"]
    counts = {"day": day, "rounds": 3, "side_bets": 1, "handle": 500, "fixed": 0, "envy": 0,
              "jackpot": 0, "voids": 0}  # fmt: skip
    table = api.keys.header("table")
    sent = api.client.post("/v1/tables/T1/counts", json={"days": [counts]}, headers=table)
    assert sent.status_code == 200 and sent.get_json()["days"][0]["matches"] is None
    judge(api, "TableCountsChecked", sent.get_json())
    services.groups.counts_of("T1").compare()
    sent = api.client.post("/v1/tables/T1/counts", json={"days": [counts]}, headers=table)
    judge(api, "TableCountsChecked", sent.get_json())
    [checked] = sent.get_json()["days"]
    assert checked["matches"] is False and checked["differences"]["rounds"]["table"] == 3
    services.groups.counts_of("T1").compare()
    operator = api.keys.header("operator")
    shown = api.client.get("/v1/tables/T1", headers=operator).get_json()
    assert shown["counts_check"]["in_sight"] is True
    judge(api, "Table", shown)
    body = {"day": day, "reason": "two rounds reentered by hand"}
    for status in ("acknowledged", "unchanged"):
        ack = api.client.post("/v1/tables/T1/counts/acknowledge", json=body, headers=operator)
        assert ack.status_code == 200 and ack.get_json()["status"] == status, ack.get_json()
        judge(api, "TableCountsAcknowledged", ack.get_json())
    shown = api.client.get("/v1/tables/T1", headers=operator).get_json()
    assert shown["counts_check"]["acknowledged"]["reason"] == body["reason"]
    judge(api, "Table", shown)
    judge(api, "Tables", api.client.get("/v1/tables", headers=operator).get_json())
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "TableCountsChecked", {**sent.get_json(), "surprise": 1})


@pytest.mark.main_group
def test_a_tables_move_is_answered_as_published(api: Api, store: Store) -> None:
    a, b = store.groups_apart(2)
    api.put_pool("east", group=a)
    api.put_pool("west", group=b)
    api.put_table("T1", pools=["east"], enabled=False, reason="closing east")
    body = {"pools": ["west"], "reason": "east link closed for the night"}
    operator = api.keys.header("operator")
    for status in ("moved", "unchanged"):
        r = api.client.post("/v1/tables/T1/move", json=body, headers=operator)
        assert r.status_code == 200 and r.get_json()["status"] == status, r.get_json()
        judge(api, "TableMoved", r.get_json())
        assert (r.get_json()["to"], r.get_json()["config"]["group"]) == (b, b)
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "TableMoved", {**r.get_json(), "surprise": 1})


# -- a sign ----------------------------------------------------------------------------------


def test_a_signs_definition_written_read_listed_and_deleted_is_answered_as_published(
    api: Api,
) -> None:
    api.put_pool()
    operator = api.keys.header("operator")
    plain = {"levels": [{"pool": "main"}]}
    named = {"levels": [{"pool": "main", "name": "Grand"}], "title": "War!",
             "branding": "Pit 3", "orientation": "portrait", "currency": "EUR",
             "locale": "de-DE"}  # fmt: skip
    for body, status, code in ((plain, "created", 201), (named, "updated", 200),
                               (named, "unchanged", 200)):  # fmt: skip
        written = api.client.put("/v1/signs/lobby", json=body, headers=operator)
        assert (written.status_code, written.get_json()["status"]) == (code, status)
        judge(api, "SignDefinition", written.get_json())
    read = api.client.get("/v1/signs/lobby").get_json()
    judge(api, "SignDefinition", read)
    assert read["levels"] == [{"pool": "main", "name": "Grand"}] and "status" not in read
    api.client.put("/v1/signs/bar", json=plain, headers=operator)
    listed = api.client.get("/v1/signs", headers=operator).get_json()
    judge(api, "Signs", listed)
    assert [s["levels"][0]["name"] for s in listed["signs"]] in ([None, "Grand"], ["Grand", None])
    deleted = api.client.delete("/v1/signs/lobby", headers=operator)
    assert deleted.status_code == 200, deleted.get_json()
    judge(api, "SignDeleted", deleted.get_json())
    gone = api.client.get("/v1/signs/lobby")
    assert gone.status_code == 404
    judge(api, "Error", gone.get_json())
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "SignDefinition", {**read, "surprise": 1})


# -- the probes and the session --------------------------------------------------------------


@pytest.mark.main_group
def test_the_probes_are_answered_as_published_healthy_inoperable_and_store_down(
    api: Api, services: Services, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    alive = api.client.get("/healthz")
    assert alive.status_code == 200
    judge(api, "Liveness", alive.get_json())
    ready = api.client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["problems"] == [], ready.get_json()
    judge(api, "Readiness", ready.get_json())
    api.put_pool()
    with store.client() as main:
        main.hincrby(StoreKeys("jackpot").pool("main"), "value", 10_000)  # behind its back
    assert not services.health.run().operable
    inoperable = api.client.get("/readyz")
    assert inoperable.status_code == 503 and inoperable.get_json()["state"] == "inoperable"
    judge(api, "Readiness", inoperable.get_json())
    monkeypatch.setattr(Services, "ready", lambda self: False)  # the store does not answer
    down = api.client.get("/readyz")
    assert down.status_code == 503
    assert down.get_json() == {"status": "unavailable", "store": "down"}
    judge(api, "Readiness", down.get_json())
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Readiness", {**ready.get_json(), "surprise": 1})


def test_the_session_is_answered_as_published_for_a_person_and_a_bare_key(
    api: Api, services: Services
) -> None:
    dana = operators(services)["dana"]
    for header in (dana, api.keys.header("auditor")):
        session = api.client.get("/v1/session", headers=header)
        assert session.status_code == 200, session.get_json()
        judge(api, "Session", session.get_json())
    assert session.get_json()["role"] == "auditor"
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Session", {**session.get_json(), "surprise": 1})


# -- a pool's adjustment and retirement, a reconciliation -------------------------------------


def test_an_adjustment_and_a_retirement_are_answered_as_published(linked: Api) -> None:
    api = linked
    operator = api.keys.header("operator")
    adjustments = (
        {"id": "adj-1", "amount": 150, "reason": "count"},
        {"id": "adj-2", "amount": 25, "units": 3, "target": "reserve", "reason": "count"},
        {"id": "adj-3", "amount": -25, "units": -3, "reason": "count"},
    )
    for body in adjustments:
        for replayed in (False, True):
            r = api.client.post("/v1/pools/main/adjustments", json=body, headers=operator)
            assert r.status_code == 200 and r.get_json()["replayed"] is replayed, r.get_json()
            judge(api, "Adjusted", r.get_json())
    api.put_pool("old")
    body = {"id": "t-1", "to": "main", "reason": "re-themed"}
    first = api.client.post("/v1/pools/old/retire", json=body, headers=operator)
    assert first.status_code == 200 and "moved" in first.get_json(), first.get_json()
    judge(api, "Retired", first.get_json())
    again = api.client.post("/v1/pools/old/retire", json=body, headers=operator)
    assert again.status_code == 200 and again.get_json()["replayed"] is True, again.get_json()
    judge(api, "Retired", again.get_json())
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Retired", {**first.get_json(), "surprise": 1})


def test_a_reconciliation_queued_and_finished_is_answered_as_published(
    linked: Api, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = linked
    assert api.report(round_body("r-reconcile")).status_code == 200
    auditor = api.keys.header("auditor")
    queued = api.client.post("/v1/reports/reconcile", json={"pool": "main"}, headers=auditor)
    assert queued.status_code == 202 and queued.get_json()["status"] == "queued"
    judge(api, "Report", queued.get_json())
    path = f"/v1/reports/{queued.get_json()['id']}"
    assert api.client.get(path, headers=auditor).get_json() == queued.get_json()
    # the worker's job, run here with these services
    monkeypatch.setattr("jackpot.jobs.reconcile.services", lambda: services)
    queue = services.audit._queue  # the queue's own client: RQ keeps bytes
    connection = queue._r
    SimpleWorker([Queue(queue._name, connection=connection)], connection=connection).work(
        burst=True
    )
    finished = api.client.get(path, headers=auditor).get_json()
    assert finished["status"] == "finished" and finished["result"]["balanced"], finished
    judge(api, "Report", finished)
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Report", {**finished, "result": {**finished["result"], "surprise": 1}})


# -- the journals and the operators' activity -------------------------------------------------


def test_the_journals_and_the_activity_are_answered_as_published(linked: Api) -> None:
    api = linked
    assert api.report(round_body("r-journal")).status_code == 200
    operator, auditor = api.keys.header("operator"), api.keys.header("auditor")
    body = {"id": "adj-journal", "amount": 100, "reason": "count"}
    assert (
        api.client.post("/v1/pools/main/adjustments", json=body, headers=operator).status_code
        == 200
    )
    for query in ("pool=main", "", "limit=1", "table=T1&from=2000-01-01"):
        r = api.client.get(f"/v1/journal?{query}", headers=auditor)
        assert r.status_code == 200, r.get_json()
        judge(api, "Journal", r.get_json())
    assert api.client.get("/v1/journal?pool=main", headers=auditor).get_json()["entries"]
    activity = api.client.get("/v1/activity", headers=operator).get_json()
    assert activity["activity"], activity
    judge(api, "Activity", activity)
    with pytest.raises(jsonschema.ValidationError):
        judge(api, "Journal", {"pool": None, "entries": [], "surprise": 1})
