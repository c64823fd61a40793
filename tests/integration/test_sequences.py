"""A model that tries sequences (issue 37): Hypothesis draws sequences of every step that
moves money or acts on it — rounds new and resent (the same body, a changed one, a fresh
`dealt_at`) before and after archive runs that trim, whole and partial voids and their
approvals, hand-pay confirmations, approvals, disputes and payout voids under different
people's keys, staged changes, game changes, suspensions and resumes, a retirement, a table
moved between pools, adjustments, trigger-level rounds and a forged trigger, archive runs,
gaming-day closes, clock steps — against the controller on a real redis-server with a SQLite
archive, and checks after every step the invariants of tests/support/sequences.py.

The bounded run is part of `./dev test` (about a minute); the long run is
`JACKPOT_SEQUENCE_STEPS=10000 ./dev test tests/integration/test_sequences.py -n 0`
(docs/TESTING.md). Steps that reach a hole known and being fixed elsewhere are left out by
KNOWN_HOLES; each hole's own regression test below replays the sequence the model found."""

from __future__ import annotations

import copy
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from jackpot.domain.paytable import SEED_PAYTABLE
from tests.support import sequences as seq
from tests.support.archive_world import World, dealt, world_of
from tests.support.people import pid as person_id
from tests.support.redis_server import RedisServer

# Steps left out while the hole they reach is open, each naming its hole and the test below
# that replays it: empty since issue 37's fixes landed. A hole found later goes here only
# while its fix is under way (JACKPOT_SEQUENCE_ALL_STEPS=1 runs every step regardless).
KNOWN_HOLES: dict[str, str] = {}
if os.environ.get("JACKPOT_SEQUENCE_ALL_STEPS"):
    KNOWN_HOLES = {}

STEPS = int(os.environ.get("JACKPOT_SEQUENCE_STEPS", "0"))  # the long run: total steps
BOUNDED = settings(
    max_examples=22,  # 22 sequences of up to 45 steps: about a minute on 2 cores
    stateful_step_count=45,
    deadline=None,
    derandomize=True,  # the same sequences on every run and on CI: a red run replays
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate, Phase.shrink],  # explain traces every line: slow
)
LONG = settings(
    max_examples=max(STEPS // 100, 1),
    stateful_step_count=100,
    deadline=None,
    derandomize=False,  # new sequences each time: what the long run is for
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate, Phase.shrink],  # explain traces every line: slow
)

TAKEN: list[int] = []  # the steps each sequence took, for the long run's count
TABLES = ("T1", "T2", "T3")
HAND_POOLS = ("main", "spare", "far")
RICHER = copy.deepcopy(SEED_PAYTABLE.to_json())
RICHER["tie"] = {"odds": 7}  # 86% at main's 1% rate, 101% at a 16% one (seed paytable: 90%)


