"""The payouts a pool journal's entries make, folded again on the walk, against the archive's
payouts index."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jackpot import jsonio
from jackpot.archive.payoutindex import found_under as index_people
from jackpot.archive.payoutindex import row_of
from jackpot.archive.store import Archive
from jackpot.archive.verify.findings import Finding
from jackpot.domain.chain import ChainedEntry
from jackpot.domain.payoutrecord import ENTRY_TYPES, fold


@dataclass(slots=True)
class PayoutsFolded:
    """The payouts a pool journal's archived entries make, folded again as verify walks it.

    A walk from `--since` sees only the period's entries: a payout begun before it is folded
    from its earlier entries as the index lists them (their seqs taken on trust, each entry
    held to being one of the payout's), then the period's."""

    journal: str
    records: dict[str, tuple[dict[str, Any], list[int]]] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)
    walked: dict[str, list[ChainedEntry]] = field(default_factory=dict)

    def collect(self, entry: ChainedEntry) -> None:
        self.walked.setdefault(str(entry.get("payout") or ""), []).append(entry)

    def fold(self, archive: Archive, anchor: int) -> None:
        """Fold what was collected; `anchor`: the seq the walk began after (0: the first)."""
        for payout, entries in self.walked.items():
            earlier = self._earlier(archive, payout, anchor) if anchor else []
            self._fold_payout(payout, earlier, entries)
        self.walked = {}

    def _earlier(self, archive: Archive, payout: str, anchor: int) -> list[ChainedEntry]:
        """A payout's entries up to `anchor`, as the index lists them."""
        journal, found = archive.payout_entries(payout)
        return [e for e, _ in found if journal == self.journal and e.seq <= anchor]

    def _fold_payout(
        self, payout: str, earlier: list[ChainedEntry], entries: list[ChainedEntry]
    ) -> None:
        """One payout's entries folded, its earlier ones first; none when the index lists an
        earlier entry that is not the payout's."""
        strays = [
            e for e in earlier if e.get("type") not in ENTRY_TYPES or e.get("payout") != payout
        ]
        self.problems += [
            Finding(self.journal, e.seq, f"the payouts' index lists it as {payout}'s: it is not")
            for e in strays
        ]
        for entry in [] if strays else [*earlier, *entries]:
            self.add(entry)

    def add(self, entry: ChainedEntry) -> None:
        fields = entry.by_name()
        payout = fields.get("payout", "")
        record, steps = self.records.get(payout, (None, []))
        try:
            record = fold(record, self.journal.removeprefix("pool/"), fields)
        except ValueError as exc:
            self.problems.append(Finding(self.journal, entry.seq, f"{exc}"))
            return
        self.records[payout] = (record, [*steps, entry.seq])


def check_payout_index(
    archive: Archive, folded: PayoutsFolded, walked: int, anchor: int = 0
) -> list[Finding]:
    """The archive's payouts index against the archived entries of one pool journal, folded
    again: every payout they make is indexed as they say, under the people they name, and the
    index holds no payout they do not make, nor one at a seq outside the archived chain. Rows
    that fold entries past `walked` (archived while the walk went on) are left for the next
    run; a walk from `--since` (`anchor`: the seq it began after) leaves the rows of payouts
    with no entry after `anchor` to a whole one."""
    journal, made = folded.journal, folded.records
    out = list(folded.problems)
    rows, found_under = archive.indexed_payouts(journal)
    # read after the rows: an entry is archived in the transaction that indexes it
    tip, _ = archive.tip(journal)
    for payout, row in rows.items():
        steps = _indexed_steps(row)
        outside = _outside_chain(journal, payout, steps, tip)
        if outside:
            out += outside
            continue
        last = max(steps, default=0)
        if last > walked or (last <= anchor and payout not in made):
            continue  # archived after the walk, or before the period with no entry in it
        out += _row_against_entries(journal, payout, row, made.get(payout), found_under)
    out += _missing_from_index(journal, made, rows)
    return out


def _outside_chain(journal: str, payout: str, steps: list[int], tip: int) -> list[Finding]:
    """A finding if the index places a payout at a seq outside the archived chain."""
    outside = sorted(seq for seq in steps if not 1 <= seq <= tip)
    if not outside:
        return []
    return [
        Finding(
            journal,
            None,
            f"the payouts' index places {payout} at seq {outside[0]}, outside the "
            f"archived chain (seq 1 to {tip})",
        )
    ]


def _missing_from_index(
    journal: str, made: dict[str, tuple[dict[str, Any], list[int]]], rows: dict[str, Any]
) -> list[Finding]:
    """The payouts the entries make that the index does not hold."""
    return [
        Finding(journal, steps[0], f"payout {payout} is missing from the payouts' index")
        for payout, (_, steps) in made.items()
        if payout not in rows
    ]


def _indexed_steps(row: dict[str, Any]) -> list[int]:
    """The seqs of a payout's entries as its index row lists them ([] when unreadable)."""
    try:
        return [int(seq) for seq in jsonio.loads(row["steps"])]
    except (ValueError, TypeError):
        return []


def _row_against_entries(
    journal: str,
    payout: str,
    row: dict[str, Any],
    made: tuple[dict[str, Any], list[int]] | None,
    found_under: dict[str, set[str]],
) -> list[Finding]:
    """One payout's index row (and the people it is found under) against the payout its
    entries make (`made`: the record and its seqs, None when no entry made it)."""
    if made is None:
        return [Finding(journal, None, f"the payouts' index holds {payout}, which no entry made")]
    record, seqs = made
    if row != row_of(journal, record, seqs):
        return [
            Finding(
                journal,
                seqs[-1],
                f"the payouts' index says {payout} is not what its entries say",
            )
        ]
    if found_under.get(payout, set()) != set(index_people(record)):
        return [
            Finding(
                journal,
                None,
                f"the payouts' index finds {payout} under other people than its entries name",
            )
        ]
    return []
