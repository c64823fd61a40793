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
