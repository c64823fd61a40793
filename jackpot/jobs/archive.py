"""The archive's scheduled run: settled history into the SQL archive, Redis trimmed."""

from __future__ import annotations

from typing import Any

from jackpot.jobs.context import services
from jackpot.services.clock import now_ms


def archive_run() -> dict[str, Any]:
    """One archive run (see jackpot.archive.archiver); its summary as the job's result."""
    return services().archiver.run().to_json()


def close_days() -> list[str]:
    """Close every gaming day that is over and not closed yet; the days closed."""
    return services().accounting.close_due()


def apply_staged() -> dict[str, str]:
    """Apply the staged parameter changes whose time has come: pool -> what happened."""
    ctx = services()
    return ctx.pools.apply_due(now_ms())


def compare_tables() -> int:
    """Compare the tables' own counts received since the last run with the journals; how
    many comparisons were made (docs/RULES.md §5, table-side reconciliation)."""
    return len(services().table_counts.compare())
