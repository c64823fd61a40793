"""The paytable in a patron's words, derived from the configured paytable, never typed in."""

from __future__ import annotations

from jackpot.domain.paytable import SEED_PAYTABLE, Paytable
from jackpot.domain.signs import paytable_words


def test_the_seed_paytable_in_words() -> None:
    words = paytable_words(SEED_PAYTABLE, "main", {"main": "Grand Jackpot"})
    assert [w["outcome"] for w in words][:2] == ["Suited 4 of a Kind", "Suited Double Tie"]
    first = words[0]
    assert first["pays"].startswith("100% of the Grand Jackpot")
    assert all(w["pays"] for w in words)


def test_percentages_odds_and_envy_are_written_exactly() -> None:
    table = SEED_PAYTABLE.to_json()
    table["suited_four_of_a_kind"] = {"odds": 1000, "meter_bp": 10_000,
                                      "envy": {"amount": 10_000}}  # fmt: skip
    table["four_of_a_kind"] = {"odds": 25, "meter_bp": 1_250, "pool": "mini",
                               "qualifying_wager": 2_500, "below_qualifying": "nothing",
                               "envy": {"multiple": 5}}  # fmt: skip
    table["tie"] = {"odds": 0}
    words = {w["outcome"]: w for w in paytable_words(Paytable.from_json(table), "main", {})}
    assert words["Suited 4 of a Kind"] == {
        "outcome": "Suited 4 of a Kind",
        "pays": "100% of the main jackpot + 1,000 to 1",
        "envy": "every other player wins $100",
        "qualifying": "Jackpot pays are for a $5 bet; a smaller bet wins its part",
    }
    assert words["4 of a Kind"]["pays"] == "12.5% of the mini jackpot + 25 to 1"
    assert words["4 of a Kind"]["envy"] == "every other player wins 5 × their bet"
    assert words["4 of a Kind"]["qualifying"] == (
        "Jackpot pays are for a $25 bet or more; a smaller bet wins none"
    )
    assert "Tie" not in words, "an outcome that pays nothing is not advertised"


def test_the_smaller_bet_is_left_out_where_no_table_takes_one() -> None:
    """The examiner's find: "a smaller bet wins its part" on a sign whose tables all take $5
    and up, where no smaller bet can be made."""
    table = SEED_PAYTABLE.to_json()
    table["four_of_a_kind"] = {"odds": 25, "meter_bp": 1_250, "qualifying_wager": 2_500,
                               "below_qualifying": "nothing"}  # fmt: skip
    paytable = Paytable.from_json(table)
    words = {w["outcome"]: w["qualifying"] for w in paytable_words(paytable, "main", {}, 500)}
    assert words["Suited 4 of a Kind"] == "Jackpot pays are for a $5 bet or more"
    assert words["4 of a Kind"] == (
        "Jackpot pays are for a $25 bet or more; a smaller bet wins none"
    ), "a $5 table takes a smaller bet than $25"
    above = {w["outcome"]: w["qualifying"] for w in paytable_words(paytable, "main", {}, 2_500)}
    assert above["4 of a Kind"] == "Jackpot pays are for a $25 bet or more"
    assert above["Suited 4 of a Kind"] == "Jackpot pays are for a $5 bet or more"
