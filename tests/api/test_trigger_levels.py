"""Must-hit-by and mystery levels (docs/RULES.md §4): a hidden trigger drawn in Python,
committed before play, won by exactly the qualifying contribution that reaches it, revealed
at the hit and opened by anyone holding the published commitment."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from jackpot.bootstrap import Services
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.domain.triggers import Trigger, TriggerAudit, commitment, crossing
from jackpot.store import config as config_store
from tests.support.api import Api, round_body
from tests.support.checks import assert_error
from tests.support.stores import Store

NEW_YEAR_2031 = 1_924_992_000_000  # ms
LOSSES = ("2c", "3d", "4h", "5s", "6c", "7d", "8h")  # under the dealer's queen: no meter line


def must_hit_by(api: Api, pool: str = "mhb", **body: Any) -> Any:
    """A 20-cent reset must-hit-by 70 cents level beside `main`, fed 10% of every wager (a
    level the return check lets a table feed: its reset is small beside its range)."""
    config = {"reset": 20, "rate_bp": 1_000, "reserve_rate_bp": 0, "cap": 70,
              "level": "must_hit_by", **body}  # fmt: skip
    return api.put_pool(pool, **config)


@pytest.fixture
def every_bet_qualifies(services: Services, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A toy level fed 10% of every wager, won by $5 bets at a table taking $1: priced as if
    no smaller bet fed it (the return check's share of handle from smaller bets, D229, would
    refuse it; test_return_check.py holds that)."""
    for group in {MAIN_GROUP, store.group or MAIN_GROUP}:
        monkeypatch.setattr(services.groups.of(group).tables, "_below_share_bp", 0)


def losses(api: Api, round_id: str, *wagers: int) -> Any:
    spots = [{"spot": i + 1, "wager": w, "card": LOSSES[i]} for i, w in enumerate(wagers)]
    r = api.report(round_body(round_id, spots=spots))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def entries(api: Api, pool: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in api.journal(pool) if e["type"] == kind]


def test_a_must_hit_by_level_is_won_by_the_bet_that_reaches_its_hidden_trigger(api: Api) -> None:
    api.put_pool()
    created = must_hit_by(api)
    assert created["level"] == "must_hit_by" and created["cap"] == 70
    published = api.pool("mhb")["trigger"]
    assert published["draw"] == 1 and len(published["commitment"]) == 64
    assert "trigger_cents" not in str(api.pool("mhb")) and "salt" not in str(api.meters("mhb"))
    armed = entries(api, "mhb", "trigger_armed")
    assert [(a["commitment"], a["low"], a["high"]) for a in armed] == [
        (published["commitment"], 21, 70)
    ]
    api.put_table(pools=["main", "mhb"])
    won = None
    for n in range(1, 40):  # $1 bets: 10 cents each, the 50-cent range in at most 5 of them
        answer = losses(api, f"r{n}", 100, 100, 100)
        if answer["jackpots"]:
            won = answer
            break
    assert won is not None, "a must-hit-by level hits by its ceiling"
    [jackpot] = won["jackpots"]
    assert jackpot["pool"] == "mhb" and jackpot["level"] == "must_hit_by"
    [hit] = entries(api, "mhb", "hit")
    trigger = int(hit["trigger_cents"])
    assert hit["commitment"] == published["commitment"]
    assert commitment("mhb", trigger, hit["salt"]) == published["commitment"]
    crossed_from = int(hit["crossed_from_units"])
    assert crossed_from < trigger * 10_000 <= crossed_from + 1_000 * 10_000 // 100
    assert jackpot["amount"] == (crossed_from + 100_000) // 10_000, "the meter where it won"
    assert 21 <= trigger <= 70
    # the reveal is public with the hit: anyone holding the commitment checks it
    [shown] = api.pool("mhb")["last_hits"]
    assert (shown["level"], shown["trigger"], shown["commitment"]) == (
        "must_hit_by", trigger, published["commitment"])  # fmt: skip
    assert commitment("mhb", shown["trigger"], shown["salt"]) == published["commitment"]
    assert "player" not in shown and "round" not in shown
    rearmed = api.pool("mhb")["trigger"]
    assert rearmed["draw"] == 2 and rearmed["commitment"] != published["commitment"]
    assert api.pool("mhb")["value"] <= 20 + 20, "reset, then the rest of the round's bets"


