"""CSV cells (jackpot/api/journal.py csv_text): text a spreadsheet would run as a formula is
quoted; numbers are numbers, negative ones and decimals written as text included."""

from __future__ import annotations

import pytest

from jackpot.api.journal import csv_text


@pytest.mark.parametrize("number", [-542, "-542.88", "-12", "0.00", 17, "12.5"])
def test_numbers_are_written_as_numbers(number: object) -> None:
    assert csv_text(number) == number


@pytest.mark.parametrize("text", ["=1+2", "-2+3", "+cmd", "@SUM(A1)", "-cmd", "\tx", "-1e3", "-"])
def test_text_a_spreadsheet_would_run_is_quoted(text: str) -> None:
    assert csv_text(text) == "'" + text
