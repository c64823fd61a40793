"""An operator's money step in a pool journal (an adjustment or a transfer) and the house
journal's entry that binds it (docs/DECISIONS.md D271): which pool entries a house entry
binds (`bindings`), and what is wrong with a step (`step_problems`). Pure: it reads field
texts only; the pool journal's walk that meets the steps is jackpot.domain.books."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: the pool entries an operator's step writes, and the house entry the same step writes that
#: binds each (its pool, seq and hash): docs/DECISIONS.md D271
BOUND_BY = {"adjustment": "pool_adjustment", "transfer": "pool_transfer"}


@dataclass(frozen=True, slots=True)
class PoolStep:
    """A pool adjustment or transfer entry, as verify met it."""

    journal: str
    pool: str
    seq: int
    hash: str  # the entry's own hash, which the house entry binding it names
    kind: str  # adjustment | transfer
    step_id: str  # the adjustment's or transfer's id (the adjustments record's key)
    ts: int
    who: str


@dataclass(frozen=True, slots=True)
class KeyLife:
    """An API key as the house journal's key events tell it (ms stamps; None: never)."""

    role: str
    created: int
    revoked: int | None = None


def bindings(e: Mapping[str, str]) -> list[tuple[str, int, str, str]]:
    """(pool, seq, entry hash, step id) of each pool entry a house `pool_adjustment` or
    `pool_transfer` entry binds; none for any other entry."""
    kind = e.get("type")
    if kind == "pool_adjustment":
        return [(_text(e, "pool"), _int(e.get("pool_seq")), _text(e, "pool_entry"),
                 _text(e, "adjustment"))]  # fmt: skip
    if kind == "pool_transfer":
        step = _text(e, "transfer")
        return [
            (_text(e, "from"), _int(e.get("from_seq")), _text(e, "from_entry"), step),
            (_text(e, "to"), _int(e.get("to_seq")), _text(e, "to_entry"), step),
        ]
    return []


def step_problems(
    step: PoolStep,
    recorded: bool,
    bound: tuple[str, str] | None,
    binding_required: bool,
    key: KeyLife | None,
    keys_known: bool,
) -> list[str]:
    """What is wrong with an operator's money step in a pool journal (D271): its id is not in
    the adjustments record the API's step writes (`recorded`); the house journal's entry for
    it (`bound`: (hash, step id) it names for this pool and seq) is missing, when the house
    binds such steps (`binding_required`), or names another entry; its `who` is not a key
    the house journal created as an operator's before it and had not revoked (`key`, looked
    at when the house journal holds the keys' events: `keys_known`)."""
    what = f"{step.kind} {step.step_id or '(no id)'}"
    out = []
    if not recorded:
        out.append(
            f"{what}: not in the adjustments record the controller's step writes: made "
            "outside the controller"
        )
    if bound is None:
        if binding_required:
            out.append(f"{what}: the house journal holds no entry of this step: forged")
    elif bound != (step.hash, step.step_id):
        out.append(f"{what}: the house journal's entry of this step names another entry")
    if keys_known and not _operator_at(key, step.ts):
        out.append(f"{what}: made by {step.who!r}, not an operator's key in force then")
    return out


def _operator_at(key: KeyLife | None, ts: int) -> bool:
    """Whether `key` was an operator's key in force at `ts`: created before it, not yet
    revoked."""
    if key is None or key.role != "operator" or key.created > ts:
        return False
    return key.revoked is None or key.revoked > ts


def _int(text: str | None) -> int:
    return int(text or 0)


def _text(e: Mapping[str, str], name: str) -> str:
    return e.get(name) or ""