def test_trigger_levels_name_their_own_fields(api: Api) -> None:
    header = api.keys.header("operator")
    base = {"reset": 1_000, "rate_bp": 100, "reserve_rate_bp": 0}
    for body, field in (
        ({**base, "level": "must_hit_by"}, "cap"),
        ({**base, "level": "mystery", "trigger_low": 900, "trigger_high": 2_000}, "trigger_low"),
        ({**base, "trigger_low": 2_000, "trigger_high": 3_000}, "trigger_low"),
        ({**base, "qualifying_wager": 500}, "qualifying_wager"),
        ({**base, "rate_bp": 0, "level": "must_hit_by", "cap": 2_000}, "rate_bp"),
    ):
        r = api.client.put("/v1/pools/p", json=body, headers=header)
        assert_error(r, 400, field)


def hidden_trigger_units(services: Services, pool: str) -> int:
    """The armed trigger as the controller hides it (read here only to predict the winner)."""
    group = services.groups.of_pool(pool)
    return int(group.client.hget(group.keys.pool(pool), "trigger")) * 10_000


@pytest.mark.parametrize("seed", [28, 2026])
@pytest.mark.usefixtures("every_bet_qualifies")
def test_random_rounds_are_won_where_the_model_says_and_verify_agrees(
    api: Api, services: Services, seed: int
) -> None:
    rng = Random(seed)
    api.put_pool()
    # a $3 range over a 20-cent reset, 10% of every wager; $5 qualifies: some bets cannot win
    must_hit_by(api, cap=320, qualifying_wager=500)
    api.put_table(pools=["main", "mhb"])
    cap, hits = 320 * 10_000, 0
    for n in range(120):
        before = api.meters("mhb")["value_units"]
        trigger = hidden_trigger_units(services, "mhb")
        wagers = [rng.choice((100, 300, 500, 1_000, 2_500)) for _ in range(rng.randint(1, 7))]
        steps, meter = [], before
        for w in wagers:  # a bet below the qualifying wager feeds the reserve, not the meter
            units = min(w * 1_000, cap - meter) if w >= 500 else 0
            meter += units
            steps.append((units, w >= 500))
        won = crossing(before, steps, trigger)
        answer = losses(api, f"r{n}", *wagers)
        jackpots = [j for j in answer["jackpots"] if j["pool"] == "mhb"]
        if won is None:
            assert jackpots == [], (n, before, trigger, steps)
            continue
        hits += 1
        at = before + sum(u for u, _ in steps[: won + 1])
        assert [(j["spot"], j["amount"]) for j in jackpots] == [(won + 1, at // 10_000)]
    assert hits >= 20, "the range is small: it is won often"
    found = services.groups.of_pool("mhb").verifier.run()
    assert found.findings == [], found.findings
    audit = TriggerAudit("mhb")
    for e in api.journal("mhb"):
        audit.feed(e["seq"], e)
    assert audit.problems == []


def played(api: Api) -> list[dict[str, Any]]:
    """A must-hit-by level's journal through a few hits."""
    api.put_pool()
    must_hit_by(api)
    api.put_table(pools=["main", "mhb"])
    for n in range(60):
        losses(api, f"r{n}", 100, 500, 100)
    journal = api.journal("mhb")
    assert sum(1 for e in journal if e["type"] == "hit") >= 3
    return journal


def audited(journal: list[dict[str, Any]], pool: str = "mhb") -> list[str]:
    audit = TriggerAudit(pool)
    for e in journal:
        audit.feed(e["seq"], e)
    return [text for _, text in audit.problems]


def test_verify_catches_a_forged_trigger_salt_commitment_or_crossing(api: Api) -> None:
    journal = played(api)
    assert audited(journal) == []
    hit = next(i for i, e in enumerate(journal) if e["type"] == "hit")
    armed = next(i for i, e in enumerate(journal) if e["type"] == "trigger_armed")

    def forged(at: int, **fields: Any) -> list[str]:
        copy = [dict(e) for e in journal]
        copy[at].update(fields)
        return audited(copy)

    trigger = int(journal[hit]["trigger_cents"])
    assert any("do not open" in p for p in forged(hit, trigger_cents=trigger - 1))
    assert any("do not open" in p for p in forged(hit, salt="00" * 16))
    # a commitment swapped for one that opens: not the one published before play
    swapped = forged(armed, commitment="ab" * 32)
    assert any(
        "not the draw armed" in p
        and f"its commitment is {journal[hit]['commitment']}" in p
        and f"the one armed {'ab' * 32}" in p
        and "its draw is" not in p
        for p in swapped
    ), swapped
    draw = journal[armed]["draw"]
    renumbered = forged(armed, draw=f"{draw}9")
    assert any(
        f"its draw is {draw}, the one armed {draw}9" in p and "commitment is" not in p
        for p in renumbered
    ), renumbered
    # a crossing moved: the meter said to have come from elsewhere
    crossed = int(journal[hit]["crossed_from_units"])
    assert any("took the meter" in p for p in forged(hit, crossed_from_units=crossed + 1))
    # a draw said to come from a range its trigger is not in; a reveal of a draw never armed
    assert any("outside the range" in p for p in forged(armed, low=trigger + 1, high=trigger + 9))
    unarmed = [e for i, e in enumerate(journal) if i != armed]
    assert any("which no entry armed" in p for p in audited(unarmed))
    # a step rewritten: the contributions no longer add to the meter
    stretch = hit - 1
    assert journal[stretch]["type"] == "contribution"
    steps = journal[stretch]["steps"].split(",")
    steps[0] = str(int(steps[0]) + 1)
    assert any("add up" in p for p in forged(stretch, steps=",".join(steps)))
    # a qualifying bet made out not to qualify: then no bet could have won it
    marks = "0" * len(journal[stretch]["qualifying"])
    assert any("no bet that could win" in p for p in forged(stretch, qualifying=marks))
    # ... nor can a forger who moves the win to a later bet: the $5 bet qualified
    # (exactly where the cap took nothing, else as a bet whose step shows it qualified)
    assert any(" marks " in p for p in forged(stretch, qualifying=marks))
    # a step that is no wager at the level's rate (where the cap took nothing)
    plain = next(
        i
        for i, e in enumerate(journal)
        if e["type"] == "contribution"
        and e.get("steps")
        and not e["overflow_units"]
        and int(e["steps"].split(",")[0]) > 0  # not the rest of a round that won it
    )
    original = journal[plain]["steps"].split(",")
    wrong = [str(int(original[0]) - 1), *original[1:]]
    assert any("not their wagers" in p for p in forged(plain, steps=",".join(wrong)))


def test_verify_reports_a_trigger_forged_in_the_store(api: Api, services: Services) -> None:
    played(api)
    group = services.groups.of_pool("mhb")
    stream = group.keys.pool_journal("mhb")
    rows = group.client.xrange(stream)
    group.client.delete(stream)
    forged = False
    for entry_id, fields in rows:
        if fields.get("type") == "hit" and not forged:
            fields["trigger_cents"] = str(int(fields["trigger_cents"]) + 1)
            forged = True
        group.client.xadd(stream, fields, id=entry_id)
    found = [str(f) for f in group.verifier.run().findings]
    assert any("do not open" in f for f in found), found


def post(api: Api, path: str, body: Any, role: str = "operator") -> Any:
    return api.client.post(path, json=body, headers=api.keys.header(role))


def test_a_mystery_level_hides_its_range_from_the_public_and_is_won_within_it(api: Api) -> None:
    api.put_pool()
    api.put_pool("myst", reset=50, rate_bp=1_000, reserve_rate_bp=0, level="mystery",
                 trigger_low=100, trigger_high=200)  # fmt: skip
    public = api.pool("myst")
    assert public["level"] == "mystery" and "trigger_low" not in public
    assert api.meters("myst")["trigger_low"] == 100, "the operator and auditor see the range"
    api.put_table(pools=["main", "myst"])
    for n in range(30):
        losses(api, f"r{n}", 500)
    hits = entries(api, "myst", "hit")
    assert len(hits) >= 2
    assert all(100 <= h["trigger_cents"] <= 200 for h in hits)
    assert all(h["amount"] >= h["trigger_cents"] for h in hits)
    armed = entries(api, "myst", "trigger_armed")
    assert [(a["low"], a["high"]) for a in armed] == [(100, 200)] * (len(hits) + 1)


def test_a_change_of_range_or_type_keeps_the_armed_trigger_until_it_is_won(api: Api) -> None:
    """D228: no change re-draws the current cycle's trigger; the new range governs the draw
    made at the next hit. A ceiling below the armed draw's top is refused."""
    api.put_pool()
    must_hit_by(api)
    first = api.pool("mhb")["trigger"]
    must_hit_by(api, rate_bp=500)  # the rate is not the range: the trigger stays
    assert api.pool("mhb")["trigger"] == first and entries(api, "mhb", "trigger_revealed") == []
    must_hit_by(api, rate_bp=500, cap=100)  # a new ceiling: the trigger stays armed
    assert api.pool("mhb")["trigger"] == first and entries(api, "mhb", "trigger_revealed") == []
    assert len(entries(api, "mhb", "trigger_armed")) == 1
    header = api.keys.header("operator")
    post(api, "/v1/pools/mhb/suspend", {"reason": "a lower ceiling"})
    r = api.client.put("/v1/pools/mhb", json={"cap": 69}, headers=header)  # armed: 21..70
    assert assert_error(r, 409, "cap")["code"] == "trigger_range_in_force"
    assert api.meters("mhb")["cap"] == 100, "nothing changed"
    assert post(api, "/v1/pools/mhb/resume", {"reason": "play"}).status_code == 200
    api.put_table(pools=["main", "mhb"])
    for n in range(1, 20):  # 5 cents a $1 bet: the 21..70 draw is won within 10 of them
        if losses(api, f"r{n}", 100, 100, 100)["jackpots"]:
            break
    [hit] = entries(api, "mhb", "hit")
    assert 21 <= hit["trigger_cents"] <= 70 and hit["commitment"] == first["commitment"]
    armed = entries(api, "mhb", "trigger_armed")
    assert [(a["low"], a["high"]) for a in armed] == [(21, 70), (21, 100)], "the new range next"
    assert services_quiet(api)
    post(api, "/v1/pools/mhb/suspend", {"reason": "won by hands now"})
    r = api.client.put("/v1/pools/mhb", json={"level": "hand"}, headers=header)
    assert r.status_code == 200, r.get_json()  # won by hands now: revealed, none drawn
    assert entries(api, "mhb", "trigger_revealed")[-1]["why"] == "the level is won by hands now"
    assert "trigger" not in api.pool("mhb") and api.pool("mhb")["level"] == "hand"


def test_a_draw_is_never_narrowed_by_the_meter(api: Api) -> None:
    """A hand level becoming a must-hit-by with its meter above its reset once drew from a
    cent above the meter: a ceiling a cent above it was a one-cent draw, a certain win."""
    api.put_pool()
    api.put_pool("lvl", reset=0, rate_bp=100, reserve_rate_bp=0)
    api.put_table(pools=["main", "lvl"])
    losses(api, "r1", 2_500)  # lvl: 1% of $25 = 25 cents
    header = api.keys.header("operator")
    post(api, "/v1/pools/lvl/suspend", {"reason": "becomes a must-hit-by"})
    before = api.journal("lvl")
    for cap in (26, 2_000):
        r = api.client.put("/v1/pools/lvl", json={"level": "must_hit_by", "cap": cap},
                           headers=header)  # fmt: skip
        assert assert_error(r, 409, "reset")["code"] == "trigger_range_too_narrow"
    assert api.journal("lvl") == before and api.pool("lvl")["level"] == "hand", "unchanged"
    r = api.client.put("/v1/pools/lvl", json={"level": "mystery", "trigger_low": 20,
                       "trigger_high": 400}, headers=header)  # fmt: skip
    assert assert_error(r, 409, "trigger_low")["code"] == "trigger_range_too_narrow"
    r = api.client.put("/v1/pools/lvl", json={"level": "mystery", "trigger_low": 26,
                       "trigger_high": 400}, headers=header)  # fmt: skip
    assert r.status_code == 200, r.get_json()
    armed = entries(api, "lvl", "trigger_armed")
    assert [(a["low"], a["high"]) for a in armed] == [(26, 400)], "the whole range"


def test_a_trigger_level_keeps_its_meter_to_wagers(api: Api) -> None:
    api.put_pool()
    must_hit_by(api)
    up = {"id": "adj-1", "amount": 10, "reason": "correction"}
    r = post(api, "/v1/pools/mhb/adjustments", up)
    assert assert_error(r, 409, "target")["code"] == "adjustment_refused"
    assert post(api, "/v1/pools/mhb/adjustments", {**up, "target": "reserve"}).status_code == 200
    down = {"id": "adj-2", "amount": -10, "reason": "correction"}
    assert post(api, "/v1/pools/mhb/adjustments", down).status_code == 200


@pytest.mark.usefixtures("every_bet_qualifies")
def test_a_round_that_won_a_trigger_level_is_not_voided(api: Api) -> None:
    api.put_pool()
    must_hit_by(api, qualifying_wager=500)
    api.put_table(pools=["main", "mhb"])
    losses(api, "r0", 100)  # below the qualifying wager: it feeds the level, cannot win it
    for n in range(1, 60):
        if losses(api, f"r{n}", 500)["jackpots"]:
            break
    r = post(api, f"/v1/rounds/T1/r{n}/void", {"reason": "malfunction"})
    assert assert_error(r, 409, None)["code"] == "trigger_level_won"
    other = post(api, "/v1/rounds/T1/r0/void", {"reason": "malfunction"})
    assert other.status_code == 200, other.get_json()


def test_retiring_a_trigger_level_reveals_its_trigger(api: Api) -> None:
    api.put_pool()
    must_hit_by(api)
    published = api.pool("mhb")["trigger"]
    r = post(api, "/v1/pools/mhb/retire", {"id": "t-1", "to": "main", "reason": "re-themed"})
    assert r.status_code == 200, r.get_json()
    [moved] = entries(api, "mhb", "transfer")
    assert commitment("mhb", moved["trigger_cents"], moved["salt"]) == published["commitment"]


def test_a_running_level_becomes_must_hit_by_by_a_staged_change(api: Api) -> None:
    api.put_pool()
    api.put_pool("hourly", reset=20, rate_bp=1_000, reserve_rate_bp=0)
    api.put_table(pools=["main", "hourly"])
    header = api.keys.header("operator")
    change = {"level": "must_hit_by", "cap": 500, "reason": "hourly becomes must-hit-by $5"}
    body = {k: v for k, v in change.items() if k != "reason"}
    refused = api.client.put("/v1/pools/hourly", json=body, headers=header)
    assert assert_error(refused, 409, None)["code"] == "pool_running"
    staged = post(api, "/v1/pools/hourly/staged", change)
    assert staged.status_code == 200, staged.get_json()
    assert staged.get_json()["staged"]["level"] == "must_hit_by"
    assert "trigger" not in api.pool("hourly"), "nothing is drawn before the change applies"
    post(api, "/v1/pools/hourly/suspend", {"reason": "apply the staged change"})
    applied = api.pool("hourly")
    assert applied["level"] == "must_hit_by" and applied["trigger"]["draw"] == 1
    [config] = [e for e in api.journal("hourly") if e["type"] == "config"]
    assert config["level"] == "must_hit_by" and config["reason"] == change["reason"]
    assert entries(api, "hourly", "change_staged")[0]["level"] == "must_hit_by"


@pytest.mark.usefixtures("every_bet_qualifies")
def test_a_trigger_level_is_never_paid_by_a_hand_nor_out_of_every_bet_s_reach(api: Api) -> None:
    api.put_pool()
    must_hit_by(api)
    header = api.keys.header("operator")
    # the paytable's meter lines pay the table's first pool: a trigger level cannot be it
    r = api.client.put("/v1/tables/T1", json={"pools": ["mhb", "main"]}, headers=header)
    assert assert_error(r, 400, "paytable")["code"] == "trigger_level"
    api.put_table(pools=["main", "mhb"])
    post(api, "/v1/pools/main/suspend", {"reason": "make it a mystery"})
    r = api.client.put("/v1/pools/main", json={"level": "mystery", "trigger_low": 200_000,
                       "trigger_high": 300_000}, headers=header)  # fmt: skip
    assert assert_error(r, 400, "level")["code"] == "trigger_level"
    post(api, "/v1/pools/mhb/suspend", {"reason": "a qualifying wager"})
    r = api.client.put("/v1/pools/mhb", json={"qualifying_wager": 2_501}, headers=header)
    assert "none could win mhb" in assert_error(r, 400, "qualifying_wager")["message"]
    r = api.client.put("/v1/tables/T1", json={"max_wager": 400}, headers=header)
    assert r.status_code == 200, r.get_json()
    r = api.client.put("/v1/pools/mhb", json={"qualifying_wager": 500}, headers=header)
    assert_error(r, 400, "qualifying_wager")
    api.client.put("/v1/pools/mhb", json={"qualifying_wager": 400}, headers=header)
    r = api.client.put("/v1/tables/T1", json={"max_wager": 300}, headers=header)
    assert "none could win mhb" in assert_error(r, 400, "max_wager")["message"]


@pytest.mark.usefixtures("every_bet_qualifies")
def test_bets_that_cannot_win_never_leave_a_must_hit_by_level_due(api: Api) -> None:
    """The lab's finding: bets below the qualifying wager carried the meter to its ceiling
    unwon, and the next qualifying bet won it for certain. Their part goes to the reserve."""
    api.put_pool()
    must_hit_by(api, qualifying_wager=500)
    api.put_table(pools=["main", "mhb"])
    for n in range(8):  # $1 bets cannot win it: 24 of them would take 10 cents each
        losses(api, f"r{n}", 100, 100, 100)
    meters = api.meters("mhb")
    assert api.pool("mhb")["value"] == 20 and api.pool("mhb")["hits"] == 0, "not at the top"
    assert meters["reserve_units"] == 24 * 100 * 1_000, "the next cycle's"
    [*_, fed] = entries(api, "mhb", "contribution")
    assert (fed["steps"], fed["qualifying"]) == ("0,0,0", "000")
    # the rest of a round that won it feeds the reserve too: the new meter stays at reset
    for n in range(8, 60):
        answer = losses(api, f"r{n}", 2_500, 2_500, 2_500, 2_500)
        if answer["jackpots"]:
            break
    [hit] = entries(api, "mhb", "hit")
    assert hit["spot"] < 4, "won before the round's last bet"
    assert api.pool("mhb")["value"] == 20
    assert services_quiet(api)


def services_quiet(api: Api) -> bool:
    return audited(api.journal("mhb")) == []


def test_a_qualifying_wager_change_keeps_the_trigger(api: Api) -> None:
    """A qualifying wager once re-drew the trigger (D224: raised and lowered again it could
    park a level past it); since only a bet that can win moves the meter (D228), it keeps it."""
    api.put_pool()
    must_hit_by(api, qualifying_wager=500)
    first = api.pool("mhb")["trigger"]
    header = api.keys.header("operator")
    post(api, "/v1/pools/mhb/suspend", {"reason": "changes"})
    for change in ({"rate_bp": 900}, {"qualifying_wager": 200}, {"reset": 10}):
        r = api.client.put("/v1/pools/mhb", json=change, headers=header)
        assert r.status_code == 200, r.get_json()
    assert entries(api, "mhb", "trigger_revealed") == [] and api.pool("mhb")["trigger"] == first
    assert api.meters("mhb")["qualifying_wager"] == 200


def test_the_lab_s_narrowed_mystery_range_does_not_hand_over_the_next_bet(
    api: Api, services: Services
) -> None:
    """The lab: meter $11.05, suspend, range $10.01..$11.06, resume: the trigger was re-drawn
    from a cent above the meter, $11.06, and the next bet won it for certain."""
    api.put_pool()
    api.put_pool("myst", reset=0, rate_bp=1_000, reserve_rate_bp=0, level="mystery",
                 trigger_low=1_106, trigger_high=100_000)  # fmt: skip
    api.put_table(pools=["main", "myst"])
    hidden = hidden_trigger_units(services, "myst")
    published = api.pool("myst")["trigger"]
    losses(api, "r1", 2_500, 2_500, 2_500, 2_500, 1_050)  # 10% of $110.50: $11.05
    assert api.pool("myst")["value"] == 1_105
    assert post(api, "/v1/pools/myst/suspend", {"reason": "range"}).status_code == 200
    r = api.client.put("/v1/pools/myst", json={"trigger_low": 1_001, "trigger_high": 1_106},
                       headers=api.keys.header("operator"))  # fmt: skip
    assert r.status_code == 200, r.get_json()
    assert post(api, "/v1/pools/myst/resume", {"reason": "range"}).status_code == 200
    assert hidden_trigger_units(services, "myst") == hidden, "the armed trigger stays"
    assert api.pool("myst")["trigger"] == published
    assert entries(api, "myst", "trigger_revealed") == []
    answer = losses(api, "r2", 100)  # 10 cents: the meter at $11.15
    assert bool(answer["jackpots"]) == (hidden <= 1_115 * 10_000), "won only where it was armed"
    assert services_quiet_for(api, "myst")


def test_a_staged_narrowed_range_keeps_the_trigger_at_a_suspension_and_its_time(
    api: Api, services: Services
) -> None:
    """The staged path: a change applied at a suspension, or by the worker at its time,
    keeps the armed trigger as a PUT does."""
    api.put_pool()
    api.put_pool("myst", reset=0, rate_bp=1_000, reserve_rate_bp=0, level="mystery",
                 trigger_low=1_106, trigger_high=100_000)  # fmt: skip
    api.put_table(pools=["main", "myst"])
    hidden = hidden_trigger_units(services, "myst")
    losses(api, "r1", 2_500, 2_500, 2_500, 2_500, 1_050)
    narrow = {"trigger_low": 1_001, "trigger_high": 1_106, "reason": "narrow"}
    assert post(api, "/v1/pools/myst/staged", narrow).status_code == 200
    assert post(api, "/v1/pools/myst/suspend", {"reason": "apply"}).status_code == 200
    assert api.meters("myst")["trigger_high"] == 1_106, "applied"
    assert hidden_trigger_units(services, "myst") == hidden
    assert post(api, "/v1/pools/myst/resume", {"reason": "play"}).status_code == 200
    later = {"trigger_low": 1_001, "trigger_high": 1_107, "reason": "again",
             "effective_at": "2031-01-01T00:00:00Z"}  # fmt: skip
    assert post(api, "/v1/pools/myst/staged", later).status_code == 200
    assert services.pools.apply_due(NEW_YEAR_2031) == {"myst": "updated"}
    assert api.meters("myst")["trigger_high"] == 1_107
    assert hidden_trigger_units(services, "myst") == hidden
    assert len(entries(api, "myst", "trigger_armed")) == 1
    assert entries(api, "myst", "trigger_revealed") == []


def services_quiet_for(api: Api, pool: str) -> bool:
    return audited(api.journal(pool), pool) == []


def armed_hash(services: Services, pool: str) -> tuple[Any, str]:
    group = services.groups.of_pool(pool)
    return group.client, group.keys.pool(pool)


def test_a_trigger_changed_in_the_store_is_not_paid_and_makes_the_controller_inoperable(
    api: Api, services: Services
) -> None:
    api.put_pool()
    must_hit_by(api)
    api.put_table(pools=["main", "mhb"])
    client, key = armed_hash(services, "mhb")
    # a cent above the reset, which a $1 bet reaches: unless the draw was that cent itself
    # (one in 50), then the next one (CI found the draw of 21 paid, rightly)
    forged = "22" if client.hget(key, "trigger") in ("21", b"21") else "21"
    client.hset(key, "trigger", forged)
    r = api.report(round_body("r1", spots=[{"spot": 1, "wager": 100, "card": "2c"}]))
    assert assert_error(r, 503, None)["code"] == "controller_inoperable"
    assert entries(api, "mhb", "hit") == [] and api.pool("mhb")["value"] == 20, "nothing moved"
    assert any("trigger" in p.message for p in services.health.run().problems)
    assert api.client.get("/readyz").status_code == 503


def test_a_commitment_and_salt_changed_under_the_same_draw_are_caught(
    api: Api, services: Services
) -> None:
    api.put_pool()
    must_hit_by(api)
    api.put_table(pools=["main", "mhb"])
    client, key = armed_hash(services, "mhb")
    salt = "00" * 16  # a trigger, salt and commitment that open each other, not the journal's
    client.hset(key, mapping={"trigger": "21", "trigger_salt": salt,
                              "commitment": commitment("mhb", 21, salt)})  # fmt: skip
    r = api.report(round_body("r1", spots=[{"spot": 1, "wager": 100, "card": "2c"}]))
    assert assert_error(r, 503, None)["code"] == "controller_inoperable"
    assert entries(api, "mhb", "hit") == []
    problems = services.health.run().problems
    assert any("journal armed" in p.message for p in problems), problems
    assert api.client.get("/readyz").status_code == 503


def test_an_untouched_trigger_leaves_the_self_check_quiet(api: Api, services: Services) -> None:
    journal = played(api)  # several hits, each re-armed in the round that won it
    assert sum(1 for e in journal if e["type"] == "trigger_armed") >= 4
    assert services.health.run().problems == ()


def replayed(api: Api, services: Services) -> dict[str, Any]:
    """The lab's finding F1 up to the tampering: P10 (reset $1, 3%, must-hit-by $3) hits at its
    trigger of $1.29 (draw 1) on the second $5 round and arms draw 2 at seq 7; then draw 1's
    public trigger, salt and commitment are written back with the seq that armed it. Returns
    draw 1's hit."""
    real = config_store.draw_trigger

    def first_at_129(pool: str, span: tuple[int, int], rng: Random | None = None) -> Trigger:
        drawn = real(pool, span, rng)
        return Trigger(pool, 129, drawn.salt, commitment(pool, 129, drawn.salt), *span)

    api.put_pool()
    with pytest.MonkeyPatch.context() as lab:
        lab.setattr(config_store, "draw_trigger", first_at_129)  # the lab's draw 1
        api.put_pool("P10", reset=100, rate_bp=300, reserve_rate_bp=0, level="must_hit_by",
                     cap=300)  # fmt: skip
    api.put_table(pools=["main", "P10"])
    losses(api, "r1", 500)
    assert losses(api, "r2", 500)["jackpots"], "$1.30 reached the trigger of $1.29"
    [hit] = api.client.get("/v1/pools/P10").get_json()["last_hits"]  # the public read
    assert (hit["trigger"], hit["level"]) == (129, "must_hit_by")
    [armed] = [e for e in entries(api, "P10", "trigger_armed") if str(e["draw"]) == "2"]
    assert armed["seq"] == 7
    client, key = armed_hash(services, "P10")
    old = {"trigger": "129", "trigger_salt": hit["salt"], "commitment": hit["commitment"]}
    client.hset(key, mapping={**old, "draw": "1", "armed_seq": "2"})  # all public, or journaled
    return dict(hit)


@pytest.mark.usefixtures("every_bet_qualifies")
def test_the_lab_s_replayed_trigger_is_not_paid(api: Api, services: Services) -> None:
    replayed(api, services)
    losses(api, "r3", 500)  # $1.15: below the replayed trigger
    r = api.report(round_body("r4", spots=[{"spot": 1, "wager": 500, "card": "2c"}]))
    assert assert_error(r, 503, None)["code"] == "controller_inoperable"
    assert len(entries(api, "P10", "hit")) == 1, "the replayed trigger paid nothing"
    assert api.pool("P10")["value"] == 115, "nothing moved"


@pytest.mark.usefixtures("every_bet_qualifies")
def test_the_self_check_catches_a_replayed_trigger_before_any_bet(
    api: Api, services: Services
) -> None:
    replayed(api, services)
    problems = services.health.run().problems
    assert [p.code for p in problems] == ["trigger_tampered"], problems
    assert "draw 1 is not the newest" in problems[0].message
    assert api.client.get("/readyz").status_code == 503
    r = api.report(round_body("r3", spots=[{"spot": 1, "wager": 500, "card": "2c"}]))
    assert assert_error(r, 503, None)["code"] == "controller_inoperable"


def test_many_hits_and_a_trimmed_journal_raise_no_alarm(
    api: Api, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = played(api)
    hits = sum(1 for e in journal if e["type"] == "hit")
    assert services.health.run().problems == ()
    group = services.groups.of_pool("mhb")
    monkeypatch.setattr(group.archiver, "_keep_ms", -60_000)  # every archived entry is old
    services.archiver.run()
    assert group.client.xlen(group.keys.pool_journal("mhb")) == 0
    assert services.health.run().problems == (), "the arming archived and trimmed"
    losses(api, "t0", 100)  # the tail holds a contribution after the trimmed arming
    assert services.health.run().problems == ()
    for n in range(1, 60):
        losses(api, f"t{n}", 100, 500, 100)
    assert sum(1 for e in api.journal("mhb") if e["type"] == "hit") > hits, "paid after the trim"
    assert services.health.run().problems == ()


@pytest.mark.usefixtures("every_bet_qualifies")
def test_a_replayed_trigger_whose_arming_was_trimmed_is_caught(
    api: Api, services: Services
) -> None:
    """Draw 1's arming archived and trimmed (as the archiver trims: XTRIM MINID), draw 2's still
    in Redis: the tail after the replayed seq reveals draw 1 and arms draw 2."""
    replayed(api, services)
    group = services.groups.of_pool("P10")
    services.archiver.run(trim=False)
    group.client.xtrim(group.keys.pool_journal("P10"), minid="3-0", approximate=False)
    problems = services.health.run().problems
    assert any("draw 1 is not the newest" in p.message for p in problems), problems
    for n in (3, 4):
        r = api.report(round_body(f"r{n}", spots=[{"spot": 1, "wager": 500, "card": "2c"}]))
        assert assert_error(r, 503, None)["code"] == "controller_inoperable"
    assert len(entries(api, "P10", "hit")) == 1, "the replayed trigger paid nothing"
