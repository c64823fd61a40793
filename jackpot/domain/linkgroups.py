"""Link groups: sets of pools and the tables feeding them, each settled on its own keys
(docs/DECISIONS.md "Link groups"). The main group is every pool's and table's unless it was
put in another."""

from __future__ import annotations

from jackpot.domain.validate import parse_group

# the link group every pool and table is in unless it was put in another
MAIN_GROUP = "main"


def group_name(raw: object, field: str = "group") -> str:
    """A link group's name as given in a request (absent: the main group)."""
    return MAIN_GROUP if raw is None else parse_group(raw, field)
