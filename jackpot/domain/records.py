"""A round's record against the journal entry that settled it (docs/RULES.md §5).

The house journal's round entry commits the round's stored result: `result` is the SHA-256
of its static part (what the table's report decided: outcomes, pays, envy), `dynamic` the
SHA-1 of its dynamic part (what the meter gave: jackpots, the pools' values, what each pool
took in), and `ts` its stamp (the gaming day that counts it). A record that does not match
all three was forged or edited, and is never served or counted.

Rounds settled before an entry committed a part carry no digest of it ('' here): that part
is not checked, the rest is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping


def result_digest(static_json: bytes | str) -> str:
    """SHA-256 of a round's stored static result, as its house journal entry records it."""
    raw = static_json.encode() if isinstance(static_json, str) else static_json
    return hashlib.sha256(raw).hexdigest()


def dynamic_digest(dynamic_json: bytes | str) -> str:
    """SHA-1 of a round's stored dynamic result, as the settle script's redis.sha1hex."""
    raw = dynamic_json.encode() if isinstance(dynamic_json, str) else dynamic_json
    return hashlib.sha1(raw, usedforsecurity=False).hexdigest()


def record_problem(
    entry: Mapping[str, str], static: str, dynamic: str, ts: int, digest: str = "x"
) -> str | None:
    """What makes a round's record not the one its round entry committed, or None.

    `digest` is the record's idempotency digest: '' for a record archived without its
    result (removed from Redis by hand before it was archived), whose parts are not there
    to check — the gap itself is on record."""
    if not digest:
        return None
    if entry.get("type") != "round":
        return "the entry it names did not settle a round"
    return _parts_problem(entry, static, dynamic) or _time_problem(entry, ts)


def _parts_problem(entry: Mapping[str, str], static: str, dynamic: str) -> str | None:
    """Which of the record's parts does not hash to what its entry commits (a part the
    entry commits nothing for is not checked)."""
    committed = entry.get("result") or ""
    if committed and result_digest(static) != committed:
        return "its result (pays and outcomes) does not hash to the one its entry commits"
    committed = entry.get("dynamic") or ""
    if committed and dynamic_digest(dynamic) != committed:
        return "its jackpots and meters do not hash to the ones its entry commits"
    return None


def _time_problem(entry: Mapping[str, str], ts: int) -> str | None:
    stamp = entry.get("ts")
    if stamp is not None and int(stamp) != ts:
        return f"its time ({ts}) is not its entry's ({stamp}): it would count in another day"
    return None
