"""The hits section (`hit_register`): every jackpot and hand pay won in a pool's day, with
its status at close and who verified, approved, disputed or voided it; and how the day's
records name the holder of a key (`named_as`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from jackpot.domain.auth import a_tables_key
from jackpot.domain.dayclose.layouts import LAYOUT_VERSION, VOIDS_APART, Entry, text

#: a payout's journal entries and the status each leaves it in
VERDICTS = {
    "payout_confirmed": "awaiting_approval",
    "payout_paid": "paid",
    "payout_disputed": "disputed",
    "payout_voided": "void",
}


def hit_register(
    pool: str,
    rows: Iterable[Entry],
    iso: Callable[[int], str],
    people: Mapping[str, str] | None = None,
    layout: int = LAYOUT_VERSION,
    round_voids: Iterable[Entry] = (),
) -> list[dict[str, Any]]:
    """The hits section of a pool's day, from its journal entries of the day: each hit (a
    meter hit, or a hand pay: a large fixed or envy pay) with its status at close, who
    verified it (confirmed or paid it) and, apart, who disputed or voided it. From layout 2
    each person is named as a person (`people`: a key's `who` -> its holder, the key's label;
    the key itself when it has none), with the pay's payer, witness and slip, and who
    approved it and when. From layout 3 each meter hit names its level's type (`hand`,
    `must_hit_by`, `mystery`) and a trigger level's hit the trigger it revealed (cents) and
    the commitment that trigger opens; from layout 4 the salt it opens it with too; from
    layout 5 a voided one's reason and who asked for its void (of a jackpot voided with its
    round, who asked for the round's: `round_voids`, the house journals' void entries)."""
    rows = list(rows)
    register = _Register(
        pool,
        iso,
        None if layout == 1 else people,
        layout,
        # a round's void asked by one person and applied by another: its jackpots' entries
        # are the applier's, at the house entry's time
        {
            (str(v["table"]), str(v["round"]), int(v["ts"])): str(v.get("requested_by") or v["who"])
            for v in round_voids
        },
        *_payout_steps(rows),
    )
    return [register.row(e) for e in rows if e["type"] in ("hit", "hand_pay")]


def _payout_steps(
    rows: Iterable[Entry],
) -> tuple[dict[str, Entry], dict[str, dict[str, Entry]]]:
    """Each payout's last step (its verdict), and its last step of each kind."""
    verdicts: dict[str, Entry] = {}
    steps: dict[str, dict[str, Entry]] = {}
    for e in rows:
        if e["type"] in VERDICTS:
            verdicts[str(e["payout"])] = e
            steps.setdefault(str(e["payout"]), {})[str(e["type"])] = e
    return verdicts, steps


@dataclass(frozen=True, slots=True)
class _Register:
    """A pool's hit register of a day in a layout: one row per hit, its columns by layout."""

    pool: str
    iso: Callable[[int], str]
    people: Mapping[str, str] | None  # None: keys, not people (layout 1)
    layout: int
    round_askers: Mapping[tuple[str, str, int], str]  # a round's void -> who asked for it
    verdicts: Mapping[str, Entry]  # the last step of each payout
    steps: Mapping[str, Mapping[str, Entry]]  # its last step of each kind

    def named(self, who: str) -> str:
        return who if self.people is None else self.people.get(who) or who

    def row(self, e: Entry) -> dict[str, Any]:
        verdict = self.verdicts.get(str(e["payout"]))
        mine = self.steps.get(str(e["payout"]), {})
        row = {
            "time": self.iso(int(e["ts"])),
            "pool": self.pool,
            "kind": e.get("kind", "meter"),
            "payout": e["payout"],
            "table": e["table"],
            "round": e["round"],
            "spot": e["spot"],
            "player": e.get("player", ""),
            "outcome": e["outcome"],
            "amount_cents": e["amount"],
            "status_at_close": "pending" if verdict is None else VERDICTS[str(verdict["type"])],
        }
        row |= self._verified(mine)
        row |= self._step("disputed", mine.get("payout_disputed"))
        row |= self._step("voided", mine.get("payout_voided"))
        if self.layout >= 3:
            row |= _revealed(e, self.layout)
        if self.layout >= VOIDS_APART:
            row |= self._void(mine.get("payout_voided"))
        return row

    def _verified(self, mine: Mapping[str, Entry]) -> dict[str, str]:
        """Who verified the pay (layout 1: confirmed or paid it); from layout 2, who confirmed
        it, who paid it before whom with which slip, and who approved it."""
        paid, confirmed = mine.get("payout_paid"), mine.get("payout_confirmed")
        if self.layout == 1:
            return self._step("verified", paid or confirmed)
        approved, confirmed = _approval(paid, confirmed)
        verified = confirmed if approved is not None else paid or confirmed
        pay = paid or confirmed or {}
        return {
            **self._step("verified", verified),
            "paid_by": str(pay.get("paid_by", "")),
            "witness": str(pay.get("witness", "")),
            "slip": str(pay.get("slip", "")),
            **self._step("approved", approved),
        }

    def _void(self, voided: Entry | None) -> dict[str, str]:
        """Who asked for a voided pay's void (of a jackpot voided with its round, who asked
        for the round's), and why."""
        if voided is None:
            return {"void_asked_by": "", "void_reason": ""}
        at = (str(voided["table"]), str(voided["round"]), int(voided["ts"]))
        asker = self.round_askers.get(at) or text(voided, "requested_by") or str(voided["who"])
        return {
            "void_asked_by": named_as(asker, self.people or {}) if asker else "",
            "void_reason": text(voided, "note"),
        }

    def _step(self, name: str, entry: Entry | None) -> dict[str, str]:
        """`<name>_by` (the person) and `<name>_at` of a payout's step ('' when not taken)."""
        if entry is None:
            return {f"{name}_by": "", f"{name}_at": ""}
        return {
            f"{name}_by": self.named(str(entry["who"])),
            f"{name}_at": self.iso(int(entry["ts"])),
        }


def _approval(paid: Entry | None, confirmed: Entry | None) -> tuple[Entry | None, Entry | None]:
    """A pay's approval, and its confirmation: approved is a paid entry that names its
    confirmer (a second person approved it); one confirmed on an earlier day is confirmed
    by whom the approval's entry names."""
    approved = paid if paid is not None and paid.get("confirmed_by") else None
    if approved is not None and confirmed is None:
        confirmed = {**approved, "who": approved["confirmed_by"]}
    return approved, confirmed


def _revealed(e: Entry, layout: int) -> dict[str, Any]:
    """A meter hit's level type and, of a trigger level's, the trigger it revealed and the
    commitment it opens (layout 3), and the salt it opens it with (layout 4)."""
    trigger = e.get("trigger_cents")
    row: dict[str, Any] = {
        "level": "" if e["type"] == "hand_pay" else text(e, "level") or "hand",
        "trigger": None if trigger is None else int(trigger),
        "commitment": text(e, "commitment"),
    }
    if layout >= 4:
        row["salt"] = text(e, "salt")
    return row


def named_as(who: str, people: Mapping[str, str], shown: str = "") -> str:
    """The holder of key `who` as the day's records name them: a person by name and number, a
    table's key by its label marked as a device (`pit 3 adapters (table key)`, D288), else the
    name shown when the step was taken, else the key."""
    name = people.get(who) or shown or who
    return f"{name} (table key)" if a_tables_key(who) and not name.endswith("(table key)") else name
