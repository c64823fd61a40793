"""How a cell is written to a CSV file a spreadsheet will open (the journal's export, the
gaming day's files)."""

from __future__ import annotations

import re

# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# a number written as text (a percentage such as a negative hold, -542.88): a number, which a
# spreadsheet reads as one and runs nothing of
DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def csv_text(value: object) -> object:
    """A cell as written: text a spreadsheet would run as a formula gets a leading quote
    (shown as text, as accounting wants it); numbers are numbers, negative ones included."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not DECIMAL.fullmatch(value):
        return "'" + value
    return value
