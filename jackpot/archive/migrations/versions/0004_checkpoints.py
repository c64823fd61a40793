"""The controller's signed checkpoints of the journals' heads, kept for ever.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "checkpoints",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("ts", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("day", sa.String(10)),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("checkpoints_by_time", "checkpoints", ["ts"])
    op.create_index("checkpoints_by_day", "checkpoints", ["day"])
    # append-only, as every table of history (0001's function on PostgreSQL)
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(
            "CREATE TRIGGER checkpoints_append_only BEFORE UPDATE OR DELETE ON checkpoints "
            "FOR EACH ROW EXECUTE FUNCTION archive_append_only()"
        )
    elif dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER checkpoints_no_{action.lower()} BEFORE {action} ON "
                f"checkpoints BEGIN SELECT RAISE(ABORT, 'the archive is append-only: "
                f"{action} on checkpoints refused'); END"
            )


def downgrade() -> None:
    raise NotImplementedError("the archive is kept for years: it is never migrated down")
