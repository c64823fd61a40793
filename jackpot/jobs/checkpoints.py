"""The worker's signed checkpoints of the journals' heads (docs/DECISIONS.md D253, D255)."""

from __future__ import annotations

import logging
from typing import Any

from jackpot.domain.checkpoints import summary
from jackpot.jobs.context import services
from jackpot.services.checkpointfiles import NoCheckpointKeyError

log = logging.getLogger("jackpot.jobs")


def make_checkpoint() -> dict[str, Any] | None:
    """Sign the journals' heads if they moved since the last checkpoint; its short form, or
    None. Without a key it signs nothing and says so at ERROR, every run (D255)."""
    try:
        made = services().checkpoints.make("interval")
    except NoCheckpointKeyError as exc:
        log.error("checkpoints: nothing signed: %s", exc)
        return None
    if made is not None:
        log.debug("checkpoint #%d signed (%s)", made["id"], made["hash"][:12])
    return summary(made)
