"""Rounds settled again under an id already archived: kept beside `rounds`, never lost.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "round_repeats",
        sa.Column("table_id", sa.String(128), primary_key=True),
        sa.Column("round_id", sa.String(128), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("static", sa.Text, nullable=False),
        sa.Column("dynamic", sa.Text, nullable=False),
        sa.Column("ts", sa.BigInteger, nullable=False),
        sa.Column("who", sa.String(200), nullable=False),
        sa.Column("house_seq", sa.BigInteger, primary_key=True, autoincrement=False),
    )
    # append-only, as every table of history (0001's function on PostgreSQL)
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(
            "CREATE TRIGGER round_repeats_append_only BEFORE UPDATE OR DELETE ON round_repeats "
            "FOR EACH ROW EXECUTE FUNCTION archive_append_only()"
        )
    elif dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER round_repeats_no_{action.lower()} BEFORE {action} ON "
                f"round_repeats BEGIN SELECT RAISE(ABORT, 'the archive is append-only: "
                f"{action} on round_repeats refused'); END"
            )


def downgrade() -> None:
    raise NotImplementedError("the archive is kept for years: it is never migrated down")
