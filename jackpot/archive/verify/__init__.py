"""`jackpot verify`: every journal's hash chain, in the archive and in Redis, checked whole.

For each journal (the house's and each pool's):

* the archive's entries, from the first: seqs without a gap, each `prev` the hash of the entry
  before, and each entry's content still hashing to the hash stored when it was archived;
* Redis's tail: where it overlaps the archive, the same entries as the archive's; after it,
  the chain continued;
* the journal's end: the seq and head (hash of the last entry) the pool or the house counters
  record, so deleting or editing the newest entry is found too;
* each pool's live meter and reserve against the balances of its journal's last entry;
* each closed gaming day's recorded heads against the archive: history rewritten after a day
  was closed cannot match them;
* each pool's books recomputed from its entries' amounts (jackpot.domain.books): every
  entry's balances from the ones before it, the pool's counters from the first entry (a
  whole walk), and every pool entry of a round against the house journal's entry for it and
  the round record that entry commits.

Every finding names the journal, the seq and what is wrong; nothing is repaired.

Where each check lives: `verifier` runs them over a link group's journals; `journal` walks
one journal; `ends` holds its end and a pool's meter; `accounted` the journals against each
other; `payouts` the payouts index; `rounds` the round records; `days` the closed days.
"""

from jackpot.archive.verify.days import check_closed_days, check_day_heads
from jackpot.archive.verify.findings import Finding, Verification
from jackpot.archive.verify.house import HouseIndex
from jackpot.archive.verify.live import BATCH
from jackpot.archive.verify.payouts import PayoutsFolded, check_payout_index
from jackpot.archive.verify.rounds import WINDOW_MS, check_repeats, check_rounds
from jackpot.archive.verify.verifier import Verifier

__all__ = [
    "BATCH",
    "WINDOW_MS",
    "Finding",
    "HouseIndex",
    "PayoutsFolded",
    "Verification",
    "Verifier",
    "check_closed_days",
    "check_day_heads",
    "check_payout_index",
    "check_repeats",
    "check_rounds",
]
