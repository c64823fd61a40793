"""The shoe audit (docs/API.md "Round report"): a shoe's reported rounds together may show no
card more often than the shoe holds; the round that would is refused naming the card, and
nothing of it is settled. The counts are kept by the round's one script call."""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_lib

from jackpot.domain.cards import FULL_DECK
from tests.support.api import Api, round_body
from tests.support.checks import assert_error


def dealt(round_id: str, card: str, shoe: str = "T1.s1", position: int = 0, **extra: Any):
    """A round of shoe `shoe` dealing `card` to spot 1 against the dealer's 4c."""
    spots = [{"spot": 1, "wager": 500, "card": card}]
    return round_body(round_id, dealer="4c", spots=spots, shoe=shoe, position=position, **extra)


def test_a_seventh_ace_of_spades_from_a_six_deck_shoe_is_refused_naming_it(
    api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    api.put_table()  # 6 decks
    for n in range(6):
        r = api.report(dealt(f"r{n}", "As", position=3 * n))
        assert r.status_code == 200, r.get_json()
    before = api.meters()
    seventh = api.report(dealt("r6", "As", position=18))
    error = assert_error(seventh, 400, "spots[0].card")
    assert error["code"] == "impossible_cards"
    assert "As" in error["message"] and "6 times" in error["message"]
    after = api.meters()
    assert (after["value_units"], after["wagered"]) == (before["value_units"], before["wagered"])
    assert not [e for e in api.journal() if e.get("round") == "r6"], "nothing of it settled"

    # a resend of an earlier round of the shoe is answered, not counted again
    again = api.report(dealt("r0", "As", position=0))
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    # the dealer's card counts too: six rounds against the dealer's 4c, and a seventh
    for n in range(6):
        assert api.report(dealt(f"c{n}", "Kd", shoe="T1.s2", position=3 * n)).status_code == 200
    refused = api.report(dealt("c6", "Kh", shoe="T1.s2", position=18))
    assert assert_error(refused, 400, "dealer.card")["code"] == "impossible_cards"


@pytest.mark.parametrize(
    ("earlier", "spots", "dealer", "extra"),
    [
        # five aces out, two more: the second of them is the seventh (examiner, 2026-11-29)
        (5, ["As", "As"], {"card": "2c"}, "spots[1].card"),
        (5, ["As"], {"card": "AS"}, "dealer.card"),
        (3, ["As", "As", "As", "As"], {"card": "2c"}, "spots[3].card"),
        # at war: the spot's war card is the sixth, the dealer's the seventh
        (5, ["Ac"], {"card": "Ah", "war_card": "As"}, "dealer.war_card"),
    ],
)
def test_the_refusal_names_the_copy_that_goes_over_the_shoe(
    api: Api, earlier: int, spots: list[str], dealer: dict[str, str], extra: str
) -> None:
    api.put_pool()
    api.put_table()  # 6 decks
    out = [{"spot": n + 1, "wager": 500, "card": "As"} for n in range(earlier)]
    first = round_body("r0", dealer="2c", spots=out, shoe="T1.s1", position=0)
    assert api.report(first).status_code == 200
    reported = [{"spot": n + 1, "wager": 500, "card": c} for n, c in enumerate(spots)]
    if "war_card" in dealer:  # spot 1 ties the dealer's ace and goes to war
        reported[0] |= {"war": True, "war_card": "As"}
    body = round_body("r1", spots=reported, shoe="T1.s1", position=9)
    body["dealer"] = dealer
    refused = api.report(body)
    assert assert_error(refused, 400, extra)["code"] == "impossible_cards"


def test_another_shoe_another_table_and_a_report_without_a_shoe_count_apart(
    api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    api.put_table("T1")
    api.put_table("T2")
    for n in range(6):
        assert api.report(dealt(f"r{n}", "As")).status_code == 200
    assert api.report(dealt("n1", "As", shoe="T1.s2")).status_code == 200  # a new shoe
    assert api.report(dealt("t2", "As", table="T2")).status_code == 200  # same name, T2's
    plain = round_body("p1", spots=[{"spot": 1, "wager": 500, "card": "As"}])
    assert api.report(plain).status_code == 200  # no shoe named: the round alone is checked


@pytest.mark.one_store
def test_the_table_keeps_the_counts_of_its_shoe_in_play_and_of_the_one_before(
    api: Api, redis: redis_lib.Redis
) -> None:
    # no key of its own, nothing to expire: the table's hash, written by every round anyway
    api.put_pool()
    api.put_table()
    for n in range(6):
        assert api.report(dealt(f"a{n}", "As", shoe="s1")).status_code == 200
    assert api.report(dealt("b0", "As", shoe="s2")).status_code == 200  # the next shoe
    # a late report of the shoe before still counts against it
    late = api.report(dealt("a6", "As", shoe="s1"))
    assert assert_error(late, 400, "spots[0].card")["code"] == "impossible_cards"
    row = redis.hgetall("{jackpot}/table/T1")
    assert (row["shoe"], row["prev_shoe"]) == ("s2", "s1")
    counts = {str(card): int(n) for card, n in zip(FULL_DECK, row["shoe_cards"], strict=True)}
    assert {card: n for card, n in counts.items() if n} == {"As": 1, "4c": 1}
    # a third shoe lets the first go: its counts are no longer kept
    assert api.report(dealt("c0", "Kd", shoe="s3")).status_code == 200
    assert redis.hget("{jackpot}/table/T1", "prev_shoe") == "s2"
    assert api.report(dealt("a7", "As", shoe="s1")).status_code == 200
