"""The statement's layouts: what each version of a closed day's statement records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: a journal entry's fields, as the day's computations read them
Entry = Mapping[str, Any]


def text(e: Entry, name: str) -> str:
    """An entry's field as text, '' where it is missing or empty."""
    return str(e.get(name) or "")


def number(e: Entry, name: str) -> int:
    """An entry's field as an integer, 0 where it is missing or empty."""
    return int(e.get(name) or 0)


# 2: the hit register names people (each key's holder) and adds the payer, witness, slip and
# approval; 3: it names each meter hit's level type, and a hidden trigger's reveal (the
# trigger, whole cents, and the commitment it opens); 4: and the salt that, with the trigger,
# opens it, so the register alone checks the reveal; 5: voids apart (D278): the pools' jackpots
# owed at open, paid and voided beside those won (won − paid − voided moves what is owed), the
# jackpots voided rounds put back on the meter as `returned_jackpots` (layouts 1–4 called them
# `voided_jackpots`), each hit's void reason and who asked for it, and a `voids` section: every
# void made in the day with who asked, who approved and why; 6: the hand pays owed rolled
# over the day in the pool whose journal holds them (D300): owed at open + held − paid −
# voided = owed at close, and the statement's `hand_pays_unpaid_at_close` carries them to the
# next day. A day recorded in an earlier layout is computed again in it
LAYOUT_VERSION = 6
LAYOUTS = (1, 2, 3, 4, 5, 6)
#: the first layout with voids apart
VOIDS_APART = 5
#: the first layout with the hand pays owed rolled over the day
HAND_PAYS_OWED = 6

#: the figures of what is owed that layout 5 added (and the old `voided_jackpots`' new sense)
OWED_STEMS = ("owed_at_open", "paid_jackpots", "voided_jackpots")
#: the hand pays' figures layout 6 added, each a `_count` and a `_cents`
HAND_PAY_STEMS = (
    "hand_pays_owed_at_open",
    "hand_pays",
    "paid_hand_pays",
    "voided_hand_pays",
    "unpaid_hand_pays",
)
