"""Round reports in docs/API.md's shape, for live and Stadium tables."""

from __future__ import annotations

from typing import Any

import pytest

from jackpot.domain.cards import Card
from jackpot.domain.validate import parse_timestamp
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.profiles import PROFILES
from table_adapter.game.records import Round
from table_adapter.game.report import dealt_at, round_report, stamped
from table_adapter.game.shoe import Shuffler
from table_adapter.game.strategies import MIX, SURRENDER, WAR, Strategy


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def play(table: Table, deck: str, bets) -> Round:
    table.shoe.arrange(cards(deck))
    rnd = table.play_round(bets)
    assert isinstance(rnd, Round)
    return rnd


def test_a_live_round_at_war_reports_war_cards_for_the_spot_and_the_dealer():
    # docs/API.md "Round report": war only on a tie, then war_card; dealer.war_card with any war
    table = Table("T1", "wisconsin", seed=1, id_prefix="shoe7")
    bets = [
        Bet(1, 1000, side=500, player="p-881", strategy=WAR),
        Bet(2, 1000, side=500, player="p-12"),
        Bet(3, 1000, player="p-3"),
        Bet(4, 1000, side=200, strategy=SURRENDER),
    ]
    rnd = play(table, "2c Qs 4d 9h Qc Qh 2d 2h 2s 2c 7h", bets)
    assert round_report(rnd) == {
        "table": "T1",
        "round": "shoe7.s1-000001",
        "dealer": {"card": "Qh", "war_card": "7h"},
        "community_war": False,
        "spots": [
            {
                "spot": 1,
                "player": "p-881",
                "wager": 500,
                "card": "Qs",
                "war": True,
                "war_card": "2c",
            },
            {"spot": 2, "player": "p-12", "wager": 500, "card": "4d"},
            {"spot": 3, "card": "9h"},
            {"spot": 4, "wager": 200, "card": "Qc"},
        ],
        # the shoe audit: the shoe's name and the cards out of it before the round
        "shoe": "shoe7.s1",
        "position": 0,
    }


def test_a_live_round_without_war_has_no_war_fields():
    rnd = play(Table("T1", "massachusetts", seed=1), "2c Ks 4d", [Bet(1, 1000, side=100)])
    report = round_report(rnd)
    assert report["dealer"] == {"card": "4d"}
    assert report["spots"] == [{"spot": 1, "wager": 100, "card": "Ks"}]
    assert report["community_war"] is False


def test_a_live_spot_without_a_side_wager_still_reports_its_war():
    # docs/API.md: spots without a side wager are still reported (their cards count)
    rnd = play(Table("T1", "wisconsin", seed=1), "2c 5s 5d 2d 2h 2s 3c 9d", [Bet(1, 1000)])
    assert round_report(rnd)["spots"] == [{"spot": 1, "card": "5s", "war": True, "war_card": "3c"}]
    assert round_report(rnd)["dealer"] == {"card": "5d", "war_card": "9d"}


def test_a_stadium_round_reports_bets_and_one_community_war_card():
    # docs/API.md: stadium spots carry `bets`; community_war: every spot at war shares the card
    table = Table("S1", "stadium", seed=1, id_prefix="st")
    bets = [
        Bet(1, 1000, side=500, player="a", strategy=WAR),
        Bet(1, 1000, side=300, player="b", strategy=SURRENDER),
        Bet(3, 1000, side=500, player="a", strategy=WAR),
        Bet(2, 1000, side=100, player="b"),
        Bet(4, 1000, player="c"),
    ]
    deck = "2c 7c 4c 7d 5c 6c 8c Tc 7h 2d 2h 2s Kc 3d 3h 3s 9c"
    assert round_report(play(table, deck, bets)) == {
        "table": "S1",
        "round": "st.s1-000001",
        "dealer": {"card": "7h", "war_card": "9c"},
        "community_war": True,
        "spots": [
            {
                "spot": 1,
                "card": "7c",
                "war_card": "Kc",
                "bets": [
                    {"player": "a", "wager": 500, "war": True},
                    {"player": "b", "wager": 300, "war": False},
                ],
            },
            {"spot": 2, "card": "4c", "bets": [{"player": "b", "wager": 100, "war": False}]},
            {
                "spot": 3,
                "card": "7d",
                "war_card": "Kc",
                "bets": [{"player": "a", "wager": 500, "war": True}],
            },
            {"spot": 4, "card": "5c"},
            {"spot": 5, "card": "6c"},
            {"spot": 6, "card": "8c"},
            {"spot": 7, "card": "Tc"},
        ],
        "shoe": "st.s1",
        "position": 0,
    }


