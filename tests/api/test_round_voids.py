"""Voids of settled rounds (docs/RULES.md §6): a void takes the round's pays, handle, meter
contributions and jackpots back as new journal entries, once; a paid jackpot is refused by
name; some spots only may be voided; from the hand-pay approval threshold a second person
approves. The books balance after every void, to the unit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from jackpot.domain.reconcile import reconcile
from tests.support.api import Api, hit, round_body
from tests.support.checks import HAND_PAY, assert_error
from tests.support.people import issue

# two players at T1 against a queen: spot 1 wins, spot 2 loses; no envy
TWO_SPOTS = [
    {"spot": 1, "wager": 500, "card": "Kd", "player": "p1"},
    {"spot": 2, "wager": 2_500, "card": "4c", "player": "p2"},
]


def void(api: Api, round_id: str, body: Any, header: Any = None, table: str = "T1") -> Any:
    return api.client.post(
        f"/v1/rounds/{table}/{round_id}/void",
        json=body,
        headers=header or api.keys.header("operator"),
    )


def approve(api: Api, round_id: str, header: Any, table: str = "T1") -> Any:
    return api.client.post(f"/v1/rounds/{table}/{round_id}/void/approve", headers=header)


def books(api: Api) -> tuple[int, int]:
    m = api.meters()
    assert m["invariant_holds"], m
    return int(m["value_units"]), int(m["reserve_units"])


def operator(services: Services, label: str) -> dict[str, str]:
    secret = issue(services, Role.OPERATOR, (), label)
    return {"Authorization": f"Bearer {secret}"}


def house(api: Api) -> list[dict[str, Any]]:
    """The house journal of the group of pool main (and its table)."""
    group = api.meters()["group"]
    r = api.client.get(f"/v1/journal?group={group}&limit=5000", headers=api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return list(r.get_json()["entries"])


def balanced(api: Api) -> bool:
    return reconcile("main", api.journal(), 0, 2**62).balanced


def test_a_void_takes_the_rounds_contributions_back_once(api: Api) -> None:
    api.put_pool()
    api.put_table()
    before = books(api)
    r = api.report(round_body("r1", spots=TWO_SPOTS))
    assert r.status_code == 200, r.get_json()
    assert books(api) != before

    done = void(api, "r1", {"reason": "shuffler malfunction"})
    assert done.status_code == 200, done.get_json()
    body = done.get_json()
    assert (body["result"], body["status"], body["spots"], body["whole"]) == (
        "voided", "void", [1, 2], True,
    )  # fmt: skip
    (entry,) = body["voids"]
    assert (entry["wagered"], entry["reason"]) == (3_000, "shuffler malfunction")
    assert books(api) == before, "the meter and the reserve are where they were"
    (pool_void,) = [e for e in api.journal() if e["type"] == "void"]
    assert (pool_void["round"], pool_void["contributions_units"]) == ("r1", 3_000 * 120)
    (house_void,) = [e for e in house(api) if e["type"] == "void"]
    assert (house_void["wagered"], house_void["whole"], house_void["bets"]) == (3_000, 1, 2)
    assert balanced(api)

    again = void(api, "r1", {"reason": "clicked twice"})
    assert again.status_code == 200 and again.get_json()["result"] == "unchanged"
    assert len([e for e in house(api) if e["type"] == "void"]) == 1
    assert books(api) == before

    shown = api.client.get("/v1/rounds/T1/r1", headers=api.keys.header("auditor")).get_json()
    assert shown["void"]["status"] == "void" and shown["spots"][0]["wager"] == 500


def test_a_voided_jackpot_returns_to_the_meter_with_its_reset(api: Api) -> None:
    """The round never happened: the meter and reserve are back where they were, and the
    house's seed of the reset is back with the house."""
    api.put_pool()
    api.put_table()
    wagers = [{"spot": s, "wager": 2_500, "card": "4d"} for s in range(1, 7)]
    assert api.report(round_body("r0", spots=wagers)).status_code == 200
    before = books(api)
    assert before[1] > 0, "a reserve to fund the reset from, and the house's seed beyond it"
    payout = hit(api, "r-hit")
    assert books(api) != before
    r = void(api, "r-hit", {"reason": "second face-up card"})
    assert r.status_code == 200, r.get_json()
    assert books(api) == before
    got = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor")).get_json()
    assert (got["status"], got["voided_from"]) == ("void", "pending")
    assert got["note"] == "round voided: second face-up card"
    assert balanced(api)
    assert api.meters()["voids_units"] > 0, "the jackpot came back to the pool"
    pending = api.client.get("/v1/payouts?status=pending", headers=api.keys.header("auditor"))
    assert pending.get_json()["payouts"] == []


