"""People are staff, not names (issue 38, D232): a register holds each person who acts on
money by the id the casino uses; keys are issued to them; payer, witness, confirmer and
approver are compared by id; a name is only shown. Whatever a name is written as, one person
can never act as two."""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services
from jackpot.conflicts import PersonError
from jackpot.domain.auth import Role, digest, key_id_of
from jackpot.errors import NotFoundError, ValidationError
from tests.support.api import Api, hit, round_body
from tests.support.checks import HAND_PAY, assert_error, snapshot

# "Dana Reyna" written so that a comparison of names took it for another person, or for her
# (issue 38's ten, and more): invisible characters, blanks, look-alike letters, other forms
DANA = "Dana Reyna"
SPELLINGS = [
    "Dana\ufe0f Reyna",  # a variation selector
    "Da\u034fna Reyna",  # the combining grapheme joiner
    "\u3164Dana Reyna",  # Hangul fillers
    "Dana\uffa0 Reyna",
    "\u115fDana Reyna",
    "Dana\u2800Reyna",  # the Braille blank for the space
    "Dana\u17b4 Reyna",  # a Khmer inherent vowel
    "Dana\x00 Reyna",  # a NUL
    "D\u0430na Reyna",  # Cyrillic a
    "Dana R\u0435yna",  # Cyrillic e
    "D\u03b1na Reyna",  # Greek alpha
    "Dana Reyn\u0430",  # Cyrillic a again
    "Dana  Reyna",  # two spaces
    " Dana Reyna",
    "Dana Reyna\u200b",  # a zero-width space
    "Dana\u00a0Reyna",  # a no-break space
    "\uff24\uff41\uff4e\uff41 Reyna",  # full-width letters
    "\U0001d403ana Reyna",  # a mathematical bold D
    "dana reyna",  # another case
    "DANA REYNA",
    "Dana\u2060 Reyna",  # a word joiner
    "Dana\u200d Reyna",  # a zero-width joiner
    "Dana\ue000 Reyna",  # private use
]