class Sequences(RuleBasedStateMachine):
    def __init__(self, redis: redis_lib.Redis, server: RedisServer, data: Path) -> None:
        super().__init__()
        self._world = world_of(
            redis,
            server.url,
            data / uuid.uuid4().hex,
            handpay_approval_cents=seq.APPROVAL_CENTS,
            # the floor's mix stated outright: T3's bets below mhb's qualifying wager are
            # priced as none of its handle (D229), so the model's level is accepted and its
            # small bets can try to leave it due
            below_qualifying_share_bp=0,
        )
        self.w: World = self._world.__enter__()
        seq.furnish(self.w)
        self.people = seq.people(self.w)
        self.table_key = seq.table_key(self.w, *TABLES)
        self.ledger = seq.Ledger(commitments={"mhb": set()})
        self.ids: list[tuple[str, str]] = []  # rounds the model sent, settled or not
        self.n = 0
        self.replaying = False  # a regression test replaying a hole takes every step
        self.windows = 0  # how many times the clock passed the retention window
        self.dealt_window: dict[tuple[str, str], int] = {}
        self.terms_changed = False  # a reset changed or a pool retired since the start
        self.moved = False  # T2 moved to link group east
        seq.check_triggers_open_commitments(self.w, self.ledger)  # the first published

    def teardown(self) -> None:
        TAKEN.append(len(self.ledger.steps))
        try:
            seq.archive(self.w, self.ledger)
        finally:
            self.close()

    def close(self) -> None:
        self._world.__exit__(None, None, None)

    # --- helpers -----------------------------------------------------------------------------

    def left_out(self, hole: str) -> bool:
        """Whether the steps that reach `hole` are left out (not when a test replays it)."""
        return hole in KNOWN_HOLES and not self.replaying

    def note(self, text: str) -> None:
        self.ledger.steps.append(text)

    def post(self, path: str, body: Any, person: str | None = None) -> Any:
        header = self.people[person] if person else self.w.api.keys.header("operator")
        return self.w.api.client.post(path, json=body, headers=header)

    def record(self, key: tuple[str, str], body: dict[str, Any], answer: Any) -> None:
        if answer.status_code != 200:
            return
        got = answer.get_json()
        if got.get("replayed"):
            return
        assert key not in self.ledger.rounds, seq.fail(
            self.ledger,
            "each (table, round) settled at most once, whatever its dealt_at",
            f"{key} settled again: {got}",
        )
        self.ledger.rounds[key] = body
        self.ledger.resets[key] = {p.pool: p.config.reset for p in self.w.services.pools.all()}
        for jp in got.get("jackpots", []):
            self.ledger.payouts[jp["id"]] = int(jp["amount"])
            self.ledger.payout_round[jp["id"]] = key

    def report(self, body: dict[str, Any]) -> Any:
        return self.w.api.client.post("/v1/rounds", json=body, headers=self.table_key)

    def pick(self, i: int) -> tuple[str, str]:
        return self.ids[i % len(self.ids)]

    # --- rounds ------------------------------------------------------------------------------

    @rule(table=st.sampled_from(TABLES), kind=st.sampled_from(("loss", "hit", "two", "big")))
    def play(self, table: str, kind: str) -> None:
        if table == "T3":
            kind = "big" if kind in ("hit", "big") else "small"
            if kind == "small" and self.left_out("must_hit_by_small_bets"):
                kind = "big"
        elif kind == "big":
            kind = "loss"
        self.n += 1
        key = (table, f"r{self.n}")
        body = seq.body_of(self.w, table, key[1], kind)
        self.note(f"table {table} reports round {key[1]} ({kind})")
        answer = self.report(body)
        assert answer.status_code in (200, 409), answer.get_json()
        self.ids.append(key)
        self.dealt_window[key] = self.windows
        self.record(key, body, answer)

    @precondition(lambda self: self.ids)
    @rule(i=st.integers(0, 999), how=st.sampled_from(("same", "changed", "fresh", "undated")))
    def resend(self, i: int, how: str) -> None:
        key = self.pick(i)
        body = self.ledger.rounds.get(key)
        if body is None:
            return
        if how == "fresh" and self.left_out("resend_after_trim"):
            if self.dealt_window[key] != self.windows:
                how = "same"  # it may have been trimmed: the hole
        if how == "changed":
            first, *rest = body["spots"]
            body = {**body, "spots": [{**first, "wager": 700}, *rest]}
        elif how == "fresh":
            body = {**body, "dealt_at": dealt(self.w.clock)}
        elif how == "undated":
            body = {k: v for k, v in body.items() if k != "dealt_at"}
        self.note(f"table {key[0]} resends round {key[1]} ({how} body)")
        answer = self.report(body)
        assert answer.status_code in (200, 409, 422), answer.get_json()
        if how != "same":
            assert answer.status_code != 200 or answer.get_json().get("replayed"), seq.fail(
                self.ledger,
                "each (table, round) settled at most once, whatever its dealt_at",
                f"{key} resent with a {how} body was settled: {answer.get_json()}",
            )
        self.record(key, body, answer)

    # --- round voids -------------------------------------------------------------------------

    @precondition(lambda self: self.ids)
    @rule(
        i=st.integers(0, 999),
        spots=st.sampled_from((None, [1], [2])),
        person=st.sampled_from(seq.PEOPLE),
    )
    def void_round(self, i: int, spots: list[int] | None, person: str) -> None:
        key = self.pick(i)
        if key not in self.ledger.rounds:
            return
        if self.left_out("void_after_terms_change") and self.terms_changed:
            return
        body: dict[str, Any] = {"reason": "model"}
        if spots:
            body["spots"] = spots
        self.note(f"{person} voids round {key[1]} of {key[0]} (spots {spots or 'all'})")
        r = self.post(f"/v1/rounds/{key[0]}/{key[1]}/void", body, person)
        assert r.status_code in (200, 202, 400, 409), r.get_json()
        if r.status_code == 200 and r.get_json()["result"] == "voided":
            self.ledger.round_voided.add(key)

    @precondition(lambda self: self.ids)
    @rule(i=st.integers(0, 999), person=st.sampled_from(seq.PEOPLE))
    def approve_void(self, i: int, person: str) -> None:
        key = self.pick(i)
        if key not in self.ledger.rounds:
            return
        if self.left_out("void_after_terms_change") and self.terms_changed:
            return
        self.note(f"{person} approves the void of round {key[1]} of {key[0]}")
        r = self.post(f"/v1/rounds/{key[0]}/{key[1]}/void/approve", {"reason": "ok"}, person)
        assert r.status_code in (200, 409), r.get_json()
        if r.status_code == 200 and r.get_json()["result"] == "voided":
            self.ledger.round_voided.add(key)

    # --- payouts -----------------------------------------------------------------------------

    @precondition(lambda self: self.ids)
    @rule(
        i=st.integers(0, 999),
        step=st.sampled_from(("confirm", "approve", "dispute", "void")),
        person=st.sampled_from(seq.PEOPLE),
    )
    def payout_step(self, i: int, step: str, person: str) -> None:
        ids = sorted(self.ledger.payouts)
        if not ids:  # (preconditions read only what the model decides: a hidden trigger's
            return  # hit is the store's draw, and a replay must draw the same steps)
        pid = ids[i % len(ids)]
        amount = self.ledger.payouts[pid]
        if step == "void" and self.left_out("payout_void_one_person"):
            if amount >= seq.APPROVAL_CENTS:
                step = "dispute"
        body: dict[str, Any] = {"reason": "model"}
        if step == "confirm":
            body = {"paid_by": person_id(person), "witness": person_id(seq.WITNESS),
                    "slip": f"HP-{pid}"}  # fmt: skip
        self.note(f"{person} {step}s payout {pid} ({amount} cents)")
        r = self.post(f"/v1/payouts/{pid}/{step}", body, person)
        assert r.status_code in (200, 202, 409), r.get_json()
        if step == "void" and r.status_code in (200, 202):
            self.ledger.payout_voiders.setdefault(pid, set()).add(person)

    # --- link control and terms ----------------------------------------------------------------

    @rule(pool=st.sampled_from(seq.POOLS), suspend=st.booleans())
    def link(self, pool: str, suspend: bool) -> None:
        if pool in self.ledger.retired:
            return
        what = "suspend" if suspend else "resume"
        self.note(f"an operator {what}s pool {pool}")
        r = self.post(f"/v1/pools/{pool}/{what}", {"reason": "model"})
        assert r.status_code == 200, r.get_json()

    @rule(
        pool=st.sampled_from(HAND_POOLS),
        change=st.sampled_from(
            (
                {"rate_bp": 200},
                {"rate_bp": 100},
                {"rate_bp": 1_600},
                {"reset": 60_000},
                {"reset": 100_000},
                {"reset": 150_000},
            )  # fmt: skip
        ),
    )
    def stage(self, pool: str, change: dict[str, int]) -> None:
        if pool in self.ledger.retired:
            return
        if "rate_bp" in change and self.left_out("staged_rate"):
            return
        self.note(f"an operator stages {change} on pool {pool}")
        r = self.post(f"/v1/pools/{pool}/staged", {**change, "reason": "model"})
        assert r.status_code in (200, 400, 409), r.get_json()
        if r.status_code == 200 and "reset" in change:
            self.terms_changed = True

    @rule(paytable=st.sampled_from(("seed", "richer")))
    def game(self, paytable: str) -> None:
        table = RICHER if paytable == "richer" else SEED_PAYTABLE.to_json()
        self.note(f"an operator changes main's game to the {paytable} paytable")
        header = self.w.api.keys.header("operator")
        body = {"paytable": table, "reason": "model"}
        r = self.w.api.client.put("/v1/pools/main/game", json=body, headers=header)
        assert r.status_code in (200, 400, 409), r.get_json()

    @rule(
        pool=st.sampled_from(seq.POOLS),
        amount=st.sampled_from((100, -100, 2_500)),
        where=st.sampled_from(("visible", "reserve")),
    )
    def adjust(self, pool: str, amount: int, where: str) -> None:
        if pool in self.ledger.retired and self.left_out("adjust_retired"):
            return
        self.n += 1
        body = {"id": f"adj{self.n}", "amount": amount, "target": where, "reason": "model"}
        self.note(f"an operator adjusts pool {pool}'s {where} by {amount} cents")
        r = self.post(f"/v1/pools/{pool}/adjustments", body)
        assert r.status_code in (200, 201, 409), r.get_json()
        if r.status_code in (200, 201):
            self.ledger.adjustments[pool] += amount * seq.UNIT
            again = self.post(f"/v1/pools/{pool}/adjustments", body)
            assert again.get_json().get("replayed") is True, again.get_json()

    @precondition(lambda self: not self.moved and "spare" not in self.ledger.retired)
    @rule()
    def move_t2(self) -> None:
        """T2 is disabled, moved to link group `east` (pool `far`) and enabled there."""
        self.note("an operator disables table T2, moves it to pool far (group east), enables it")
        self.w.api.put_table("T2", pools=["spare"], enabled=False, reason="model")
        header = self.w.api.keys.header("operator")
        body = {"pools": ["far"], "reason": "model"}
        r = self.w.api.client.post("/v1/tables/T2/move", json=body, headers=header)
        assert r.status_code == 200, r.get_json()
        self.w.api.put_table("T2", pools=["far"], enabled=True, reason="model")
        self.moved = True

    @rule(
        terms=st.sampled_from(
            (
                {"level": "mystery", "trigger_low": 1_050, "trigger_high": 1_100},
                {"level": "must_hit_by", "qualifying_wager": 2_500},
                {"level": "must_hit_by", "qualifying_wager": 500},
            )
        )
    )
    def trigger_terms(self, terms: dict[str, Any]) -> None:
        """mhb's trigger terms change while it is suspended: the trigger drawn before is
        revealed and another drawn."""
        self.note(f"an operator suspends mhb, changes its terms to {terms}, resumes it")
        header = self.w.api.keys.header("operator")
        self.post("/v1/pools/mhb/suspend", {"reason": "model"})
        body = {**seq.MHB, **terms}
        if terms["level"] == "mystery":
            body.pop("qualifying_wager")
        r = self.w.api.client.put("/v1/pools/mhb", json=body, headers=header)
        assert r.status_code in (200, 409), r.get_json()
        self.post("/v1/pools/mhb/resume", {"reason": "model"})

    @precondition(lambda self: "spare" not in self.ledger.retired and not self.moved)
    @rule()
    def retire_spare(self) -> None:
        """T2 moves to `main`, then `spare` retires into it."""
        self.note("an operator moves table T2 to pool main and retires spare into main")
        self.w.api.put_table("T2", pools=["main"], paytable=self.main_paytable())
        r = self.post("/v1/pools/spare/retire", {"id": "ret1", "to": "main", "reason": "model"})
        assert r.status_code == 200, r.get_json()
        moved = int(r.get_json()["moved_units"])
        self.ledger.adjustments["spare"] -= moved  # a transfer counts with the adjustments
        self.ledger.adjustments["main"] += moved
        self.ledger.retired.add("spare")
        self.terms_changed = True

    def main_paytable(self) -> Any:
        t1 = self.w.api.client.get("/v1/tables/T1", headers=self.w.api.keys.header("auditor"))
        return t1.get_json()["paytable"]

    @rule()
    def forge_trigger(self) -> None:
        """Someone with the store's password lowers mhb's armed trigger to just above its
        meter: the script must not pay a trigger that does not open its commitment."""
        if self.left_out("forged_trigger"):
            return
        self.note("someone with the store's password forges mhb's armed trigger")
        key = self.w.services.groups.main.keys.pool("mhb")
        armed = self.w.redis.hget(key, "trigger")
        if armed is None:
            return
        value = int(self.w.redis.hget(key, "value_units") or 0) // seq.UNIT
        self.w.redis.hset(key, "trigger", value + 1)
        hits = self.w.api.pool("mhb")["hits"]
        self.n += 1
        body = seq.body_of(self.w, "T3", f"r{self.n}", "big")
        self.note(f"table T3 reports round r{self.n} (big) on the forged trigger")
        answer = self.report(body)
        code = (answer.get_json().get("error") or {}).get("code")
        # refused: the forgery makes the controller inoperable (a suspended mhb refuses first)
        assert code in ("controller_inoperable", "progressive_closed"), seq.fail(
            self.ledger,
            "a revealed trigger opens the commitment published before play",
            f"a round on a forged trigger was answered {answer.status_code}: {answer.get_json()}",
        )
        assert self.w.api.pool("mhb")["hits"] == hits, "nothing paid on a forged trigger"
        assert not self.w.services.health.run().operable, "the self-check sees the forgery"
        self.note("the forgery is found and the armed trigger put back")
        self.w.redis.hset(key, "trigger", armed)
        assert self.w.services.health.run().operable, "and play resumes once it is put back"

    # --- time, archive, days -----------------------------------------------------------------

    @rule()
    def archive(self) -> None:
        self.note("the archive runs")
        seq.archive(self.w, self.ledger)

    @rule(window=st.booleans())
    def clock(self, window: bool) -> None:
        if window:
            self.note("the clock passes the retention window")
            self.w.clock.pass_window()
            self.windows += 1
        else:
            self.note("the clock moves 2 s")
            self.w.clock.offset_ms += 2_000
        self.sync_clock()

    def sync_clock(self) -> None:
        """The journals are stamped by the controller clock, Redis's time, never earlier than
        the last stamp: moved with the service's, as a host whose clock jumped moves it."""
        now = self.w.clock()
        for name in seq.GROUPS:
            group = self.w.services.groups.of(name)
            counters = group.keys.counters
            if int(group.client.hget(counters, "clock") or 0) < now:
                group.client.hset(counters, "clock", now)

    @rule()
    def close_days(self) -> None:
        self.note("a day passes; the archive runs and the worker closes the days that ended")
        self.w.clock.pass_days(1)
        self.windows += 1
        self.sync_clock()
        seq.archive(self.w, self.ledger)
        self.w.services.accounting.close_due()

    @invariant()
    def holds(self) -> None:
        if not hasattr(self, "w"):
            return
        seq.check_all(self.w, self.ledger)


