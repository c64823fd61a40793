"""The archive's scheduled run: settled history into the SQL archive, Redis trimmed."""

from __future__ import annotations

import logging
from typing import Any

from jackpot.jobs.context import services
from jackpot.services.clock import now_ms

# what the scheduled jobs did that an operator acts on, at INFO (RQ's own lines are DEBUG:
# jackpot/logs.py RoutineFilter); a run that did nothing says nothing
log = logging.getLogger("jackpot.jobs")


def archive_run() -> dict[str, Any]:
    """One archive run (see jackpot.archive.archiver); its summary as the job's result."""
    run = services().archiver.run()
    moved, trimmed = sum(run.archived.values()), sum(run.trimmed.values())
    if moved:
        log.info(
            "archive: %d journal entries (%d rounds) moved into the archive", moved, run.rounds
        )
    if trimmed:
        log.info("archive: %d archived journal entries trimmed from Redis", trimmed)
    return run.to_json()


def close_days() -> list[str]:
    """Close every gaming day that is over and not closed yet; the days closed."""
    days = services().accounting.close_due()
    for day in days:
        log.info("gaming day %s closed: its statement is GET /v1/accounting/days/%s", day, day)
    return days


def apply_staged() -> dict[str, str]:
    """Apply the staged parameter changes whose time has come: pool -> what happened."""
    done = services().pools.apply_due(now_ms())
    for pool, what in sorted(done.items()):
        # a refused change stays staged and is tried again every 10 s: said once at INFO
        # would need memory a job has not; the pool's meters show it staged past its time
        if what.startswith("refused"):
            log.debug("pool %s: its staged change is due but was %s", pool, what)
        else:
            log.info("pool %s: its staged change was applied (%s)", pool, what)
    return done


def compare_tables() -> int:
    """Compare the tables' own counts received since the last run with the journals; how
    many comparisons were made (docs/RULES.md §5, table-side reconciliation)."""
    made = services().table_counts.compare()
    for check in made:
        if check["differences"]:
            log.warning(
                "table %s, gaming day %s: its own counts differ from the controller's (%s)",
                check["table"],
                check["day"],
                ", ".join(
                    f"{figure}: table {d['table']}, controller {d['controller']}"
                    for figure, d in check["differences"].items()
                ),
            )
    return len(made)