def test_a_stadium_war_without_a_progressive_bet_at_war_reports_no_war():
    # docs/API.md: dealer.war_card is present exactly when some bet has war: true
    table = Table("S1", "stadium", seed=1)
    bets = [
        Bet(1, 1000, player="a", strategy=WAR),
        Bet(1, 1000, side=500, player="b", strategy=SURRENDER),
    ]
    rnd = play(table, "2c 7c 4c 5c 6c 8c 9c Tc 7h 2d 2h 2s Kc 3d 3h 3s 9c", bets)
    report = round_report(rnd)
    assert rnd.dealer_war_card is not None
    assert report["community_war"] is False and "war_card" not in report["dealer"]
    assert report["spots"][0] == {
        "spot": 1,
        "card": "7c",
        "bets": [{"player": "b", "wager": 500, "war": False}],
    }


def _controller_parser() -> tuple[Any, Any, Any]:
    try:
        from jackpot.domain.config import Layout, TableConfig
        from jackpot.domain.report import parse_report
    except ImportError as exc:  # the controller side is written alongside this package
        pytest.skip(f"controller report parser not importable: {exc}")
    return Layout, TableConfig, parse_report


@pytest.mark.parametrize("name", list(PROFILES))
def test_the_controller_accepts_every_report_the_engine_builds(name):
    # docs/API.md "Round report": the controller's own parser is the judge of the shape
    layout_cls, table_config, parse_report = _controller_parser()
    table = Table("T1", name, seed=17, face_up_rate=0.002)
    config = table_config(pools=("main",), layout=layout_cls(table.profile.layout.value))
    strategies: list[Strategy] = [WAR, SURRENDER, MIX]
    if table.profile.stadium:
        bets = [
            Bet(h, 1000, side=100 * (1 + (h + p) % 5), player=f"p{p}", strategy=strategies[p % 3])
            for p in range(3)
            for h in range(1, 8)
            if (h + p) % 4
        ]
    else:
        bets = [
            Bet(s, 1000, side=0 if s == 4 else 500, player=f"p{s}", strategy=strategies[s % 3])
            for s in range(1, 8)
        ]
    reported = 0
    for _ in range(1500):
        rnd = table.play_round(bets)
        if not isinstance(rnd, Round):
            continue
        report = round_report(rnd)
        parsed = parse_report(report, config)
        assert parsed.canonical() == report
        reported += 1
    assert reported > 1400


@pytest.mark.parametrize(
    ("epoch_ms", "text"),
    [
        (0, "1970-01-01T00:00:00.000Z"),
        (1_795_516_457_123, "2026-11-24T10:34:17.123Z"),
        (1_795_516_457_009, "2026-11-24T10:34:17.009Z"),
    ],
)
def test_dealt_at_is_utc_to_the_millisecond_with_a_z_as_the_controller_reads_it(
    epoch_ms: int, text: str
) -> None:
    assert dealt_at(epoch_ms) == text
    assert parse_timestamp(text, "dealt_at") == epoch_ms


def test_a_stamped_report_is_the_report_and_its_dealt_at():
    rnd = play(Table("T1", "wisconsin", seed=1), "7c 9d", [Bet(1, 500, side=100)])
    report = round_report(rnd)
    assert "dealt_at" not in report, "the engine's report has no time: the adapter stamps it"
    assert stamped(report, 1_795_516_457_123) == {**report, "dealt_at": "2026-11-24T10:34:17.123Z"}


def test_each_round_names_its_shoe_and_the_cards_out_before_it_but_a_machine_has_no_shoe():
    table = Table("T1", "wisconsin", seed=1, id_prefix="p")
    first = play(table, "2c Ks 4d", [Bet(1, 1000)])
    second = play(table, "9s 3d", [Bet(1, 1000)])
    assert (round_report(first)["shoe"], round_report(first)["position"]) == ("p.s1", 0)
    assert (round_report(second)["shoe"], round_report(second)["position"]) == ("p.s1", 3)
    machine = Table("T1", "wisconsin", seed=1, shuffler=Shuffler.CONTINUOUS)
    report = round_report(play(machine, "2c Ks 4d", [Bet(1, 1000)]))
    assert "shoe" not in report and "position" not in report
