"""The app's HTTP API as the tests call it: keys of every role, and round bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import Client
from werkzeug.wrappers import Response

from jackpot.api.hotpath import RoundsHotPath
from jackpot.domain.auth import Role
from tests.support.people import issue


@dataclass
class Keys:
    operator: str
    auditor: str
    display: str
    table: str  # may report for T1 and T2
    other_table: str  # may report for T9 only

    def header(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {getattr(self, role)}"}


def make_keys(services: Any) -> Keys:
    """A key of every role (and two table keys) in the services' store."""

    def make(role: Role, *tables: str) -> str:
        return issue(services, role, tables, f"{role.value} of the tests")

    return Keys(
        operator=make(Role.OPERATOR),
        auditor=make(Role.AUDITOR),
        display=make(Role.DISPLAY),
        table=make(Role.TABLE, "T1", "T2"),
        other_table=make(Role.TABLE, "T9"),
    )


@dataclass
class Api:
    """The app's HTTP API with the right key for each call."""

    client: FlaskClient
    keys: Keys

    def put_pool(self, pool: str = "main", **body: Any) -> Any:
        """Create or change a pool; a running pool's change is made as an operator makes it:
        suspend, change, resume."""
        body = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20, **body}
        header = self.keys.header("operator")
        r = self.client.put(f"/v1/pools/{pool}", json=body, headers=header)
        if r.status_code == 409 and r.get_json()["error"]["code"] == "pool_running":
            suspended = self.client.post(
                f"/v1/pools/{pool}/suspend", json={"reason": "parameter change"}, headers=header
            )
            assert suspended.status_code == 200, suspended.get_json()
            r = self.client.put(f"/v1/pools/{pool}", json=body, headers=header)
            resumed = self.client.post(f"/v1/pools/{pool}/resume", headers=header)
            assert resumed.status_code == 200, resumed.get_json()
        assert r.status_code in (200, 201), r.get_json()
        return r.get_json()

    def put_table(self, table: str = "T1", **body: Any) -> Any:
        body = {"pools": ["main"], **body}
        r = self.client.put(f"/v1/tables/{table}", json=body, headers=self.keys.header("operator"))
        assert r.status_code in (200, 201), r.get_json()
        return r.get_json()

    def report(self, body: dict[str, Any], role: str = "table") -> Any:
        return self.client.post("/v1/rounds", json=body, headers=self.keys.header(role))

    def pool(self, pool: str = "main") -> Any:
        return self.client.get(f"/v1/pools/{pool}").get_json()

    def meters(self, pool: str = "main") -> Any:
        return self.client.get(
            f"/v1/pools/{pool}/meters", headers=self.keys.header("auditor")
        ).get_json()

    def journal(self, pool: str | None = "main", after: int = 0, limit: int = 5000) -> Any:
        query = f"after={after}&limit={limit}" + (f"&pool={pool}" if pool else "")
        r = self.client.get(f"/v1/journal?{query}", headers=self.keys.header("auditor"))
        assert r.status_code == 200, r.get_json()
        return r.get_json()["entries"]


def round_body(
    round_id: str = "r1",
    table: str = "T1",
    dealer: str = "Qs",
    dealer_war: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    spots = extra.pop("spots", [{"spot": 1, "wager": 500, "card": "4d"}])
    body: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "dealer": {"card": dealer},
        "spots": spots,
        **extra,
    }
    if dealer_war is not None:
        body["dealer"]["war_card"] = dealer_war
    return body


def flask_only(app: Flask) -> Client:
    """A client of the same app without the hot path: Flask's own route and view."""
    hot = app.wsgi_app
    assert isinstance(hot, RoundsHotPath)
    return Client(hot._next, Response)


def hit(api: Api, round_id: str = "r-hit") -> str:
    """A jackpot on pool `main` (a suited war of aces at table T1): its payout id. Makes the
    pool and the table first (as they are: a repeat changes nothing)."""
    api.put_pool()
    api.put_table()
    r = api.report(
        round_body(
            round_id,
            dealer="As",
            dealer_war="As",
            spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        )
    )
    assert r.status_code == 200, r.get_json()
    return str(r.get_json()["jackpots"][0]["id"])
