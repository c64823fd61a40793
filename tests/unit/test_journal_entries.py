"""A journal entry's fields as the API and reports read them: numbers are numbers, and a
digest stays text even on the rare day it is written with digits only."""

from __future__ import annotations

import pytest

from jackpot.store.journal import _entry


def test_amounts_are_numbers_and_names_text() -> None:
    e = _entry("7-0", {"type": "round", "ts": "1700", "wagered": "3500", "table": "0042"})
    assert e.seq == 7 and e.fields == {
        "type": "round",
        "ts": 1700,
        "wagered": 3500,
        "table": "0042",
    }


@pytest.mark.parametrize("field", ["result", "dynamic", "digest", "prev_day"])
def test_a_digest_of_digits_only_stays_text(field: str) -> None:
    digits = "1234567890" * 4
    assert _entry("1-0", {field: digits}).fields[field] == digits