@pytest.fixture
def machine(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[Any]:
    def make() -> Sequences:
        return Sequences(redis, redis_server, tmp_path)

    yield make


@pytest.mark.timeout(max(300, STEPS))  # the long run: about 0.2 s a step, a second allowed
def test_sequences_keep_every_invariant(machine: Any) -> None:
    """The bounded run (~1 minute), or with JACKPOT_SEQUENCE_STEPS the long one: sequences
    of up to 100 steps until at least that many steps were taken in all."""
    if not STEPS:
        run_state_machine_as_test(machine, settings=BOUNDED)
        return
    TAKEN.clear()
    while sum(TAKEN) < STEPS:
        run_state_machine_as_test(machine, settings=LONG)
    print(f"the long run took {sum(TAKEN)} steps in {len(TAKEN)} sequences")


# --- the holes the model found on the code it was written against (issue 37), each replayed
# as the sequence it shrank to; the integrator drops each marker once its fix is merged


@pytest.fixture
def replay(machine: Any) -> Iterator[Sequences]:
    """The model's world, taking every step (KNOWN_HOLES aside), checked after each."""
    m = machine()
    m.replaying = True
    try:
        yield m
    finally:
        m.close()


def steps(m: Sequences, *taken: Any) -> None:
    """Take each step (a bound rule and its arguments), checking every invariant after it,
    then run the archive as the machine's teardown does."""
    m.holds()
    for step, *args in taken:
        step(*args)
        m.holds()
    m.archive()
    m.holds()


def test_a_round_resent_after_its_record_was_trimmed_is_not_settled_again(
    replay: Sequences,
) -> None:
    m = replay
    steps(m, (m.play, "T1", "loss"), (m.archive,), (m.clock, True), (m.archive,),
          (m.resend, 0, "fresh"))  # fmt: skip


def test_a_payout_void_above_the_threshold_needs_a_second_person(replay: Sequences) -> None:
    m = replay
    steps(m, (m.play, "T1", "hit"), (m.payout_step, 0, "dispute", "Dana Reyes"),
          (m.payout_step, 0, "void", "Dana Reyes"))  # fmt: skip


def test_a_void_after_a_retirement_never_seeds_the_retired_pool(replay: Sequences) -> None:
    m = replay
    steps(m, (m.play, "T2", "hit"), (m.retire_spare,), (m.void_round, 0, None, "Lee Chan"),
          (m.approve_void, 0, "Sam Okafor"))  # fmt: skip


def test_a_void_after_a_reset_raise_never_tops_up_to_the_new_reset(replay: Sequences) -> None:
    m = replay
    steps(m, (m.play, "T1", "hit"), (m.stage, "main", {"reset": 150_000}),
          (m.link, "main", True), (m.link, "main", False),
          (m.void_round, 0, None, "Lee Chan"), (m.approve_void, 0, "Sam Okafor"))  # fmt: skip


def test_a_jackpot_under_a_held_void_is_not_paid_before_the_void_is_decided(
    replay: Sequences,
) -> None:
    m = replay
    steps(m, (m.play, "T1", "hit"), (m.void_round, 0, None, "Lee Chan"),
          (m.payout_step, 0, "confirm", "Dana Reyes"), (m.payout_step, 0, "approve", "Sam Okafor"),
          (m.approve_void, 0, "Sam Okafor"))  # fmt: skip


def test_a_jackpot_confirmed_then_disputed_stays_out_of_a_rounds_void(
    replay: Sequences,
) -> None:
    m = replay
    steps(m, (m.play, "T1", "hit"), (m.payout_step, 0, "confirm", "Dana Reyes"),
          (m.payout_step, 0, "dispute", "Sam Okafor"), (m.void_round, 0, None, "Lee Chan"),
          (m.approve_void, 0, "Dana Reyes"))  # fmt: skip


def test_a_staged_rate_applied_at_a_suspension_keeps_the_return_below_100(
    replay: Sequences,
) -> None:
    m = replay
    steps(m, (m.stage, "main", {"rate_bp": 1_600}), (m.game, "richer"), (m.link, "main", True))


def test_small_bets_never_leave_a_must_hit_by_meter_at_its_ceiling(replay: Sequences) -> None:
    m = replay
    steps(m, *[(m.play, "T3", "loss")] * 2)


def test_a_forged_armed_trigger_is_not_paid(replay: Sequences) -> None:
    m = replay
    steps(m, (m.play, "T3", "small"), (m.forge_trigger,), (m.play, "T3", "hit"))


def test_an_adjustment_never_puts_money_into_a_retired_pool(replay: Sequences) -> None:
    m = replay
    steps(m, (m.retire_spare,), (m.adjust, "spare", 100, "visible"))