def header(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def key_of(services: Services, person: str, role: Role = Role.OPERATOR) -> dict[str, str]:
    """A new key issued to `person` (an id of the register)."""
    return header(services.credentials.create(role, frozenset(), "", person)[0])


@pytest.fixture
def floor(services: Services) -> Services:
    """Dana (E1042), Lee (E2207) and Sam (S0031, a security officer) in the register."""
    services.people.register("E1042", DANA, "shift supervisor")
    services.people.register("e2207", "Lee Morrow", "shift supervisor")
    services.people.register("S0031", "Sam Adeyemi", "security officer")
    return services


def confirm(api: Api, payout: str, body: Any, who: dict[str, str]) -> Any:
    return api.client.post(f"/v1/payouts/{payout}/confirm", json=body, headers=who)


def approve(api: Api, payout: str, who: dict[str, str]) -> Any:
    return api.client.post(f"/v1/payouts/{payout}/approve", headers=who)


def test_the_register_keeps_ids_upper_cased_and_journals_each_step(
    api: Api, floor: Services
) -> None:
    lee = floor.people.get("E2207")
    assert lee is not None and lee.shown == "Lee Morrow (E2207)" and lee.active
    again = floor.people.register("E2207", "Lee Morrow", "shift supervisor")  # as it is: nothing
    assert again == lee
    with pytest.raises(PersonError) as taken:
        floor.people.register("e2207", "Lee Morrows")
    assert taken.value.code == "person_exists" and taken.value.field == "id"
    floor.people.change("E2207", name="Lee Morrow-Chan", reason="married")
    floor.people.deactivate("E2207", "left the company")
    floor.people.reactivate("E2207", "came back")
    kinds = [e["type"] for e in api.journal(None) if e.get("staff_id") in ("E2207", "E1042")]
    assert kinds == [
        "person_registered",
        "person_registered",
        "person_changed",
        "person_deactivated",
        "person_reactivated",
    ]
    changed = next(e for e in api.journal(None) if e["type"] == "person_changed")
    assert (changed["name"], changed["was"], changed["reason"]) == (
        "Lee Morrow-Chan",
        "Lee Morrow",
        "married",
    )
    for bad in ("", "E 1042", "E1042\u200b", "-E1", "\uff25\uff11", "E" * 33):
        with pytest.raises(ValidationError) as refused:
            floor.people.register(bad, "Somebody Else")
        assert refused.value.field == "id"


@pytest.mark.parametrize("written", SPELLINGS)
def test_no_spelling_of_a_name_registers_a_second_person(floor: Services, written: str) -> None:
    """Each spelling is refused as a name (not printable text) or as one confusable with
    Dana's: it never becomes another person unless the step says so, with a reason."""
    with pytest.raises((ValidationError, PersonError)) as refused:
        floor.people.register("E9999", written)
    if isinstance(refused.value, PersonError):
        assert refused.value.code == "person_confusable", written
        assert "E1042" in refused.value.message
    assert floor.people.get("E9999") is None
    # nor may Lee be renamed to it
    with pytest.raises((ValidationError, PersonError)):
        floor.people.change("E2207", name=written)
    lee = floor.people.get("E2207")
    assert lee is not None and lee.name == "Lee Morrow"


def test_a_confusable_name_is_another_person_only_when_said_so_with_a_reason(
    api: Api, floor: Services
) -> None:
    with pytest.raises(ValidationError) as no_reason:
        floor.people.register("E5000", "Dana Reyna", different=True)
    assert no_reason.value.field == "reason"
    twin = floor.people.register(
        "E5000", "Dana Reyna", reason="a second Dana Reyna: badge photo checked", different=True
    )
    assert twin.id == "E5000"
    entry = [e for e in api.journal(None) if e["type"] == "person_registered"][-1]
    assert (entry["confusable_with"], entry["staff_id"]) == ("E1042", "E5000")
    # an inactive person's name is free again; reactivating them looks again
    floor.people.deactivate("E5000", "left")
    floor.people.register("E5001", "Dana Reyna", reason="third", different=True)
    with pytest.raises(PersonError) as clash:
        floor.people.reactivate("E5000", "back")
    assert clash.value.code == "person_confusable"


def test_keys_are_issued_to_active_registered_people_only(floor: Services) -> None:
    with pytest.raises(ValidationError) as missing:
        floor.credentials.create(Role.OPERATOR, frozenset(), "Dana's tablet")
    assert missing.value.field == "person"
    with pytest.raises(NotFoundError):
        floor.credentials.create(Role.AUDITOR, frozenset(), "", "E4040")
    for written in SPELLINGS:
        with pytest.raises(ValidationError):
            floor.credentials.create(Role.OPERATOR, frozenset(), "", written)
    with pytest.raises(ValidationError):
        floor.credentials.create(Role.DISPLAY, frozenset(), "lobby", "E1042")
    floor.people.deactivate("S0031", "left")
    with pytest.raises(PersonError) as inactive:
        floor.credentials.create(Role.OPERATOR, frozenset(), "", "S0031")
    assert inactive.value.code == "person_inactive"
    made = floor.credentials.create(Role.OPERATOR, frozenset(), "", "e1042")[1]
    assert made.person == "E1042"
    dana = floor.people.get("E1042")
    assert dana is not None and made.key_id in dana.keys


def test_one_person_never_acts_as_two_whatever_the_spelling(
    api: Api, floor: Services, redis: redis_lib.Redis
) -> None:
    """Payer, witness, key holder and approver: every spelling of Dana is either no id at
    all (400, nothing changes) or Dana's id (her own approval is refused)."""
    floor.approval.cents = 1
    try:
        lee, dana, dana_too = key_of(floor, "E2207"), key_of(floor, "E1042"), key_of(floor, "E1042")
        payout = hit(api, "r-dana")
        before = snapshot(redis)
        for written in SPELLINGS:
            for field in ("paid_by", "witness"):
                body = {"paid_by": "E1042", "witness": "S0031", "slip": "HP-1", field: written}
                assert_error(confirm(api, payout, body, lee), 400, field)
        assert snapshot(redis) == before
        # the id in another case is the same person: Dana paid, Lee confirms, Sam witnessed
        body = {"paid_by": "e1042", "witness": "s0031", "slip": "HP-1"}
        confirmed = confirm(api, payout, body, lee)
        assert confirmed.status_code == 200, confirmed.get_json()
        held = confirmed.get_json()
        assert held["status"] == "awaiting_approval"
        assert (held["paid_by"], held["paid_by_id"], held["confirmer_id"]) == (
            "Dana Reyna (E1042)",
            "E1042",
            "E2207",
        )
        for who in (dana, dana_too, lee, key_of(floor, "S0031")):  # paid, confirmed, witnessed
            refused = approve(api, payout, who)
            assert refused.get_json()["error"]["code"] == "second_person_required"
        floor.people.register("E3000", "Ana Kowalski")
        approved = approve(api, payout, key_of(floor, "E3000"))
        assert approved.status_code == 200 and approved.get_json()["approver_id"] == "E3000"
    finally:
        floor.approval.cents = 0


def test_the_witness_is_not_the_payer_nor_the_one_confirming_by_id(
    api: Api, floor: Services
) -> None:
    lee = key_of(floor, "E2207")
    payout = hit(api)
    for body, field in (
        ({"paid_by": "E1042", "witness": "e1042", "slip": "HP-1"}, "witness"),
        ({"witness": "E2207", "slip": "HP-1"}, "witness"),  # the payer is the key's person
        ({"paid_by": "E1042", "witness": "E2207", "slip": "HP-1"}, "witness"),
    ):
        error = assert_error(confirm(api, payout, body, lee), 400, field)
        assert error["code"] == "same_person"


def test_an_operator_key_made_before_the_register_acts_on_nothing(
    api: Api, services: Services
) -> None:
    """A key issued to nobody (as every operator key was before the register) is refused
    until `jackpot people migrate` gives it to its person."""
    made = services.credentials._store.create("jpk_old-operator-key", Role.OPERATOR,
                                               frozenset(), "Dana Reyna")  # fmt: skip
    assert not isinstance(made, str)
    old = header("jpk_old-operator-key")
    refused = assert_error(api.client.get("/v1/payouts", headers=old), 403, None)
    assert "jackpot people migrate" in refused["message"]
    services.people.register("E1042", DANA)
    services.credentials.assign(made.key_id, "E1042")
    assert api.client.get("/v1/payouts", headers=old).status_code == 200
    with pytest.raises(PersonError) as again:
        services.people.register("E1043", "Lee Morrow")
        services.credentials.assign(made.key_id, "E1043")
    assert again.value.code == "key_assigned"


def test_deactivating_a_person_revokes_their_keys_at_once_in_every_worker(
    api: Api, floor: Services, store: Any
) -> None:
    """Two workers (two apps on one store) have used Dana's keys; deactivating her on the
    controller's machine leaves neither answering them, not even from a cache."""
    from jackpot.entrypoints.app import create_app
    from jackpot.settings import Settings

    other = create_app(Settings(queue_redis_url=store.queue_url), store.url).test_client()
    keys = [key_of(floor, "E1042"), key_of(floor, "E1042", Role.AUDITOR)]
    for client in (api.client, other):
        for who in keys:
            assert client.get("/v1/payouts", headers=who).status_code == 200
    gone = floor.people.deactivate("E1042", "badge lost")
    assert len(gone.keys) == 2 and not gone.active
    for client in (api.client, other):
        for who in keys:
            assert_error(client.get("/v1/payouts", headers=who), 401, None)
            assert_error(client.get("/v1/session", headers=who), 401, None)
    revoked = [e for e in api.journal(None) if e["type"] == "key_revoked"]
    assert {e["key"] for e in revoked} == set(gone.keys)
    assert all(e["reason"] == "person E1042 deactivated" for e in revoked)
    for k, revoked_now in floor.credentials.list():
        if k.person == "E1042":
            assert revoked_now


def test_a_revoked_table_key_is_answered_nothing_not_even_a_replay(
    api: Api, store: Any, redis: redis_lib.Redis
) -> None:
    """A worker that trusts its cached table key (the round script checks it again) must
    not answer a revoked key's replays or validation errors either."""
    from jackpot.entrypoints.app import create_app
    from jackpot.settings import Settings
    from tests.support.checks import report_body

    api.put_pool()
    api.put_table()
    cached = create_app(Settings(queue_redis_url=store.queue_url), store.url).test_client()
    table = api.keys.header("table")
    body = report_body("r-once")
    assert cached.post("/v1/rounds", json=body, headers=table).status_code == 200
    services = api.client.application.extensions["jackpot"]
    assert services.credentials.revoke(key_id_of(digest(api.keys.table)))
    before = snapshot(redis)
    for sent in (body, {**body, "spots": "nonsense"}, {"table": "T1"}, b"{not json"):
        kwargs = {"data": sent} if isinstance(sent, bytes) else {"json": sent}
        answer = cached.post("/v1/rounds", headers=table, **kwargs)
        assert_error(answer, 401, None)
    assert snapshot(redis) == before


def test_the_register_is_read_by_operators_and_auditors(api: Api, floor: Services) -> None:
    found = api.client.get("/v1/people?q=morrow", headers=api.keys.header("operator")).get_json()
    assert [p["shown"] for p in found["people"]] == ["Lee Morrow (E2207)"]
    by_id = api.client.get("/v1/people?q=s00", headers=api.keys.header("auditor")).get_json()
    assert [p["id"] for p in by_id["people"]] == ["S0031"]
    one = api.client.get("/v1/people/e1042", headers=api.keys.header("auditor")).get_json()
    assert (one["name"], one["position"], one["active"]) == (DANA, "shift supervisor", True)
    assert_error(api.client.get("/v1/people?q=", headers=api.keys.header("operator")), 400, "q")
    assert_error(api.client.get("/v1/people?active=maybe", headers=api.keys.header("operator")),
                 400, "active")  # fmt: skip
    assert_error(api.client.get("/v1/people", headers=api.keys.header("display")), 403, None)
    assert HAND_PAY["witness"]  # the tests' cast is in the register too


def test_a_badge_number_of_digits_only_stays_as_written(api: Api, floor: Services) -> None:
    """001042 is a badge number, not the number 1042: in the register, the journal and the
    payout alike (and a slip of digits keeps its zeros)."""
    floor.people.register("001042", "Ola Berg", "cashier")
    payout = hit(api)
    body = {"paid_by": "001042", "witness": "S0031", "slip": "000731"}
    paid = confirm(api, payout, body, api.keys.header("operator"))
    assert paid.status_code == 200, paid.get_json()
    assert (paid.get_json()["paid_by_id"], paid.get_json()["slip"]) == ("001042", "000731")
    house = [e for e in api.journal(None) if e["type"] == "person_registered"]
    assert house[-1]["staff_id"] == "001042"
    (entry,) = [e for e in api.journal() if e["type"] == "payout_paid"]
    assert (entry["paid_by_id"], entry["slip"]) == ("001042", "000731")


def test_an_approval_resent_by_someone_who_may_not_approve_is_refused_not_done(
    api: Api, floor: Services
) -> None:
    """The examiner's find (issue 38): once another person approved Dana's pay, Dana's own
    approval answered 200 "unchanged", as if hers had counted; it is refused as before."""
    floor.approval.cents = 1
    try:
        lee, dana = key_of(floor, "E2207"), key_of(floor, "E1042")
        payout = hit(api, "r-again")
        body = {"paid_by": "E1042", "witness": "S0031", "slip": "HP-1"}
        assert confirm(api, payout, body, lee).status_code == 200
        floor.people.register("E3000", "Ana Kowalski")
        ana = key_of(floor, "E3000")
        assert approve(api, payout, ana).status_code == 200
        refused = approve(api, payout, dana)
        assert refused.get_json()["error"]["code"] == "second_person_required"
        again = approve(api, payout, ana)
        assert again.status_code == 200 and again.get_json()["changed"] is False
    finally:
        floor.approval.cents = 0


def test_a_device_key_is_never_shown_as_a_person(api: Api, floor: Services) -> None:
    """The examiner's find (issue 38): a table key labelled "Lee Park (E2207)" asked for a
    void shown as made by "Lee Park (E2207)". A device's key is shown as a device: its label
    marked "(table key)" (D288), never as the person; the activity too (the final pass of
    issue 40: the key's bare id there read as nobody)."""
    api.put_pool()
    api.put_table()
    secret, key = floor.credentials.create(Role.TABLE, frozenset({"T1"}), "Lee Park (E2207)")
    table = header(secret)
    assert api.client.post("/v1/rounds", json=round_body("r-dev"), headers=table).status_code == 200
    asked = api.client.post("/v1/rounds/T1/r-dev/void", json={"reason": "misdeal"}, headers=table)
    assert asked.status_code == 202, asked.get_json()
    held = asked.get_json()["awaiting_approval"]
    assert held["person"] == "Lee Park (E2207) (table key)" and held["requested_by"] == key.who
    activity = api.client.get("/v1/activity", headers=api.keys.header("auditor")).get_json()
    named = [str(a.get("person", "")) for a in activity["activity"] if a.get("round") == "r-dev"]
    assert named and all(p == "Lee Park (E2207) (table key)" for p in named), named
