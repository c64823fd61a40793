"""The archive: journal entries, rounds, closed gaming days; append-only.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TABLES = ("journal_entries", "rounds", "gaming_days")


def upgrade() -> None:
    op.create_table(
        "journal_entries",
        sa.Column("journal", sa.String(140), primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("ts", sa.BigInteger, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(128)),
        sa.Column("round_id", sa.String(128)),
        sa.Column("prev", sa.String(40), nullable=False),
        sa.Column("hash", sa.String(40), nullable=False),
        sa.Column("fields", sa.Text, nullable=False),
    )
    op.create_index("journal_entries_by_time", "journal_entries", ["journal", "ts"])
    op.create_index("journal_entries_by_table", "journal_entries", ["table_id", "ts"])
    op.create_table(
        "rounds",
        sa.Column("table_id", sa.String(128), primary_key=True),
        sa.Column("round_id", sa.String(128), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("static", sa.Text, nullable=False),
        sa.Column("dynamic", sa.Text, nullable=False),
        sa.Column("ts", sa.BigInteger, nullable=False),
        sa.Column("who", sa.String(200), nullable=False),
        sa.Column("house_seq", sa.BigInteger, nullable=False),
    )
    op.create_index("rounds_by_time", "rounds", ["ts"])
    op.create_table(
        "gaming_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("start_ts", sa.BigInteger, nullable=False),
        sa.Column("end_ts", sa.BigInteger, nullable=False),
        sa.Column("closed_at", sa.BigInteger, nullable=False),
        sa.Column("heads", sa.Text, nullable=False),
        sa.Column("report", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    # append-only: the database itself refuses to change or remove a row
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION archive_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'the archive is append-only: % on % refused', "
            "TG_OP, TG_TABLE_NAME; END $$"
        )
        for table in TABLES:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION archive_append_only()"
            )
    elif dialect == "sqlite":
        for table in TABLES:
            for action in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, 'the archive is append-only: {action} on "
                    f"{table} refused'); END"
                )


def downgrade() -> None:
    raise NotImplementedError("the archive is kept for years: it is never migrated down")
