"""`jackpot math`: the exact odds of the side bet and the return of a paytable.

`command` declares and reads the options and runs; `figures` works out what is printed (the
odds are jackpot.domain.odds's); `text` and `as_json` print it.
"""

from __future__ import annotations

from jackpot.cli.math.command import register, run

__all__ = ["register", "run"]
