from tests.support.api import Api, round_body


def test_a_round_moves_the_meter_and_pays_a_suited_tie(linked: Api) -> None:
    r = linked.report(
        round_body(
            spots=[
                {"spot": 1, "player": "p-881", "wager": 500, "card": "Qs"},
                {"spot": 2, "player": "p-12", "wager": 500, "card": "4d"},
                {"spot": 3, "card": "9h"},
            ]
        )
    )
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["spots"][0] == {
        "spot": 1,
        "player": "p-881",
        "outcome": "suited_tie",
        "wager": 500,
        "pay": 7500,
        "envy": 0,
        "jackpot": 0,
    }
    assert body["pools"]["main"]["value"] == 100_010
    again = linked.report(
        round_body(
            spots=[
                {"spot": 1, "player": "p-881", "wager": 500, "card": "Qs"},
                {"spot": 2, "player": "p-12", "wager": 500, "card": "4d"},
                {"spot": 3, "card": "9h"},
            ]
        )
    )
    assert again.get_json()["replayed"] is True
    assert linked.pool()["value"] == 100_010
