"""A journal's end and a pool's live meter: the walk's last entry against the seq and head
recorded as the journal's end, and the meter and reserve against the newest balances."""

from __future__ import annotations

from redis import Redis

from jackpot.archive.store import Archive
from jackpot.archive.verify.findings import Finding
from jackpot.archive.verify.live import BATCH, Snapshot, seq_of
from jackpot.domain.chain import ChainWalk


def end_findings(journal: str, walk: ChainWalk, snap: Snapshot) -> list[Finding]:
    """Where the walk ended against the journal's recorded end."""
    if walk.seq != snap.seq:
        return [
            Finding(
                journal,
                walk.seq,
                f"the journal ends at seq {walk.seq} but "
                f"{snap.seq} is recorded as its last: entries were removed or added",
            )
        ]
    if walk.head != snap.head:
        return [
            Finding(
                journal,
                walk.seq,
                "the last entry does not hash to the recorded head: the newest entry was edited",
            )
        ]
    return []


def balance_findings(
    client: Redis, archive: Archive, journal: str, stream: str, snap: Snapshot
) -> list[Finding]:
    """A pool's live meter and reserve against its journal's newest balances: the snapshot's
    entries', else those at or before them."""
    last = _snapshot_balances(snap) or newest_balance(
        client, archive, journal, stream, snap.entries[0].seq - 1 if snap.entries else snap.seq
    )
    if last is None:
        return []
    seq, v, r = last
    if (snap.value, snap.reserve) == (v, r):
        return []
    return [
        Finding(
            journal,
            seq,
            f"the live meter ({snap.value} units) and reserve ({snap.reserve} "
            f"units) are not the journal's last balances ({v} and {r} units): the "
            "meter was changed outside the controller",
        )
    ]


def _snapshot_balances(snap: Snapshot) -> tuple[int, int, int] | None:
    """(seq, meter, reserve) of the newest of the snapshot's entries carrying balances."""
    return next(
        (
            (e.seq, int(e.get("value_units") or 0), int(e.get("reserve_units") or 0))
            for e in reversed(snap.entries)
            if e.get("value_units") is not None
        ),
        None,
    )


def archived_end(archive: Archive, journal: str, upto: int) -> tuple[int, str]:
    """(seq, hash) of the archived entry `upto` (a snapshot's recorded end); the archive's
    tip when it stops short of it (the gap is then reported). Never an entry archived
    after the snapshot: a round landing meanwhile is not a finding."""
    found = archive.entries(journal, upto - 1, 1, until_seq=upto) if upto > 0 else []
    if found:
        return found[0][0].seq, found[0][1]
    return archive.tip(journal)


def newest_balance(
    client: Redis, archive: Archive, journal: str, stream: str, upto: int
) -> tuple[int, int, int] | None:
    """The newest balance at or before seq `upto` (the snapshot's): entries that old never
    change, so a round settling meanwhile, after it, is not read (a false alarm)."""
    if upto <= 0:
        return None
    for entry_id, fields in client.xrevrange(stream, max=f"{upto}-0", count=BATCH):
        if "value_units" in fields:
            return (
                seq_of(entry_id),
                int(fields["value_units"]),
                int(fields.get("reserve_units") or 0),
            )
    return _newest_archived(archive, journal, upto)


def archived_balance(archive: Archive, journal: str, upto: int) -> tuple[int, int] | None:
    """(value, reserve) units of the newest archived balance at or before seq `upto`."""
    found = _newest_archived(archive, journal, upto)
    return None if found is None else (found[1], found[2])


def _newest_archived(archive: Archive, journal: str, upto: int) -> tuple[int, int, int] | None:
    """(seq, value, reserve) of the newest archived balance at or before seq `upto`."""
    tip = min(archive.tip(journal)[0], upto)
    step = 64
    while tip > 0:  # newest first, a widening window back from the archive's tip
        after = max(tip - step, 0)
        for entry, _ in reversed(archive.entries(journal, after, step, until_seq=tip)):
            v = entry.get("value_units")
            if v is not None:
                return entry.seq, int(v), int(entry.get("reserve_units") or 0)
        tip, step = after, step * 2
    return None
