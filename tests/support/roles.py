"""The role matrix: every endpoint with a request that succeeds and the roles allowed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask.testing import FlaskClient

from jackpot.domain.auth import Role
from jackpot.services.checkpointfiles import generate_key
from tests.support.api import Api, Keys, hit, round_body
from tests.support.checks import HAND_PAY
from tests.support.people import issue

ROLES = ("table", "display", "operator", "auditor")


@dataclass(frozen=True)
class Endpoint:
    """One operation: its Flask rule, a concrete request, and who may call it."""

    name: str
    method: str
    rule: str  # as in app.url_map
    path: str  # `{payout}` is filled in with the world's pending payout
    body: Any = None
    roles: frozenset[str] | None = None  # None: public
    # a public endpoint whose answer these roles' keys widen: another key sent is refused
    widened_by: frozenset[str] | None = None

    def send(self, client: FlaskClient, world: World, headers: dict[str, str]) -> Any:
        path = self.path.format(
            payout=world.payout,
            report=world.report,
            awaiting=world.awaiting,
            disputed=world.disputed,
            void_asked=world.void_asked,
        )
        response = client.open(path, method=self.method, json=self.body, headers=headers)
        response.get_data()  # read and close: a streamed file must not leak its handle
        response.close()
        return response


def roles(*names: str) -> frozenset[str]:
    return frozenset(names)


POOL_BODY = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}


# a day long over, closed by the world (an empty day: before the controller's history)
CLOSED_DAY = "2020-01-01"
COUNTS_DAY = "2020-01-02"  # T1's counts of it differ from the controller's

ADJUSTMENT = {"id": "adj-roles", "amount": 100, "reason": "role matrix"}


MATRIX: list[Endpoint] = [
    Endpoint("healthz", "GET", "/healthz", "/healthz"),
    Endpoint("readyz", "GET", "/readyz", "/readyz"),
    Endpoint("metrics", "GET", "/metrics", "/metrics", widened_by=roles("operator", "auditor")),
    Endpoint(
        "accounting metrics",
        "GET",
        "/metrics/accounting",
        "/metrics/accounting",
        roles=roles("operator", "auditor"),
    ),
    Endpoint("openapi", "GET", "/openapi.json", "/openapi.json"),
    Endpoint("display page", "GET", "/", "/"),
    Endpoint("console page", "GET", "/console", "/console"),
    Endpoint("day report page", "GET", "/reports/day", "/reports/day"),
    Endpoint("list signs", "GET", "/v1/signs", "/v1/signs", roles=roles("operator", "auditor")),
    Endpoint("get sign", "GET", "/v1/signs/<sign>", "/v1/signs/lobby"),
    Endpoint(
        "put sign",
        "PUT",
        "/v1/signs/<sign>",
        "/v1/signs/bar",
        {"levels": [{"pool": "main", "name": "Grand"}]},
        roles("operator"),
    ),
    Endpoint(
        "delete sign", "DELETE", "/v1/signs/<sign>", "/v1/signs/lobby", roles=roles("operator")
    ),
    Endpoint("session", "GET", "/v1/session", "/v1/session", roles=roles("operator", "auditor")),
    Endpoint("all meters", "GET", "/v1/meters", "/v1/meters", roles=roles("operator", "auditor")),
    Endpoint(
        "activity",
        "GET",
        "/v1/activity",
        "/v1/activity?limit=5",
        roles=roles("operator", "auditor"),
    ),
    Endpoint("list pools", "GET", "/v1/pools", "/v1/pools"),
    Endpoint("latest checkpoint", "GET", "/v1/checkpoints/latest", "/v1/checkpoints/latest"),
    Endpoint("list checkpoints", "GET", "/v1/checkpoints", "/v1/checkpoints"),
    Endpoint("get pool", "GET", "/v1/pools/<pool>", "/v1/pools/main"),
    Endpoint("put pool", "PUT", "/v1/pools/<pool>", "/v1/pools/main", POOL_BODY, roles("operator")),
    Endpoint(
        "pool meters",
        "GET",
        "/v1/pools/<pool>/meters",
        "/v1/pools/main/meters",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "adjustment",
        "POST",
        "/v1/pools/<pool>/adjustments",
        "/v1/pools/main/adjustments",
        ADJUSTMENT,
        roles("operator"),
    ),
    Endpoint(
        "suspend pool",
        "POST",
        "/v1/pools/<pool>/suspend",
        "/v1/pools/main/suspend",
        {"reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "stage a change",
        "POST",
        "/v1/pools/<pool>/staged",
        "/v1/pools/main/staged",
        {"rate_bp": 150, "reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "cancel the staged change",
        "POST",
        "/v1/pools/<pool>/staged/cancel",
        "/v1/pools/main/staged/cancel",
        {"reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "resume pool",
        "POST",
        "/v1/pools/<pool>/resume",
        "/v1/pools/main/resume",
        {"reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "retire pool",
        "POST",
        "/v1/pools/<pool>/retire",
        "/v1/pools/spare/retire",
        {"id": "retire-roles", "to": "main", "reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "get game",
        "GET",
        "/v1/pools/<pool>/game",
        "/v1/pools/main/game",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "change game",
        "PUT",
        "/v1/pools/<pool>/game",
        "/v1/pools/main/game",
        {"decks": 8, "reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint("list tables", "GET", "/v1/tables", "/v1/tables", roles=roles("operator", "auditor")),
    Endpoint(
        "get table",
        "GET",
        "/v1/tables/<table>",
        "/v1/tables/T1",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "put table",
        "PUT",
        "/v1/tables/<table>",
        "/v1/tables/T1",
        {"pools": ["main"], "spots": 6},
        roles("operator"),
    ),
    Endpoint(
        "move table",
        "POST",
        "/v1/tables/<table>/move",
        "/v1/tables/T5/move",
        {"pools": ["east"], "reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "table counts",
        "POST",
        "/v1/tables/<table>/counts",
        "/v1/tables/T1/counts",
        {
            "days": [
                {
                    "day": "2026-11-27",
                    "rounds": 1,
                    "side_bets": 1,
                    "handle": 500,
                    "fixed": 0,
                    "envy": 0,
                    "jackpot": 0,
                    "voids": 0,
                }
            ]
        },  # fmt: skip
        roles("table"),
    ),
    Endpoint(
        "acknowledge table counts",
        "POST",
        "/v1/tables/<table>/counts/acknowledge",
        "/v1/tables/T1/counts/acknowledge",
        {"day": COUNTS_DAY, "reason": "role matrix"},
        roles("operator", "auditor"),
    ),
    Endpoint(
        "heartbeat",
        "POST",
        "/v1/tables/<table>/heartbeat",
        "/v1/tables/T1/heartbeat",
        roles=roles("table"),
    ),
    Endpoint(
        "report round", "POST", "/v1/rounds", "/v1/rounds", round_body("r-new"), roles("table")
    ),
    Endpoint(
        "get round",
        "GET",
        "/v1/rounds/<table>/<round_id>",
        "/v1/rounds/T1/r-hit",
        roles=roles("table", "operator", "auditor"),
    ),
    Endpoint(
        "void round",
        "POST",
        "/v1/rounds/<table>/<round_id>/void",
        "/v1/rounds/T1/r-void/void",
        {"reason": "role matrix"},
        roles("operator", "table"),
    ),
    Endpoint(
        "approve round void",
        "POST",
        "/v1/rounds/<table>/<round_id>/void/approve",
        "/v1/rounds/T1/r-void-held/void/approve",
        roles=roles("operator"),
    ),
    Endpoint(
        "refuse round void",
        "POST",
        "/v1/rounds/<table>/<round_id>/void/refuse",
        "/v1/rounds/T1/r-void-held/void/refuse",
        {"reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint(
        "voids awaiting approval",
        "GET",
        "/v1/voids/awaiting",
        "/v1/voids/awaiting",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "round voids applied in a span",
        "GET",
        "/v1/voids/applied",
        "/v1/voids/applied?from=2026-11-23",
        roles=roles("operator", "auditor"),
    ),
    Endpoint("journal", "GET", "/v1/journal", "/v1/journal?pool=main", roles=roles("auditor")),
    Endpoint(
        "journal csv", "GET", "/v1/journal.csv", "/v1/journal.csv?pool=main", roles=roles("auditor")
    ),
    Endpoint(
        "list payouts",
        "GET",
        "/v1/payouts",
        "/v1/payouts?status=pending",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "get payout",
        "GET",
        "/v1/payouts/<payout>",
        "/v1/payouts/{payout}",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "payout history",
        "GET",
        "/v1/payouts/history",
        "/v1/payouts/history?status=paid,void",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "the register of people",
        "GET",
        "/v1/people",
        "/v1/people?q=sam",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "a person of the register",
        "GET",
        "/v1/people/<person>",
        "/v1/people/SAM-OKAFOR",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "payout record",
        "GET",
        "/v1/payouts/<payout>/record",
        "/v1/payouts/{payout}/record",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "confirm payout",
        "POST",
        "/v1/payouts/<payout>/confirm",
        "/v1/payouts/{payout}/confirm",
        HAND_PAY,
        roles=roles("operator"),
    ),
    Endpoint(
        "dispute payout",
        "POST",
        "/v1/payouts/<payout>/dispute",
        "/v1/payouts/{payout}/dispute",
        {"reason": "camera review"},
        roles("operator"),
    ),
    Endpoint(
        "approve payout",
        "POST",
        "/v1/payouts/<payout>/approve",
        "/v1/payouts/{awaiting}/approve",
        roles=roles("operator"),
    ),
    Endpoint(
        "void payout",
        "POST",
        "/v1/payouts/<payout>/void",
        "/v1/payouts/{disputed}/void",
        {"reason": "misdeal found on review"},
        roles("operator"),
    ),
    Endpoint(
        "approve payout void",
        "POST",
        "/v1/payouts/<payout>/void/approve",
        "/v1/payouts/{void_asked}/void/approve",
        roles=roles("operator"),
    ),
    Endpoint(
        "refuse payout void",
        "POST",
        "/v1/payouts/<payout>/void/refuse",
        "/v1/payouts/{void_asked}/void/refuse",
        {"reason": "one slip only"},
        roles("operator"),
    ),
    Endpoint(
        "request reconciliation",
        "POST",
        "/v1/reports/reconcile",
        "/v1/reports/reconcile",
        {"pool": "main"},
        roles("auditor"),
    ),
    Endpoint(
        "get report",
        "GET",
        "/v1/reports/<report_id>",
        "/v1/reports/{report}",
        roles=roles("auditor"),
    ),
    Endpoint(
        "list gaming days",
        "GET",
        "/v1/accounting/days",
        "/v1/accounting/days",
        roles=roles("auditor"),
    ),
    Endpoint(
        "gaming day report",
        "GET",
        "/v1/accounting/days/<day>",
        f"/v1/accounting/days/{CLOSED_DAY}",
        roles=roles("auditor"),
    ),
    Endpoint(
        "gaming day timeline",
        "GET",
        "/v1/accounting/days/<day>/timeline",
        f"/v1/accounting/days/{CLOSED_DAY}/timeline",
        roles=roles("auditor"),
    ),
    Endpoint(
        "gaming day section as CSV",
        "GET",
        "/v1/accounting/days/<day>/<section>.csv",
        f"/v1/accounting/days/{CLOSED_DAY}/tables.csv",
        roles=roles("auditor"),
    ),
    Endpoint(
        "gaming days' section as CSV",
        "GET",
        "/v1/accounting/<section>.csv",
        f"/v1/accounting/tables.csv?from={CLOSED_DAY}&to={CLOSED_DAY}",
        roles=roles("auditor"),
    ),
]


@dataclass
class World:
    api: Api
    payout: str  # a pending jackpot payout
    report: str  # a queued reconciliation report
    awaiting: str  # a payout confirmed by another operator, awaiting approval
    disputed: str  # a disputed payout
    void_asked: str  # a disputed payout whose void Dana asked for, awaiting a second person


def build_world(api: Api) -> World:
    """Pool `main`, table T1, a jackpot hit on it (round r-hit, a pending payout), a report;
    round r-void to void, and r-void-held, whose void awaits a second person's approval;
    pool `spare`, which no table feeds (it can be retired); table T5, disabled, feeding pool
    `away`, and pool `east` in link group `east` (T5 can move there)."""
    api.put_pool()
    api.put_pool("spare")
    api.put_pool("away")
    api.put_pool("east", group="east")
    api.put_table()
    api.put_table("T5", pools=["away"], enabled=False)
    payouts = [hit(api, round_id) for round_id in ("r-hit", "r-hit-2", "r-hit-3", "r-hit-4")]
    services = api.client.application.extensions["jackpot"]
    # another operator confirms the second above a threshold: it awaits a second person
    other = issue(services, Role.OPERATOR, (), "Dana Reyes")
    services.approval.cents, approval = 1, services.approval.cents
    confirmed = api.client.post(
        f"/v1/payouts/{payouts[1]}/confirm",
        json=HAND_PAY,
        headers={"Authorization": f"Bearer {other}"},
    )
    # a round to void, and another whose void Dana asked for, awaiting a second person
    assert api.report(round_body("r-void")).status_code == 200
    hit(api, "r-void-held")
    held = api.client.post(
        "/v1/rounds/T1/r-void-held/void",
        json={"reason": "role matrix"},
        headers={"Authorization": f"Bearer {other}"},
    )
    assert held.status_code == 202, held.get_json()
    # a jackpot Dana disputed and asked to void: it awaits a second person's approval
    for step, code in (("dispute", 200), ("void", 202)):
        asked = api.client.post(
            f"/v1/payouts/{payouts[3]}/{step}",
            json={"reason": "role matrix"},
            headers={"Authorization": f"Bearer {other}"},
        )
        assert asked.status_code == code, asked.get_json()
    services.approval.cents = approval
    assert confirmed.get_json()["status"] == "awaiting_approval", confirmed.get_json()
    disputed = api.client.post(
        f"/v1/payouts/{payouts[2]}/dispute",
        json={"reason": "camera review"},
        headers={"Authorization": f"Bearer {other}"},
    )
    assert disputed.status_code == 200, disputed.get_json()
    report = api.client.post(
        "/v1/reports/reconcile", json={"pool": "main"}, headers=api.keys.header("auditor")
    )
    assert report.status_code == 202, report.get_json()
    services.accounting.close(date.fromisoformat(CLOSED_DAY))
    told = {"day": COUNTS_DAY, "rounds": 1, "side_bets": 1, "handle": 500, "fixed": 0,
            "envy": 0, "jackpot": 0, "voids": 0}  # fmt: skip
    counted = api.client.post(
        "/v1/tables/T1/counts", json={"days": [told]}, headers=api.keys.header("table")
    )
    assert counted.status_code == 200, counted.get_json()
    assert services.table_counts.compare()
    sign = api.client.put(
        "/v1/signs/lobby",
        json={"levels": [{"pool": "main", "name": "Grand Progressive"}]},
        headers=api.keys.header("operator"),
    )
    assert sign.status_code == 201, sign.get_json()
    if not services.checkpoints.key_file.exists():  # one per session's data dir
        generate_key(services.checkpoints.key_file)
    services.checkpoints.make("request")  # so that the latest is there to read
    return World(api, payouts[0], report.get_json()["id"], payouts[1], payouts[2], payouts[3])


def credential(keys: Keys, who: str) -> dict[str, str]:
    """The Authorization header of a caller: a role's key, or a broken credential."""
    if who in ROLES:
        return keys.header(who)
    return {
        "none": {},
        "unknown key": {"Authorization": "Bearer jpk_not-a-key-anyone-was-given"},
        "empty bearer": {"Authorization": "Bearer "},
        "basic scheme": {"Authorization": "Basic b3BlcmF0b3I6c2VjcmV0"},
        "key without scheme": {"Authorization": keys.operator},
    }[who]
