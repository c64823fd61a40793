"""What the gaming-day close computes: a day's accounting from its journals and rounds (pure:
no store; the close itself, archiving first and recording once, is jackpot.services.dayclose;
a day's bounds are jackpot.domain.gamingday).

A day's statement has four sections, each a list of flat rows (the JSON statement and the
CSV files share them):

* pools (`pool_day`): opening and closing meter and reserve, the day's movements, the
  liability at close, and whether opening + movements = closing to the unit;
* tables (`table_days`): rounds, side bets, handle, pays by kind, win and hold, and counts
  per outcome;
* hits (`hit_register`): every jackpot and hand pay won that day, with its status at close
  and who verified, disputed or voided it;
* table_counts (`table_count_row`): each table's own counts of the day beside the
  controller's, and whether they match.

A jackpot still unpaid at a day's close is carried into the next day (`unpaid_before`), so
each day's liability counts it until it is paid or voided.

Money inside the controller is in units of 1/10,000 cent. A statement gives each amount in whole
cents, and where an amount can hold a fraction of a cent (meters, reserves, contributions,
seed funding, adjustments, overflow) the remainder in units in its own `_subcent_units` column:
cents × 10,000 + subcent units is the exact amount, and no fraction of a cent is lost.

The package's modules, one a section or a concern: `layouts` (what each statement layout
records), `amounts` (money and percentages, exactly), `pools`, `tables`, `hits`, `voids` (the
sections) and `record` (a closed day's digest, and its figures against the archive's).
"""

from jackpot.domain.dayclose.amounts import money, percent
from jackpot.domain.dayclose.hits import VERDICTS, hit_register, named_as
from jackpot.domain.dayclose.layouts import (
    HAND_PAY_STEMS,
    HAND_PAYS_OWED,
    LAYOUT_VERSION,
    LAYOUTS,
    OWED_STEMS,
    VOIDS_APART,
    Entry,
)
from jackpot.domain.dayclose.pools import SETTLED, PoolDay, pool_day, unpaid_before
from jackpot.domain.dayclose.record import (
    DAY_FIELDS,
    EVENTS,
    FIGURES,
    closed_day_digest,
    figure_differences,
)
from jackpot.domain.dayclose.tables import TableDay, outcome_names, table_count_row, table_days
from jackpot.domain.dayclose.voids import void_register, void_row

__all__ = [
    "DAY_FIELDS",
    "EVENTS",
    "FIGURES",
    "HAND_PAYS_OWED",
    "HAND_PAY_STEMS",
    "LAYOUTS",
    "LAYOUT_VERSION",
    "OWED_STEMS",
    "SETTLED",
    "VERDICTS",
    "VOIDS_APART",
    "Entry",
    "PoolDay",
    "TableDay",
    "closed_day_digest",
    "figure_differences",
    "hit_register",
    "money",
    "named_as",
    "outcome_names",
    "percent",
    "pool_day",
    "table_count_row",
    "table_days",
    "unpaid_before",
    "void_register",
    "void_row",
]
