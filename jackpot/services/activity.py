"""Recent operator activity for the console: configuration, link control, adjustments and
transfers, payout steps and key events, newest first (store/activity.py).

Each entry names the person behind its key (`person`: the key's label, which the journal
recorded when the key was created), so the console says who did what, not only which key;
an entry that names its person itself (a round's void: the one who asked) keeps its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from jackpot.domain.auth import ApiKey

if TYPE_CHECKING:
    from jackpot.services.fanout import GroupedActivity


MAX_ACTIVITY = 500
PEOPLE_SECONDS = 30.0  # how long the key -> person map is reused (keys are rarely made)


class Activity:
    def __init__(
        self, store: GroupedActivity, keys: Callable[[], list[tuple[ApiKey, bool]]]
    ) -> None:
        self._store = store
        self._keys = keys
        self._people: dict[str, str] = {}
        self._read_at = -PEOPLE_SECONDS

    def recent(self, limit: int) -> list[dict[str, Any]]:
        entries = self._store.recent(min(limit, MAX_ACTIVITY))
        people = self._people_for({e.get("who", "") for e in entries})
        for e in entries:
            who = e.get("who", "")
            # an entry naming its person itself keeps it: a round's void is the asker's, not
            # the approver's whose key applied it
            if people.get(who) and not e.get("person"):
                e["person"] = people[who]
            if e.get("approved_first_by"):
                # a void two people approved: every approver in order, the first ones by the
                # keys the entry names, the last as the entry shows them
                firsts = str(e["approved_first_by"]).split(",")
                e["approvers"] = [people.get(k) or k for k in firsts] + [e.get("approver", "")]
        return entries

    def _people_for(self, whos: set[str]) -> dict[str, str]:
        stale = time.monotonic() - self._read_at > PEOPLE_SECONDS
        if stale or any(w.count(":") == 1 and w not in self._people for w in whos):
            self._people = {key.who: key.label for key, _ in self._keys()}  # '': no label
            self._read_at = time.monotonic()
        return self._people
