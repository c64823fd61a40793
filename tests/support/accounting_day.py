"""A trial gaming day for the accounting tests: T1's rounds, the day they fall in, and the
auditor's reads (tests/integration/test_accounting.py, test_day_voids.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.support.api import round_body
from tests.support.archive_world import World, dealt

ZONE = "America/New_York"


def today(w: World) -> date:
    return w.services.days().of_time(w.clock())


def play(w: World) -> list[dict[str, Any]]:
    """A day on T1: losing spots, a tie, an envy-paying hit with a player named like a
    spreadsheet formula; the controller's answers."""
    bodies = [
        round_body("d1", spots=[{"spot": 1, "wager": 500, "card": "4d"}]),
        round_body("d2", dealer="4h", spots=[{"spot": 1, "wager": 300, "card": "4d"}]),
        round_body(
            "d3",
            dealer="As",
            dealer_war="As",
            spots=[
                {
                    "spot": 1,
                    "wager": 500,
                    "card": "As",
                    "war": True,
                    "war_card": "As",
                    "player": "-cmd",
                },
                {"spot": 2, "wager": 200, "card": "9c"},
            ],
        ),
        round_body("d4", spots=[{"spot": 3, "wager": 2500, "card": "Kd"}]),
    ]
    answers = []
    for body in bodies:
        body["dealt_at"] = dealt(w.clock)
        answer = w.api.report(body)
        assert answer.status_code == 200, answer.get_json()
        answers.append(answer.get_json())
    return answers


def get(w: World, path: str) -> Any:
    return w.api.client.get(path, headers=w.api.keys.header("auditor"))


def tell_counts(w: World, answers: list[dict[str, Any]], handle_off: int = 0) -> dict[str, Any]:
    """T1 sends its own counts of what it was answered (its handle `handle_off` cents off):
    what it told."""
    spots = [s for a in answers for s in a["spots"]]
    told = {
        "day": answers[0]["gaming_day"],
        "rounds": len(answers),
        "side_bets": len(spots),
        "handle": sum(s["wager"] for s in spots) + handle_off,
        "fixed": sum(s["pay"] for s in spots),
        "envy": sum(s["envy"] for s in spots),
        "jackpot": sum(s["jackpot"] for s in spots),
        "voids": 0,
        "through": max(a["settled_at"] for a in answers),
    }
    sent = w.api.client.post(
        "/v1/tables/T1/counts", json={"days": [told]}, headers=w.api.keys.header("table")
    )
    assert sent.status_code == 200, sent.get_json()
    return told
