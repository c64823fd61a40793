"""The payouts' index (jackpot.archive.payoutindex), built from the entries archived so far.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from jackpot.archive.payoutindex import bring_forward
from jackpot.archive.schema import journal_entries
from jackpot.domain.payoutrecord import ENTRY_TYPES

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

PAGE = 5000


def upgrade() -> None:
    op.create_table(
        "payouts",
        sa.Column("id", sa.String(160), primary_key=True),
        sa.Column("journal", sa.String(140), nullable=False),
        sa.Column("pool", sa.String(128), nullable=False),
        sa.Column("table_id", sa.String(128), nullable=False),
        sa.Column("number", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("changed", sa.BigInteger, nullable=False),
        sa.Column("steps", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_index("payouts_by_time", "payouts", ["created", "number"])
    op.create_index("payouts_by_table", "payouts", ["table_id", "created"])
    op.create_index("payouts_by_pool", "payouts", ["pool", "created"])
    op.create_index("payouts_by_status", "payouts", ["status", "created"])
    op.create_index("payouts_by_change", "payouts", ["changed"])
    op.create_table(
        "payout_people",
        sa.Column("person", sa.String(200), primary_key=True),
        sa.Column("payout", sa.String(160), primary_key=True),
    )
    op.create_index("payout_people_by_payout", "payout_people", ["payout"])
    # the payouts archived before the index: their entries, folded in journal order
    connection = op.get_bind()
    c = journal_entries.c
    after: tuple[str, int] = ("", 0)
    while True:
        rows = connection.execute(
            sa.select(journal_entries)
            .where(c.type.in_(ENTRY_TYPES), sa.tuple_(c.journal, c.seq) > sa.tuple_(*after))
            .order_by(c.journal, c.seq)
            .limit(PAGE)
        ).all()
        bring_forward(connection, [tuple(r) for r in rows])
        if len(rows) < PAGE:
            return
        after = (str(rows[-1][0]), int(rows[-1][1]))


def downgrade() -> None:
    raise NotImplementedError("the archive is kept for years: it is never migrated down")
