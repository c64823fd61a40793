"""The archive's tables (SQLAlchemy Core). Alembic migrations in migrations/ create them.

Append-only: rows are inserted, never updated or deleted (triggers refuse both, on
PostgreSQL and SQLite alike). Every record the controller keeps is either a journal entry
(money, hits, payout verdicts, configuration, adjustments, keys) or a round's stored result,
so these few tables hold the whole history.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

# One row per journal entry: `journal` is "house" or "pool/<id>", `fields` the entry's text
# fields in stored order as a JSON object (its hash covers exactly these).
journal_entries = Table(
    "journal_entries",
    metadata,
    Column("journal", String(140), primary_key=True),
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("ts", BigInteger, nullable=False),  # controller clock, epoch ms
    Column("type", String(64), nullable=False),
    Column("table_id", String(128)),
    Column("round_id", String(128)),
    Column("prev", String(40), nullable=False),
    Column("hash", String(40), nullable=False),
    Column("fields", Text, nullable=False),
    Index("journal_entries_by_time", "journal", "ts"),
    Index("journal_entries_by_table", "table_id", "ts"),
)


def _round_columns(seq_in_key: bool) -> list[Column[object]]:
    """A round record's columns; keyed by (table, round), and by its house entry's seq too
    where one id may hold several (round_repeats)."""
    return [
        Column("table_id", String(128), primary_key=True),
        Column("round_id", String(128), primary_key=True),
        Column("digest", String(64), nullable=False),
        Column("static", Text, nullable=False),
        Column("dynamic", Text, nullable=False),
        Column("ts", BigInteger, nullable=False),
        Column("who", String(200), nullable=False),
        Column(
            "house_seq", BigInteger, primary_key=seq_in_key, nullable=False, autoincrement=False
        ),  # fmt: skip
    ]


# A round's first result, as the controller answers a replay of it.
rounds = Table("rounds", metadata, *_round_columns(False), Index("rounds_by_time", "ts"))

# A round settled again under a (table, round) already in `rounds` (docs/DECISIONS.md D225:
# the round path never lets one through; a repeat here is a finding of `jackpot verify` and
# an alert, and the archive goes on): the later settlement's record, beside the first.
round_repeats = Table("round_repeats", metadata, *_round_columns(True))

# A closed gaming day: its report and the journals' chain heads at its close, kept for ever.
gaming_days = Table(
    "gaming_days",
    metadata,
    Column("day", String(10), primary_key=True),  # YYYY-MM-DD
    Column("start_ts", BigInteger, nullable=False),
    Column("end_ts", BigInteger, nullable=False),
    Column("closed_at", BigInteger, nullable=False),
    Column("heads", Text, nullable=False),  # JSON {journal: [seq, hash]}
    Column("report", Text, nullable=False),  # JSON, as GET /v1/accounting/days/{day}
    Column("version", Integer, nullable=False),  # of the report's layout
)

# The payouts' index (jackpot.archive.payoutindex): each payout's record as its archived
# entries fold to (jackpot.domain.payoutrecord), for searches of the whole history. Derived,
# not history: it is brought forward in the transaction that archives the entries, so a row
# changes as its payout takes steps; `steps` lists the seqs of the entries it folds, in its
# pool's journal, and `jackpot verify` folds them again to hold the row to the chain.
payouts = Table(
    "payouts",
    metadata,
    Column("id", String(160), primary_key=True),
    Column("journal", String(140), nullable=False),
    Column("pool", String(128), nullable=False),
    Column("table_id", String(128), nullable=False),
    Column("number", BigInteger, nullable=False),
    Column("status", String(32), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("created", BigInteger, nullable=False),  # the making entry's stamp, epoch ms
    Column("changed", BigInteger, nullable=False),  # the newest step's
    Column("steps", Text, nullable=False),  # JSON [seq, ...] in `journal`
    Column("record", Text, nullable=False),  # JSON, as GET /v1/payouts/{id}
    Index("payouts_by_time", "created", "number"),
    Index("payouts_by_table", "table_id", "created"),
    Index("payouts_by_pool", "pool", "created"),
    Index("payouts_by_status", "status", "created"),
    Index("payouts_by_change", "changed"),
)

# Who a payout is found under (payoutrecord.people): a person's name as compared, or a key.
payout_people = Table(
    "payout_people",
    metadata,
    Column("person", String(200), primary_key=True),
    Column("payout", String(160), primary_key=True),
    Index("payout_people_by_payout", "payout"),
)

# The controller's signed checkpoints of the journals' heads (jackpot.domain.checkpoints),
# numbered from 1, each naming the one before by its hash; `body` is the checkpoint as served
# (its canonical bytes, `hash` and `signature`), kept for ever.
checkpoints = Table(
    "checkpoints",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("ts", BigInteger, nullable=False),  # when its heads were read, epoch ms
    Column("hash", String(64), nullable=False),
    Column("day", String(10)),  # the gaming day whose close it was made at
    Column("body", Text, nullable=False),
    Index("checkpoints_by_time", "ts"),
    Index("checkpoints_by_day", "day"),
)

APPEND_ONLY = ("journal_entries", "rounds", "gaming_days", "round_repeats", "checkpoints")
