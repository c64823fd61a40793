"""What a forger with both stores can do to a journal: rewrite its entries in Redis and in the
archive alike, rehash the chain from the first entry changed, and put the pool's recorded end
(seq, head), its meter and reserve and its counters where the rewritten entries leave them,
so that the chain, the journal's end and the live meter all look untouched (issue 39)."""

from __future__ import annotations

import json
from collections.abc import Callable

import sqlalchemy

from jackpot.domain.chain import entry_hash
from jackpot.domain.journals import pool_journal
from tests.support.archive_world import World
from tests.support.tamper import superuser

Entry = dict[str, str]  # an entry's fields in stored order, `prev` left out
UNIT = 10_000


def entries(w: World, pool: str) -> list[Entry]:
    """A pool journal whole, oldest first: the archive's entries, then Redis's after them."""
    journal = pool_journal(pool)
    out = {e.seq: dict(e.fields) for e, _ in w.services.archive.walk(journal)}
    stream = w.services.groups.main.keys.pool_journal(pool)
    for entry_id, fields in w.redis.xrange(stream):
        seq = int(entry_id.split("-")[0])
        out.setdefault(seq, {k: v for k, v in fields.items() if k != "prev"})
    return [out[seq] for seq in sorted(out)]


def forge(w: World, pool: str, edit: Callable[[list[Entry]], list[Entry]]) -> None:
    """Rewrite `pool`'s journal as `edit` returns it (cut, changed or added entries, seqs from
    1), in Redis and the archive, with every hash, the pool's end, meter and counters fixed."""
    journal = pool_journal(pool)
    keys = w.services.groups.main.keys
    stream = keys.pool_journal(pool)
    before = entries(w, pool)
    after = edit([dict(e) for e in before])
    first = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    hashes: list[str] = []
    prev = ""
    for seq, fields in enumerate(after, start=1):
        hashes.append(entry_hash(prev, seq, list(fields.items())))
        prev = hashes[-1]
    archived, _ = w.services.archive.tip(journal)
    with superuser(w.services.archive.engine) as db:
        db.execute(
            sqlalchemy.text("DELETE FROM journal_entries WHERE journal = :j AND seq > :s"),
            {"j": journal, "s": first},
        )
        for seq in range(first + 1, min(archived, len(after)) + 1):
            fields = after[seq - 1]
            db.execute(
                sqlalchemy.text(
                    "INSERT INTO journal_entries (journal, seq, ts, type, table_id, round_id, "
                    "prev, hash, fields) VALUES (:j, :s, :ts, :type, :t, :r, :prev, :h, :f)"
                ),
                {
                    "j": journal,
                    "s": seq,
                    "ts": int(fields.get("ts") or 0),
                    "type": fields.get("type") or "",
                    "t": fields.get("table"),
                    "r": fields.get("round"),
                    "prev": hashes[seq - 2] if seq > 1 else "",
                    "h": hashes[seq - 1],
                    "f": json.dumps(fields, separators=(",", ":")),
                },
            )
    live = w.redis.xrange(stream, count=1)
    live_from = int(live[0][0].split("-")[0]) if live else archived + 1
    w.redis.delete(stream)
    for seq in range(live_from, len(after) + 1):
        prev_hash = hashes[seq - 2] if seq > 1 else ""
        w.redis.xadd(stream, {"prev": prev_hash, **after[seq - 1]}, id=f"{seq}-0")
    value, reserve = next(
        (int(e["value_units"]), int(e.get("reserve_units") or 0))
        for e in reversed(after)
        if "value_units" in e
    )
    w.redis.hset(
        keys.pool(pool),
        mapping={
            "seq": str(len(after)),
            "head": hashes[-1],
            "value": str(value),
            "reserve": str(reserve),
            **{k: str(v) for k, v in counters(after).items()},
        },
    )


def counters(journal: list[Entry]) -> dict[str, int]:
    """The pool hash's counters as the forger works them out from the entries he leaves."""
    c = dict.fromkeys(
        (
            "reset_initial_units",
            "contrib_units",
            "overflow_units",
            "in_cents",
            "bets",
            "hits",
            "won_cents",
            "seed_units",
            "adjust_units",
            "void_units",
        ),
        0,
    )
    for e in journal:
        kind, n = e.get("type"), lambda name: int(e.get(name) or 0)  # noqa: B023
        if kind == "created":
            c["reset_initial_units"] += n("value_units")
        elif kind == "contribution":
            c["contrib_units"] += n("to_visible_units") + n("to_reserve_units")
            c["overflow_units"] += n("overflow_units")
            c["in_cents"] += n("wagered")
            c["bets"] += n("bets")
        elif kind == "hit":
            c["hits"] += 1
            c["won_cents"] += n("amount")
        elif kind == "reset":
            c["seed_units"] += n("seed_units")
        elif kind in ("adjustment", "transfer"):
            c["adjust_units"] += n("amount_units")
        elif kind == "void":
            c["seed_units"] += n("seed_units")
            c["void_units"] += n("void_units") - n("seed_units")
    return c