def test_a_paid_jackpot_is_named_and_nothing_is_voided(api: Api) -> None:
    payout = hit(api)
    paid = api.client.post(
        f"/v1/payouts/{payout}/confirm", json=HAND_PAY, headers=api.keys.header("operator")
    )
    assert paid.status_code == 200, paid.get_json()
    before, journal = books(api), len(api.journal())
    error = assert_error(void(api, "r-hit", {"reason": "late"}), 409, "payout")
    assert error["code"] == "jackpot_paid" and payout in error["message"]
    assert "adjustment" in error["message"]
    assert books(api) == before and len(api.journal()) == journal


def test_a_jackpot_paid_and_then_voided_stays_out_of_a_rounds_void(api: Api) -> None:
    """An examiner's order (issue 40): pay the jackpot, void its payout (which moves no money,
    D52), then void the round. The patron was paid: the round's void would put the jackpot
    back on the meter, so it is refused as a paid one's is, and nothing moves."""
    payout = hit(api)
    header = api.keys.header("operator")
    paid = api.client.post(f"/v1/payouts/{payout}/confirm", json=HAND_PAY, headers=header)
    assert paid.status_code == 200 and paid.get_json()["status"] == "paid", paid.get_json()
    voided = api.client.post(
        f"/v1/payouts/{payout}/void", json={"reason": "hit recorded in error"}, headers=header
    )
    assert voided.get_json()["status"] == "void", voided.get_json()
    before, journal = books(api), len(api.journal())
    error = assert_error(void(api, "r-hit", {"reason": "misdeal"}), 409, "payout")
    assert error["code"] == "jackpot_paid" and payout in error["message"]
    assert "paid and then voided" in error["message"]
    assert books(api) == before and len(api.journal()) == journal


def test_some_spots_alone_and_then_the_rest_add_up_to_the_whole(api: Api) -> None:
    api.put_pool(rate_bp=333, reserve_rate_bp=77)
    api.put_table()
    before = books(api)
    api.report(round_body("r1", spots=TWO_SPOTS))
    first = void(api, "r1", {"reason": "no card dealt to spot 2", "spots": [2]})
    assert first.status_code == 200, first.get_json()
    assert (first.get_json()["status"], first.get_json()["spots"]) == ("partly_void", [2])
    (entry,) = [e for e in api.journal() if e["type"] == "void"]
    assert entry["contributions_units"] == 2_500 * 410 and str(entry["spots"]) == "2"
    assert void(api, "r1", {"reason": "again", "spots": [2]}).get_json()["result"] == "unchanged"
    rest = void(api, "r1", {"reason": "the table's malfunction after all"})
    assert rest.status_code == 200 and rest.get_json()["status"] == "void"
    assert books(api) == before, "the partial shares add up to the whole contribution"
    assert balanced(api)


def test_bad_void_requests_name_the_field_and_change_nothing(api: Api, services: Services) -> None:
    api.put_pool()
    api.put_table()
    api.report(round_body("r1", spots=TWO_SPOTS))
    before = books(api)
    assert assert_error(void(api, "r1", {}), 400, "reason")["code"] == "missing"
    assert assert_error(void(api, "r1", {"reason": ""}), 400, "reason")
    error = assert_error(void(api, "r1", {"reason": "x", "spots": [5]}), 400, "spots[0]")
    assert "spots 1, 2" in error["message"]
    assert assert_error(void(api, "r1", {"reason": "x", "spots": []}), 400, "spots")
    assert assert_error(void(api, "r1", {"reason": "x", "spots": [1, 1]}), 400, "spots")
    assert assert_error(void(api, "nope", {"reason": "x"}), 404, "round")["code"] == "unknown_round"
    assert assert_error(void(api, "r1", {"reason": "x", "why": 1}), 400, "why")
    for role in ("other_table", "auditor", "display"):
        assert void(api, "r1", {"reason": "x"}, api.keys.header(role)).status_code == 403
    assert books(api) == before and not [e for e in api.journal() if e["type"] == "void"]


