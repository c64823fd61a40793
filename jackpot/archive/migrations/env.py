"""Alembic's environment: run on the connection jackpot.archive.store hands over."""

from __future__ import annotations

from alembic import context

from jackpot.archive.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
