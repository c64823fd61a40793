"""What holding the history to signed checkpoints finds (services/checkpoints.py runs it):
archive rows edited, numbers that do not follow on, checkpoints not signed by the key, heads
of journals gone or cut back, and where a journal first differs from what was signed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from jackpot.archive.verify import Finding
from jackpot.domain import checkpoints as rule
from jackpot.services.checkpointfiles import CHECKPOINTS
from jackpot.store.checkpoints import HeadStore

# where a journal is: a link group's store, and the pool (None: the house's)
Where = tuple[HeadStore, str | None]


def edited_rows(rows: Iterable[tuple[dict[str, Any], Sequence[str]]]) -> list[Finding]:
    """The archive's rows whose columns differ from their signed body."""
    return [
        Finding(
            CHECKPOINTS,
            None,
            f"checkpoint #{body.get('id')}: the archive's {', '.join(columns)} column(s) "
            "differ from its signed body: the row was edited",
        )
        for body, columns in rows
        if columns
    ]


def gaps(stored: list[dict[str, Any]], after: int) -> list[Finding]:
    """Where the archive's checkpoints, walked from number `after`, do not follow on: a
    number skipped or repeated, or a prev that is not the hash of the one before."""
    found: list[Finding] = []
    number, prev = after, "" if after == 0 else str(stored[0].get("prev", ""))
    for checkpoint in stored:
        number += 1
        if checkpoint.get("id") != number or checkpoint.get("prev") != prev:
            found.append(
                Finding(
                    CHECKPOINTS,
                    None,
                    f"checkpoint #{checkpoint.get('id')} does not follow #{number - 1} (its "
                    "number or its prev): a checkpoint was removed, inserted or replaced",
                )
            )
            number = int(checkpoint.get("id") or number)
        prev = str(checkpoint.get("hash", ""))
    return found


def signed_by(
    given: Iterable[dict[str, Any]], key: Ed25519PublicKey
) -> tuple[list[dict[str, Any]], list[Finding]]:
    """The checkpoints that are sound and signed by `key`, and a finding for each other one."""
    sound = []
    findings = []
    for found in given:
        why = rule.problem(found, key)
        if why is None:
            sound.append(found)
        else:
            name = found.get("id", "?") if isinstance(found, dict) else "?"
            findings.append(Finding(CHECKPOINTS, None, f"checkpoint #{name} {why}"))
    return sound, findings


def signed_heads(
    sound: list[dict[str, Any]],
    where: dict[str, Where],
    ends: dict[str, int],
) -> tuple[dict[str, list[tuple[int, str, int]]], list[Finding]]:
    """The heads the checkpoints sign, by journal: (seq, hash, checkpoint); and a finding for
    a head of a journal the controller does not know, or past the journal's end now."""
    signed: dict[str, list[tuple[int, str, int]]] = {}
    findings = []
    for found in sound:
        for head in rule.heads_of(found):
            if head.journal not in where:
                findings.append(
                    Finding(
                        head.journal,
                        head.seq,
                        f"checkpoint #{found['id']} signs a journal the controller does "
                        "not know: it was removed",
                    )
                )
            elif head.seq > ends.get(head.journal, 0):
                findings.append(
                    Finding(
                        head.journal,
                        head.seq,
                        f"checkpoint #{found['id']} signed this seq, but the journal now "
                        f"ends at seq {ends.get(head.journal, 0)}: entries were removed "
                        "(the history was cut back)",
                    )
                )
            elif head.seq > 0:
                signed.setdefault(head.journal, []).append((head.seq, head.hash, int(found["id"])))
    return signed, findings


def compare(
    journal: str, heads: list[tuple[int, str, int]], history: dict[int, str]
) -> list[Finding]:
    """One journal's signed heads against its history: where it first differs, bounded by
    the last signed head before it that still matches."""
    differ = sorted((s, h, c) for s, h, c in heads if history.get(s) != h)
    if not differ:
        return []
    seq, hash_, number = differ[0]
    held = history.get(seq)
    kept = [(s, c) for s, h, c in heads if s < seq and history.get(s) == h]
    bound = (
        f"the last signed head that still matches is seq {max(kept)[0]} (checkpoint "
        f"#{max(kept)[1]}): the history after it was rewritten"
        if kept
        else "no earlier signed head of it matches"
    )
    holds = f"holds {held[:16]}…" if held else "holds no entry there"
    return [
        Finding(
            journal,
            seq,
            f"differs from what checkpoint #{number} signed (hash {hash_[:16]}…, the history "
            f"{holds}); {bound}"
            + (f"; {len(differ) - 1} later signed head(s) differ too" if len(differ) > 1 else ""),
        )
    ]