@pytest.fixture
def approval(services: Services) -> Iterator[Services]:
    """Two-person control from 500.00, for this test only (the app is shared)."""
    before = services.approval.cents
    services.approval.cents = 50_000
    yield services
    services.approval.cents = before


def test_from_the_threshold_another_person_approves_the_void(api: Api, approval: Services) -> None:
    api.put_pool()
    api.put_table()
    before = books(api)
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    r = api.report(round_body("r-hit", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    payout = r.get_json()["jackpots"][0]["id"]  # a jackpot of $1,000 and more
    dana = operator(approval, "Dana Reyes")
    asked = void(api, "r-hit", {"reason": "malfunction"}, header=dana)
    assert asked.status_code == 202, asked.get_json()
    held = asked.get_json()
    assert held["result"] == "awaiting_approval" and held["awaiting_approval"]["person"] == (
        "Dana Reyes (DANA-REYES)"
    )
    status = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
    assert status.get_json()["status"] == "pending", "the round stands until it is approved"
    assert void(api, "r-hit", {"reason": "again"}, header=dana).status_code == 202
    # neither the key that asked nor Dana's other key approves
    for mine in (dana, operator(approval, "Dana Reyes")):
        error = assert_error(approve(api, "r-hit", mine), 409, None)
        assert error["code"] == "second_person_required"
    other = assert_error(void(api, "r-hit", {"reason": "x", "spots": [2]}, header=dana), 409, None)
    assert other["code"] == "void_awaiting_approval"
    done = approve(api, "r-hit", operator(approval, "Lee Chan"))
    assert done.status_code == 200, done.get_json()
    (entry,) = done.get_json()["voids"]
    assert (entry["person"], entry["approver"]) == (
        "Dana Reyes (DANA-REYES)",
        "Lee Chan (LEE-CHAN)",
    )
    assert books(api) == before, "back to before the round, seed and all"
    status = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
    assert status.get_json()["status"] == "void"
    assert status.get_json()["note"] == "round voided: malfunction", "the asker's reason"
    [entry] = [e for e in api.journal() if e["type"] == "void"]
    assert entry["reason"] == "malfunction"
    again = approve(api, "r-hit", operator(approval, "Sam Okafor"))
    assert again.status_code == 200 and again.get_json()["result"] == "unchanged"
    nothing = api.client.post("/v1/rounds/T1/r-hit/void", json={"reason": "x"},
                              headers=api.keys.header("operator"))  # fmt: skip
    assert nothing.get_json()["result"] == "unchanged"


def test_a_void_and_a_confirmation_of_its_jackpot_race_and_one_wins(api: Api) -> None:
    """Each is one atomic step: whichever comes first decides, the other is refused, and the
    books balance either way."""
    from concurrent.futures import ThreadPoolExecutor

    winners = set()
    for i in range(6):
        payout = hit(api, f"r-race-{i}")
        with ThreadPoolExecutor(2) as pool:
            voiding = pool.submit(void, api, f"r-race-{i}", {"reason": "race"})
            confirming = pool.submit(
                api.client.post,
                f"/v1/payouts/{payout}/confirm",
                json=HAND_PAY,
                headers=api.keys.header("operator"),
            )
            v, c = voiding.result(), confirming.result()
        status = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
        if v.status_code == 200:
            assert c.get_json()["error"]["code"] == "payout_state", c.get_json()
            assert status.get_json()["status"] == "void"
            winners.add("void")
        else:
            assert v.get_json()["error"]["code"] == "jackpot_paid", v.get_json()
            assert c.status_code == 200 and status.get_json()["status"] == "paid"
            winners.add("confirm")
        assert api.meters()["invariant_holds"] and balanced(api)
    assert winners, "each race had a winner"


def test_a_table_asks_for_a_void_of_its_own_rounds_and_a_person_approves_it(api: Api) -> None:
    api.put_pool()
    api.put_table()
    before = books(api)
    assert api.report(round_body("r1", spots=TWO_SPOTS)).status_code == 200
    refused = void(api, "r1", {"reason": "x"}, header=api.keys.header("other_table"))
    assert assert_error(refused, 403, None)["code"] == "forbidden"
    asked = void(api, "r1", {"reason": "no card dealt", "spots": [2]}, api.keys.header("table"))
    assert asked.status_code == 202, asked.get_json()
    assert asked.get_json()["awaiting_approval"]["spots"] == [2]
    resent = void(api, "r1", {"reason": "no card dealt", "spots": [2]}, api.keys.header("table"))
    assert resent.status_code == 202 and resent.get_json()["result"] == "awaiting_approval"
    assert approve(api, "r1", api.keys.header("table")).status_code == 403
    # every supervisor on shift sees it waiting, whoever asked
    for role in ("operator", "auditor"):
        waiting = api.client.get("/v1/voids/awaiting", headers=api.keys.header(role)).get_json()
        assert waiting["count"] == 1
        (held,) = waiting["voids"]
        group = api.client.get("/v1/tables/T1", headers=api.keys.header("auditor"))
        assert (held["table"], held["round"], held["group"], held["spots"]) == (
            "T1",
            "r1",
            group.get_json()["group"],
            [2],
        )
        assert held["reason"] == "no card dealt" and held["requested_by"].startswith("table:")
        assert held["at"] == asked.get_json()["at"] and held["approvals"] == []
    assert api.client.get("/v1/voids/awaiting").status_code == 401
    table_key = api.keys.header("table")
    assert api.client.get("/v1/voids/awaiting", headers=table_key).status_code == 403
    done = approve(api, "r1", api.keys.header("operator"))
    assert done.status_code == 200 and done.get_json()["spots"] == [2]
    rest = void(api, "r1", {"reason": "malfunction"})  # threshold 0: a person's applies at once
    assert rest.status_code == 200 and rest.get_json()["status"] == "void"
    assert books(api) == before
    waiting = api.client.get("/v1/voids/awaiting", headers=api.keys.header("operator"))
    assert waiting.get_json() == {"voids": [], "payouts": [], "count": 0}


def test_a_tables_void_of_a_large_jackpot_needs_two_people(api: Api, approval: Services) -> None:
    """The lab's finding (F2): a table's key asked for the void of a round whose jackpot is
    over the threshold, and one operator's approval cancelled it. A table's key is a device,
    not a person: two distinct people approve, in every order (D226)."""
    api.put_pool()
    api.put_table()
    before = books(api)
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    r = api.report(round_body("J2", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    payout = r.get_json()["jackpots"][0]["id"]  # a jackpot of $1,000 and more
    after_hit = books(api)
    disputed = api.client.post(
        f"/v1/payouts/{payout}/dispute", json={"reason": "check"},
        headers=api.keys.header("operator"),
    )  # fmt: skip
    assert disputed.status_code == 200, disputed.get_json()
    table = api.keys.header("table")
    asked = void(api, "J2", {"reason": "card not dealt"}, header=table)
    assert asked.status_code == 202, asked.get_json()
    assert asked.get_json()["awaiting_approval"]["requested_by"].startswith("table:")

    def status() -> str:
        got = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
        return str(got.get_json()["status"])

    def entries(kind: str) -> list[dict[str, Any]]:
        return [e for e in house(api) if e["type"] == kind]

    alice = operator(approval, "Alice Moreau")
    first = approve(api, "J2", alice)
    assert first.status_code == 202, first.get_json()
    body = first.get_json()
    assert body["result"] == "awaiting_approval" and body["voids"] == []
    (given,) = body["awaiting_approval"]["approvals"]
    assert given["approver"] == "Alice Moreau (ALICE-MOREAU)"
    assert status() == "disputed", "one person's approval cancels nothing"
    (journaled,) = entries("void_approved")
    assert (journaled["person"], journaled["needed"]) == ("Alice Moreau (ALICE-MOREAU)", 2)

    resent = approve(api, "J2", alice)  # a resend: the same answer, nothing written
    assert (
        resent.status_code == 202
        and resent.get_json()["awaiting_approval"] == (body["awaiting_approval"])
    )
    assert len(entries("void_approved")) == 1
    again = void(api, "J2", {"reason": "card not dealt"}, header=table)
    assert again.status_code == 202 and len(entries("void_requested")) == 1
    other_key = assert_error(approve(api, "J2", operator(approval, "Alice Moreau")), 409, None)
    assert other_key["code"] == "second_person_required"
    assert status() == "disputed" and not entries("void") and books(api) == after_hit

    done = approve(api, "J2", operator(approval, "Bob Lin"))
    assert done.status_code == 200, done.get_json()
    (entry,) = done.get_json()["voids"]
    assert [a["approver"] for a in entry["approvals"]] == [
        "Alice Moreau (ALICE-MOREAU)",
        "Bob Lin (BOB-LIN)",
    ]
    assert entry["approver"] == "Bob Lin (BOB-LIN)" and entry["requested_by"].startswith("table:")
    assert status() == "void"
    (house_void,) = entries("void")
    assert house_void["approved_first_by"] == given["approved_by"]
    assert books(api) == before and balanced(api)
    # the activity list names both approvers in order (the examiner's final pass)
    recent = api.client.get("/v1/activity", headers=api.keys.header("operator")).get_json()
    (shown,) = [a for a in recent["activity"] if a["type"] == "void" and a["journal"] == "house"]
    assert shown["approvers"][-1] == "Bob Lin (BOB-LIN)" and len(shown["approvers"]) == 2
    assert shown["approvers"][0] != given["approved_by"], "a person's name, not the key"


def test_below_the_threshold_one_person_approves_a_tables_void(
    api: Api, approval: Services
) -> None:
    api.put_pool()
    api.put_table()
    before = books(api)
    assert api.report(round_body("r1", spots=TWO_SPOTS)).status_code == 200
    asked = void(api, "r1", {"reason": "no card dealt"}, api.keys.header("table"))
    assert asked.status_code == 202, asked.get_json()
    assert asked.get_json()["awaiting_approval"]["pays"] < 50_000
    done = approve(api, "r1", operator(approval, "Alice Moreau"))
    assert done.status_code == 200 and done.get_json()["result"] == "voided", done.get_json()
    assert not [e for e in house(api) if e["type"] == "void_approved"]
    assert books(api) == before


def test_one_person_cannot_void_a_large_round_alone_in_parts(api: Api, services: Services) -> None:
    """The examiner's find (issue 38): two spot voids by one person, each under the approval
    threshold, cancelled a round whose pays were over it. The round's voids are counted
    together: the part that takes them to the threshold waits for a second person."""
    api.put_pool()
    api.put_table()
    # two suited ties against the queen of hearts: each pays 15 to 1, $15.00
    spots = [{"spot": 1, "wager": 100, "card": "Qh"}, {"spot": 2, "wager": 100, "card": "Qh"}]
    settled = api.report(round_body("r-split", dealer="Qh", spots=spots))
    assert [s["pay"] for s in settled.get_json()["spots"]] == [1_500, 1_500], settled.get_json()
    before = services.approval.cents
    services.approval.cents = 2_000  # each spot's pay is under it, both over it
    try:
        dana = operator(services, "Dana Reyes")
        first = void(api, "r-split", {"reason": "misdeal", "spots": [1]}, header=dana)
        assert first.status_code == 200 and first.get_json()["result"] == "voided"
        second = void(api, "r-split", {"reason": "misdeal", "spots": [2]}, header=dana)
        assert second.status_code == 202, second.get_json()
        assert second.get_json()["result"] == "awaiting_approval"
        refused = assert_error(approve(api, "r-split", dana), 409, None)
        assert refused["code"] == "second_person_required"
        done = approve(api, "r-split", operator(services, "Lee Chan"))
        assert done.status_code == 200 and done.get_json()["whole"], done.get_json()
    finally:
        services.approval.cents = before
    assert balanced(api)


def refuse(api: Api, round_id: str, header: Any, body: Any = None) -> Any:
    return api.client.post(
        f"/v1/rounds/T1/{round_id}/void/refuse",
        json={"reason": "no: the card was dealt"} if body is None else body,
        headers=header,
    )


def test_a_void_waiting_is_refused_or_withdrawn_and_nothing_moves(
    api: Api, approval: Services
) -> None:
    api.put_pool()
    api.put_table()
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    r = api.report(round_body("r-hit", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    payout = r.get_json()["jackpots"][0]["id"]
    after_round = books(api)
    dana, lee = operator(approval, "Dana Reyes"), operator(approval, "Lee Chan")
    assert void(api, "r-hit", {"reason": "malfunction"}, header=dana).status_code == 202

    # nothing waiting, or a bad body: refused, naming why, nothing written
    missing = refuse(api, "r-hit", lee, {})
    assert assert_error(missing, 400, "reason")["code"] == "missing"
    assert refuse(api, "r-hit", api.keys.header("auditor")).status_code == 403
    assert refuse(api, "r-hit", api.keys.header("table")).status_code == 403
    entries = len(house(api))

    done = refuse(api, "r-hit", lee)
    assert done.status_code == 200, done.get_json()
    answer = done.get_json()
    assert answer["result"] == "refused" and answer["awaiting_approval"] is None
    assert answer["status"] == "not_void" and books(api) == after_round, "nothing moved"
    status = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
    assert status.get_json()["status"] == "pending"
    (entry,) = house(api)[entries:]
    assert (entry["type"], entry["withdrawn"], entry["asked_reason"], entry["reason"]) == (
        "void_refused",
        0,
        "malfunction",
        "no: the card was dealt",
    )
    assert entry["asked_by"] == "Dana Reyes (DANA-REYES)"
    assert entry["person"] == "Lee Chan (LEE-CHAN)"
    # gone: neither approved nor refused again, and no longer listed
    assert assert_error(approve(api, "r-hit", lee), 409, None)["code"] == "no_void_awaiting"
    assert assert_error(refuse(api, "r-hit", lee), 409, None)["code"] == "no_void_awaiting"
    listed = api.client.get("/v1/voids/awaiting", headers=api.keys.header("operator"))
    assert listed.get_json()["count"] == 0

    # asked again, the one who asked withdraws it: the same step, marked as theirs
    assert void(api, "r-hit", {"reason": "malfunction, again"}, header=dana).status_code == 202
    withdrawn = refuse(api, "r-hit", dana, {"reason": "asked for the wrong round"})
    assert withdrawn.get_json()["result"] == "refused"
    assert house(api)[-1]["withdrawn"] == 1 and books(api) == after_round
    # and a void asked once more is approved as ever
    assert void(api, "r-hit", {"reason": "malfunction"}, header=dana).status_code == 202
    assert approve(api, "r-hit", lee).get_json()["result"] == "voided"
    assert assert_error(refuse(api, "r-hit", lee), 409, None)["code"] == "no_void_awaiting"


def test_a_held_void_is_decided_before_its_jackpot_is_paid(api: Api, approval: Services) -> None:
    """D289: a void awaiting approval that covers a pending jackpot holds its pay back; paid
    first, the void could never apply. Refused, the pay goes on; approved, it cancels it. A
    void of other spots holds nothing back."""
    api.put_pool()
    api.put_table()
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    r = api.report(round_body("r-hit", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    payout = r.get_json()["jackpots"][0]["id"]
    dana, lee = operator(approval, "Dana Reyes"), operator(approval, "Lee Chan")

    def confirm() -> Any:
        return api.client.post(f"/v1/payouts/{payout}/confirm", json=HAND_PAY, headers=lee)

    def status() -> str:
        got = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
        return str(got.get_json()["status"])

    assert void(api, "r-hit", {"reason": "misdeal"}, header=dana).status_code == 202
    entries = len(api.journal())
    error = assert_error(confirm(), 409, "payout")
    assert error["code"] == "void_awaiting_approval", error
    assert "r-hit" in error["message"] and "Dana Reyes" in error["message"]
    assert "misdeal" in error["message"] and "whole round" in error["message"]
    assert status() == "pending" and len(api.journal()) == entries, "nothing written"
    # a dispute moves no money: it stays allowed
    disputed = api.client.post(
        f"/v1/payouts/{payout}/dispute", json={"reason": "patron asks"}, headers=lee
    )
    assert disputed.status_code == 200 and status() == "disputed"
    assert assert_error(confirm(), 409, "payout")["code"] == "void_awaiting_approval"

    # refused, the pay goes on (and the approval it needs from the threshold up)
    assert refuse(api, "r-hit", lee).get_json()["result"] == "refused"
    assert confirm().status_code == 200 and status() == "awaiting_approval"

    # approved, the void cancels the pay instead
    r = api.report(round_body("r-hit2", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    second = r.get_json()["jackpots"][0]["id"]
    assert void(api, "r-hit2", {"reason": "misdeal"}, header=dana).status_code == 202
    blocked = api.client.post(f"/v1/payouts/{second}/confirm", json=HAND_PAY, headers=lee)
    assert assert_error(blocked, 409, "payout")["code"] == "void_awaiting_approval"
    assert approve(api, "r-hit2", lee).get_json()["result"] == "voided"
    gone = api.client.post(f"/v1/payouts/{second}/confirm", json=HAND_PAY, headers=lee)
    assert assert_error(gone, 409, None)["code"] == "payout_state"

    # a void of the losing spot alone does not cover the jackpot of spot 1
    r = api.report(round_body("r-hit3", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    third = r.get_json()["jackpots"][0]["id"]
    held = void(
        api, "r-hit3", {"reason": "card not dealt", "spots": [2]}, header=api.keys.header("table")
    )
    assert held.status_code == 202, held.get_json()
    paid = api.client.post(f"/v1/payouts/{third}/confirm", json=HAND_PAY, headers=lee)
    assert paid.status_code == 200, paid.get_json()
    assert api.meters()["invariant_holds"] and balanced(api)


def test_a_jackpot_confirmed_then_disputed_stays_out_of_a_rounds_void(
    api: Api, approval: Services
) -> None:
    """The examiner's find (D291): confirmed paid, awaiting approval, then disputed, the
    jackpot was returned to the meter by its round's void, its payer, witness and slip still
    on record. A confirmation stands: the round's void is refused, and so after the payout's
    own void from that dispute."""
    api.put_pool()
    api.put_table()
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    r = api.report(round_body("r-hit", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    payout = r.get_json()["jackpots"][0]["id"]
    dana, lee = operator(approval, "Dana Reyes"), operator(approval, "Lee Chan")
    confirmed = api.client.post(f"/v1/payouts/{payout}/confirm", json=HAND_PAY, headers=dana)
    assert confirmed.get_json()["status"] == "awaiting_approval", confirmed.get_json()
    disputed = api.client.post(
        f"/v1/payouts/{payout}/dispute", json={"reason": "count again"}, headers=lee
    )
    assert disputed.get_json()["status"] == "disputed"
    before = books(api)
    error = assert_error(void(api, "r-hit", {"reason": "misdeal"}, header=lee), 409, "payout")
    assert (
        error["code"] == "jackpot_paid" and "confirmed paid and then disputed" in error["message"]
    )
    assert books(api) == before
    voided = api.client.post(f"/v1/payouts/{payout}/void", json={"reason": "x"}, headers=lee)
    assert voided.status_code in (200, 202), voided.get_json()
    if voided.status_code == 202:  # from the threshold up a second person applies it
        applied = api.client.post(
            f"/v1/payouts/{payout}/void/approve", json={"reason": "ok"}, headers=dana
        )
        assert applied.status_code == 200, applied.get_json()
    error = assert_error(void(api, "r-hit", {"reason": "misdeal"}, header=lee), 409, "payout")
    assert error["code"] == "jackpot_paid" and books(api) == before


def test_the_round_voids_of_a_span_are_listed_for_the_shift(api: Api, approval: Services) -> None:
    """The examiner's final pass: a shift's report left out the rounds voided in it that
    cancelled no payout. GET /v1/voids/applied lists every round's void of a span, as the
    day's voids section shows it, with who asked, who approved and why."""
    import time

    api.put_pool()
    api.put_table()
    start = int(time.time() * 1000) - 1000
    api.report(round_body("r-a", spots=TWO_SPOTS))
    api.report(round_body("r-b", spots=TWO_SPOTS))
    lee, dana = operator(approval, "Lee Chan"), operator(approval, "Dana Reyes")
    assert (
        void(api, "r-a", {"reason": "card not dealt", "spots": [2]}, header=lee).status_code == 200
    )
    asked = void(api, "r-b", {"reason": "misdeal"}, header=api.keys.header("table"))
    assert asked.status_code == 202
    assert approve(api, "r-b", dana).status_code == 200
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    api.report(round_body("r-c", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    assert void(api, "r-c", {"reason": "shuffler fault"}, header=lee).status_code == 202
    assert approve(api, "r-c", dana).status_code == 200
    operator_key = api.keys.header("operator")
    listed = api.client.get(f"/v1/voids/applied?from={start}", headers=operator_key)
    assert listed.status_code == 400, "from is an RFC 3339 time or a gaming day"
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start / 1000))
    listed = api.client.get(f"/v1/voids/applied?from={since}", headers=operator_key)
    assert listed.status_code == 200, listed.get_json()
    body = listed.get_json()
    assert body["count"] == 3
    first, second, third = body["voids"]
    assert (third["round"], third["jackpots"]) == ("r-c", 1), "the jackpot it cancelled"
    assert second["jackpots"] == 0
    assert (first["round"], first["spots"], first["whole"]) == ("r-a", "2", False)
    assert first["asked_by"] == "Lee Chan (LEE-CHAN)" and first["approved_by"] == ""
    assert first["handle_cents"] == 2_500 and first["reason"] == "card not dealt"
    assert (second["round"], second["whole"], second["reason"]) == ("r-b", True, "misdeal")
    assert second["approved_by"] == "Dana Reyes (DANA-REYES)"
    # a span that ends before them holds none; from is required; an auditor reads it too
    none = api.client.get(f"/v1/voids/applied?from={since}&to={since}", headers=operator_key)
    assert assert_error(none, 400, "to")
    missing = api.client.get("/v1/voids/applied", headers=operator_key)
    assert assert_error(missing, 400, "from")["code"] == "missing"
    audited = api.client.get(f"/v1/voids/applied?from={since}", headers=api.keys.header("auditor"))
    assert audited.get_json()["count"] == 3
    assert (
        api.client.get(
            f"/v1/voids/applied?from={since}", headers=api.keys.header("table")
        ).status_code
        == 403
    )


def test_a_void_applied_in_the_span_names_an_approver_who_approved_before_it(
    api: Api, approval: Services
) -> None:
    """An examiner's find: a table's void approved by Alice and then Bob, listed from a time
    between the two approvals, showed Alice's key for her name and lost her note: her
    approval was read only within the span."""
    from datetime import UTC, datetime

    api.put_pool()
    api.put_table()
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    api.report(round_body("J3", dealer="As", dealer_war="As", spots=[aces, TWO_SPOTS[1]]))
    assert (
        void(api, "J3", {"reason": "card not dealt"}, header=api.keys.header("table")).status_code
        == 202
    )
    alice, bob = operator(approval, "Alice Moreau"), operator(approval, "Bob Lin")
    first = api.client.post(
        "/v1/rounds/T1/J3/void/approve", json={"reason": "saw the tape"}, headers=alice
    )
    assert first.status_code == 202, first.get_json()
    assert approve(api, "J3", bob).status_code == 200
    (given,) = [e for e in house(api) if e["type"] == "void_approved" and e["round"] == "J3"]
    after_alice = datetime.fromtimestamp((int(given["ts"]) + 1) / 1000, UTC)
    since = after_alice.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    listed = api.client.get(f"/v1/voids/applied?from={since}", headers=api.keys.header("auditor"))
    assert listed.status_code == 200, listed.get_json()
    (row,) = [v for v in listed.get_json()["voids"] if v["round"] == "J3"]
    assert row["approved_by"] == "Alice Moreau (ALICE-MOREAU), then Bob Lin (BOB-LIN)"
    assert "saw the tape" in row["approval_note"]
