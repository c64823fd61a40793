"""What the API answers of the journals (docs/API.md, /v1/journal, /v1/activity): a page of
a journal's entries, and the operators' recent steps. An entry's fields are its type's, as
the script that wrote it journaled them (docs/API.md, "Journal entries"): published as
given, with the seq, stamp and type every entry has. Declared once
(jackpot.domain.answers) for the JSON and the schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from jackpot.domain.answers import TEXT, Each, Given, OrNull, answer_field

ENTRY = Given(
    {
        "type": "object",
        "description": "a journal entry: its seq, then its type's fields as journaled",
        "properties": {"seq": {"type": "integer"}, "type": {"type": "string"}},
        "required": ["seq", "type"],
    }
)
STEP = Given(
    {
        "type": "object",
        "description": "an operator's step as its journal entry says it, with the journal "
        "it is in (`pool` names a pool's), `person` (who the key is issued to) and, for a void "
        "two people approved, `approvers` in order",
        "properties": {
            "type": {"type": "string"},
            "journal": {"enum": ["house", "pool"]},
            "person": {"type": "string"},
            "approvers": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["type", "journal"],
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class JournalPage:
    NAME: ClassVar[str] = "Journal"
    DOC: ClassVar[str] = "a journal's entries after a seq, oldest first"

    pool: str | None = answer_field(OrNull(TEXT), "the pool's journal; null: a house journal")
    group: str | None = answer_field(
        TEXT, "a link group's house journal other than the main group's", omitted=True
    )
    entries: list[dict[str, Any]] = answer_field(Each(ENTRY))


@dataclass(frozen=True, slots=True)
class ActivityList:
    NAME: ClassVar[str] = "Activity"
    DOC: ClassVar[str] = "the operators' recent steps, newest first"

    activity: list[dict[str, Any]] = answer_field(Each(STEP))
