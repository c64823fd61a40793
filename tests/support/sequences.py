"""A world for the sequence model (tests/integration/test_sequences.py): the controller on a
real redis-server and a SQLite archive (tests/support/archive_world.py) with a tiny retention
window and a clock the model moves, three pools (`main` and `spare` won by hands, `mhb` a
must-hit-by level), three tables, operators who are different people, and the checks the
model makes after every step, each named for the invariant it holds.

The model keeps what it did (the rounds it settled, the payouts, who asked for what) and
compares it with the service's own reads: the meters, the journals (archive and Redis as one
sequence), the payouts, `jackpot verify` and the archive run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from jackpot.domain.auth import Role
from jackpot.domain.returns import priced
from jackpot.domain.triggers import revealed
from tests.support.api import round_body
from tests.support.archive_world import World, dealt
from tests.support.people import issue, person

UNIT = 10_000  # units per cent
POOLS = ("main", "spare", "far", "mhb")
GROUPS = ("main", "east")
APPROVAL_CENTS = 50_000  # JACKPOT_HANDPAY_APPROVAL_CENTS of the model's world: $500
PEOPLE = ("Dana Reyes", "Lee Chan", "Sam Okafor")
WITNESS = "Kim Park"  # witnesses every hand pay and never holds a key

# the must-hit-by level: $10.00 to its $11.00 ceiling, 1% of each wager, won only by a bet
# of $25.00 (the table's largest): a round of seven $20.00 bets moves it $1.40
MHB = {
    "reset": 1_000,
    "cap": 1_100,
    "rate_bp": 100,
    "reserve_rate_bp": 0,
    "level": "must_hit_by",
    "qualifying_wager": 2_500,
}


@dataclass
class Ledger:
    """What the model did, to compare with what the service says."""

    steps: list[str] = field(default_factory=list)
    # (table, round) -> the body it was settled with
    rounds: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    payouts: dict[str, int] = field(default_factory=dict)  # id -> amount (cents)
    payout_round: dict[str, tuple[str, str]] = field(default_factory=dict)
    # payout id -> the people whose void of it the service answered 200
    payout_voiders: dict[str, set[str]] = field(default_factory=dict)
    resets: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)  # at settling
    round_voided: set[tuple[str, str]] = field(default_factory=set)  # voided whole or in part
    retired: set[str] = field(default_factory=set)
    commitments: dict[str, set[str]] = field(default_factory=dict)  # pool -> published
    adjustments: Counter[str] = field(default_factory=Counter)  # pool -> units the model moved
    archived_once: bool = False

    def recipe(self) -> str:
        return "\n".join(f"  {i + 1}. {s}" for i, s in enumerate(self.steps))


def people(w: World) -> dict[str, dict[str, str]]:
    """An operator key for each person, by name (the witness registered too)."""
    out = {}
    person(w.services, WITNESS)
    for name in PEOPLE:
        secret = issue(w.services, Role.OPERATOR, (), name)
        out[name] = {"Authorization": f"Bearer {secret}"}
    return out


def table_key(w: World, *tables: str) -> dict[str, str]:
    secret, _ = w.services.credentials.create(Role.TABLE, frozenset(tables), "the tables")
    return {"Authorization": f"Bearer {secret}"}


def furnish(w: World) -> None:
    """`main` fed by T1 (the world's), `spare` fed by T2, `mhb` fed by T3; `far` in link
    group `east`, where T2 may move."""
    w.api.put_pool("spare", reset=40_000, rate_bp=100, reserve_rate_bp=20)
    w.api.put_table("T2", pools=["spare"])
    w.api.put_pool("far", group="east", reset=40_000, rate_bp=100, reserve_rate_bp=20)
    w.api.put_pool("mhb", **MHB)
    w.api.put_table("T3", pools=["mhb"], paytable=NO_METER_PAYTABLE)


# a paytable that pays no meter percentage: what a table feeding only a trigger level plays
NO_METER_PAYTABLE: dict[str, Any] = {
    "suited_four_of_a_kind": {"odds": 1000},
    "suited_double_tie": {"odds": 200},
    "four_of_a_kind": {"odds": 150},
    "double_tie": {"odds": 30},
    "suited_tie": {"odds": 15},
    "tie": {"odds": 5},
}


def body_of(w: World, table: str, round_id: str, kind: str) -> dict[str, Any]:
    """A round of `kind`: `loss` (one $5 bet lost), `hit` (a suited war of aces: the meter
    of the table's first pool), `two` (a hit on spot 1 and a loss on spot 2), `small` (seven
    $20 bets on a must-hit-by table: they feed it and cannot win it), `big` (one $25 bet)."""
    at = dealt(w.clock)
    loss = {"spot": 2, "wager": 500, "card": "4d"}
    aces = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
    if kind == "hit":
        return round_body(round_id, table, "As", "As", spots=[aces], dealt_at=at)
    if kind == "two":
        return round_body(round_id, table, "As", "As", spots=[aces, loss], dealt_at=at)
    if kind == "small":
        spots = [{"spot": n, "wager": 2_000, "card": f"{n + 1}d"} for n in range(1, 8)]
        return round_body(round_id, table, "Qs", spots=spots, dealt_at=at)
    if kind == "big":
        return round_body(
            round_id, table, "Qs", spots=[{"spot": 1, "wager": 2_500, "card": "4d"}], dealt_at=at
        )
    return round_body(round_id, table, "Qs", spots=[{**loss, "spot": 1}], dealt_at=at)


def fail(ledger: Ledger, invariant: str, detail: str) -> str:
    return f"invariant broken: {invariant}\n{detail}\nafter the steps:\n{ledger.recipe()}"


def check_all(w: World, ledger: Ledger) -> None:
    """Every invariant the model holds, after every step."""
    meters = {p.pool: p for p in w.services.pools.all()}
    check_money_conserved(w, ledger)
    check_settled_once(w, ledger)
    check_two_people(w, ledger)
    check_held_voids_can_apply(w, ledger)
    check_round_voids_return_no_confirmed_pay(w, ledger)
    check_retired_pools_stay_empty(ledger, meters)
    check_voids_draw_no_seed(w, ledger)
    check_returns_below_100(w, ledger)
    check_must_hit_by_below_ceiling(ledger, meters)
    check_triggers_open_commitments(w, ledger)
    check_verify_intact(w, ledger)


def check_money_conserved(w: World, ledger: Ledger) -> None:
    """meter + reserve + paid and owed (won) = reset + contributions + seed funding +
    adjustments + voids + transfers, to the unit, in every pool; and the adjustments are the
    ones the model made."""
    for m in w.api.client.get("/v1/meters", headers=w.api.keys.header("auditor")).get_json()[
        "pools"
    ]:
        pool = m["pool"]
        held = m["value_units"] + m["reserve_units"] + m["won"] * UNIT
        funded = (
            m["reset_initial_units"]
            + m["contributions_units"]
            + m["seed_funding_units"]
            + m["adjustments_units"]
            + m["voids_units"]
        )
        assert held == funded and m["invariant_holds"], fail(
            ledger,
            "money conserved: meter + reserve + paid and owed = reset + contributions + seed "
            "funding + adjustments and transfers + voids",
            f"pool {pool}: {held} units held, {funded} funded: {m}",
        )
        assert m["adjustments_units"] == ledger.adjustments[pool], fail(
            ledger,
            "money conserved: adjustments are the ones made",
            f"pool {pool}: {m['adjustments_units']} units, the model made "
            f"{ledger.adjustments[pool]}",
        )
        assert held >= 0 and m["value_units"] >= 0 and m["reserve_units"] >= 0, fail(
            ledger, "money conserved: no negative balance", f"pool {pool}: {m}"
        )


def house_rounds(w: World) -> Counter[tuple[str, str]]:
    """How many times each (table, round) was settled: the `round` entries of every link
    group's house journal, the archive's and Redis's as one sequence."""
    return Counter(
        (e["table"], e["round"])
        for group in GROUPS
        for e in journal(w, None, group)
        if e["type"] == "round"
    )


def check_settled_once(w: World, ledger: Ledger) -> None:
    twice = {k: n for k, n in house_rounds(w).items() if n > 1}
    assert not twice, fail(
        ledger,
        "each (table, round) settled at most once, whatever its dealt_at",
        f"settled more than once: {twice}",
    )


def check_two_people(w: World, ledger: Ledger) -> None:
    """No jackpot at or above the approval threshold is paid or cancelled by one person."""
    auditor = w.api.keys.header("auditor")
    for pid, amount in ledger.payouts.items():
        if amount < APPROVAL_CENTS:
            continue
        p = w.api.client.get(f"/v1/payouts/{pid}", headers=auditor).get_json()
        if p["status"] == "paid":
            assert p.get("approver") and p.get("approver") != p.get("confirmer"), fail(
                ledger,
                "no jackpot paid by one person above the approval threshold",
                f"payout {pid} of {amount} cents: {p}",
            )
        if p["status"] == "void" and ledger.payout_round[pid] not in ledger.round_voided:
            voiders = ledger.payout_voiders.get(pid, set())
            assert len(voiders) >= 2, fail(
                ledger,
                "no jackpot cancelled by one person above the approval threshold",
                f"payout {pid} of {amount} cents voided by {sorted(voiders)} alone: {p}",
            )


def check_round_voids_return_no_confirmed_pay(w: World, ledger: Ledger) -> None:
    """A round's void never puts back on the meter a jackpot someone confirmed paid, even one
    disputed since: its payer, witness and slip stand in the record (D291)."""
    auditor = w.api.keys.header("auditor")
    for pid, key in ledger.payout_round.items():
        if key not in ledger.round_voided:
            continue
        p = w.api.client.get(f"/v1/payouts/{pid}", headers=auditor).get_json()
        if p["status"] == "void" and str(p.get("note", "")).startswith("round voided"):
            assert not p.get("confirmed_by"), fail(
                ledger,
                "a round's void never returns a jackpot confirmed paid",
                f"payout {pid} voided with its round after a confirmation: {p}",
            )


def check_held_voids_can_apply(w: World, ledger: Ledger) -> None:
    """A round's void awaiting approval never covers a jackpot paid or confirmed paid: paid
    after the void was asked, it would leave a void that can never apply (D289)."""
    auditor = w.api.keys.header("auditor")
    waiting = w.api.client.get("/v1/voids/awaiting", headers=auditor).get_json()["voids"]
    for v in waiting:
        for pid, key in ledger.payout_round.items():
            if key != (v["table"], v["round"]):
                continue
            p = w.api.client.get(f"/v1/payouts/{pid}", headers=auditor).get_json()
            covered = v["whole"] or int(p["spot"]) in v["spots"]
            assert not covered or p["status"] not in ("paid", "awaiting_approval"), fail(
                ledger,
                "a void awaiting approval never covers a jackpot paid after it was asked",
                f"void {v} over payout {pid}: {p}",
            )


def check_retired_pools_stay_empty(ledger: Ledger, meters: dict[str, Any]) -> None:
    """A retired pool's balance moved out in its transfer; nothing moves into it again, and a
    pool's meters stay readable."""
    for pool in ledger.retired:
        p = meters[pool]
        assert p.value_units + p.reserve_units == 0, fail(
            ledger,
            "a retired pool stays empty",
            f"pool {pool} holds {p.value_units} + {p.reserve_units} units",
        )


def check_voids_draw_no_seed(w: World, ledger: Ledger) -> None:
    """A void takes back what its round brought: the house's seed may bring a meter back to
    the reset its round was played under, never to a reset changed since."""
    for pool in POOLS:
        for e in journal(w, pool):
            if e["type"] != "void" or int(e.get("topup_seed_units", 0)) == 0:
                continue
            reset = ledger.resets.get((e["table"], e["round"]), {}).get(pool)
            assert reset is not None and int(e["value_units"]) <= reset * UNIT, fail(
                ledger,
                "a void never seeds a pool beyond the reset its round was played under "
                "(no top-up to a new reset)",
                f"pool {pool}: reset then {reset} cents, void entry {e}",
            )


def journal(w: World, pool: str | None, group: str = "main") -> list[dict[str, Any]]:
    """A journal whole (a pool's, or a link group's house journal), the archive's and
    Redis's as one sequence."""
    out: list[dict[str, Any]] = []
    which = f"pool={pool}" if pool else f"group={group}"
    while True:
        after = out[-1]["seq"] if out else 0
        r = w.api.client.get(
            f"/v1/journal?{which}&after={after}&limit=5000", headers=w.api.keys.header("auditor")
        )
        assert r.status_code == 200, r.get_json()
        page = r.get_json()["entries"]
        if not page:
            return out
        out.extend(page)


def check_returns_below_100(w: World, ledger: Ledger) -> None:
    """Every table's side bet returns less than 100% over the long run under the terms in
    force now (the pools' and the paytable's)."""
    pools = {p.pool: p.config for p in w.services.pools.all()}
    for record in w.services.config.tables():
        if any(p not in pools for p in record.config.pools):
            continue
        highest = max(priced(record.config, pools), key=lambda b: b.total)
        assert highest.total < 1, fail(
            ledger,
            "every table's long-run return below 100% under the terms in force",
            f"table {record.table}: a {highest.wager} cent bet returns {float(highest.total):.4%}"
            f" with pools {[(p, pools[p]) for p in record.config.pools]}",
        )


def check_must_hit_by_below_ceiling(ledger: Ledger, meters: dict[str, Any]) -> None:
    """A must-hit-by level is won by its ceiling: after any step its meter is below it."""
    for pool, p in meters.items():
        cfg = p.config
        if cfg.level.value == "must_hit_by" and cfg.cap is not None and p.link.value != "retired":
            assert p.value_units < cfg.cap * UNIT, fail(
                ledger,
                "a must-hit-by meter never stays at its ceiling",
                f"pool {pool}: {p.value_units} units, ceiling {cfg.cap} cents",
            )


def check_triggers_open_commitments(w: World, ledger: Ledger) -> None:
    """Every revealed trigger opens a commitment published before play; the model records
    each pool's published commitment after every step."""
    for pool in list(ledger.commitments):
        read = w.api.client.get(f"/v1/pools/{pool}").get_json()
        if read and "trigger" in read:
            ledger.commitments[pool].add(read["trigger"]["commitment"])
        for hit in (read or {}).get("last_hits", []):
            if "trigger" not in hit or "salt" not in hit:
                continue
            opened = revealed(hit["commitment"], pool, int(hit["trigger"]), hit["salt"])
            assert opened and hit["commitment"] in ledger.commitments[pool], fail(
                ledger,
                "every revealed trigger opens the commitment published before play",
                f"pool {pool}: hit {hit}, published {sorted(ledger.commitments[pool])}",
            )


def check_verify_intact(w: World, ledger: Ledger) -> None:
    done = w.services.verifier.run()
    assert done.intact, fail(
        ledger, "jackpot verify intact", "\n".join(str(f) for f in done.findings)
    )


def archive(w: World, ledger: Ledger) -> None:
    try:
        run = w.services.archiver.run()
    except Exception as exc:  # the run failing is what the invariant is about
        raise AssertionError(fail(ledger, "the archive run succeeds", repr(exc))) from exc
    assert not run.problems, fail(ledger, "the archive run succeeds", str(run.problems))
    ledger.archived_once = True
