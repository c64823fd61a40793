"""Signed checkpoints of the journals' heads (docs/DECISIONS.md D253): the rule of what is
signed, how, and how anyone checks it.

A checkpoint names, for every journal (each link group's house journal and each pool's), the
seq and hash of its head at one instant, the time, the controller's software digest, the
checkpoint before it (its hash) and the signing key's fingerprint. What is signed is its
canonical bytes: the checkpoint without `hash` and `signature`, as compact JSON with sorted
keys, UTF-8 (docs/API.md "Checkpoints"). `hash` is the SHA-256 of those bytes, `signature`
the Ed25519 signature of them, base64. Nothing here reads a file or a store.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

VERSION = 1
UNSIGNED = ("hash", "signature")  # the fields the canonical bytes leave out
REASONS = ("interval", "day_close", "request")


@dataclass(frozen=True, slots=True)
class Head:
    """A journal's last entry: its seq and hash (0 and '' for a journal with none)."""

    journal: str
    seq: int
    hash: str


HEX = {"type": "string", "pattern": "^[0-9a-f]*$"}
# a checkpoint as served and kept (GET /v1/checkpoints/latest); docs/API.md "Checkpoints"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["v", "id", "ts", "heads", "seal", "prev", "key", "reason", "day", "hash"]
    + ["signature"],
    "properties": {
        "v": {"const": VERSION},
        "id": {"type": "integer", "minimum": 1, "description": "numbered from 1"},
        "ts": {"type": "integer", "description": "when the heads were read, epoch ms"},
        "heads": {
            "type": "object",
            "description": "journal -> [seq, hash] of its last entry",
            "additionalProperties": {
                "type": "array",
                "prefixItems": [{"type": "integer"}, HEX],
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "seal": {**HEX, "description": "the running software's SHA-256 digest"},
        "prev": {**HEX, "description": "the hash of the checkpoint before ('' for #1)"},
        "key": {**HEX, "description": "first 16 hex of SHA-256 of the raw public key"},
        "reason": {"enum": list(REASONS)},
        "day": {"type": ["string", "null"], "description": "the gaming day closed"},
        "hash": {**HEX, "description": "SHA-256 of the canonical bytes"},
        "signature": {"type": "string", "description": "Ed25519 of the canonical bytes, base64"},
    },
}
# what a slip, a report or a sign carries of the checkpoint covering it (null: not yet)
COVERED_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "null", "description": "not yet covered by a checkpoint"},
        {
            "type": "object",
            "required": ["id", "short", "hash", "ts"],
            "properties": {
                "id": {"type": "integer"},
                "short": {**HEX, "description": "the first 12 hex of its hash"},
                "hash": HEX,
                "ts": {"type": "integer"},
            },
        },
    ]
}


def canonical(body: Mapping[str, Any]) -> bytes:
    """The bytes signed: `body` less `hash` and `signature`, compact sorted-key JSON."""
    signed = {k: v for k, v in body.items() if k not in UNSIGNED}
    return json.dumps(signed, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def fingerprint(key: Ed25519PublicKey) -> str:
    """The first 16 hex of the SHA-256 of the raw 32-byte public key."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def short(checkpoint: Mapping[str, Any]) -> str:
    """What a sign or a slip shows of a checkpoint: the first 12 hex of its hash."""
    return str(checkpoint.get("hash", ""))[:12]


def make(
    key: Ed25519PrivateKey,
    number: int,
    ts: int,
    heads: list[Head],
    seal: str,
    prev: str,
    reason: str,
    day: str | None = None,
) -> dict[str, Any]:
    """A signed checkpoint: number `number`, after the one whose hash is `prev`."""
    body: dict[str, Any] = {
        "v": VERSION,
        "id": number,
        "ts": ts,
        "heads": {h.journal: [h.seq, h.hash] for h in sorted(heads, key=lambda h: h.journal)},
        "seal": seal,
        "prev": prev,
        "key": fingerprint(key.public_key()),
        "reason": reason,
        "day": day,
    }
    signed = canonical(body)
    body["hash"] = hashlib.sha256(signed).hexdigest()
    body["signature"] = base64.b64encode(key.sign(signed)).decode()
    return body


def heads_of(checkpoint: Mapping[str, Any]) -> list[Head]:
    """The heads a checkpoint signs, by journal name."""
    return [Head(j, int(p[0]), str(p[1])) for j, p in sorted(checkpoint["heads"].items())]


SHA1_HEX = re.compile(r"[0-9a-f]{40}")


def well_formed(head: Any) -> bool:
    """Whether a signed head is [seq, hash] as a journal's head can be: an entry's seq (from
    1) and its SHA-1 hex, or [0, ''] for a journal with no entry yet (D267)."""
    if not (isinstance(head, list) and len(head) == 2):
        return False
    seq, hash_ = head
    if type(seq) is not int or not isinstance(hash_, str):  # bool is an int, not a seq
        return False
    return (seq == 0 and hash_ == "") or (seq >= 1 and SHA1_HEX.fullmatch(hash_) is not None)


def problem(checkpoint: Any, key: Ed25519PublicKey) -> str | None:
    """Why `checkpoint` is not one `key` signed as it is (None: it is)."""
    return _shape_problem(checkpoint) or _signature_problem(checkpoint, key)


def _shape_problem(checkpoint: Any) -> str | None:
    """Why `checkpoint` is not a checkpoint at all: not an object, a field missing, its heads
    malformed."""
    if not isinstance(checkpoint, dict):
        return "is not a JSON object"
    missing = [n for n in ("id", "ts", "heads", "key", "hash", "signature") if n not in checkpoint]
    if missing:
        return f"lacks {', '.join(missing)}"
    heads = checkpoint["heads"]
    if not isinstance(heads, dict):
        return "its heads are not {journal: [seq, hash]}"
    bad = sorted(j for j, p in heads.items() if not well_formed(p))
    if bad:
        return (
            f"signs a malformed head of {', '.join(map(str, bad))}: {heads[bad[0]]!r} (a head "
            "is [seq >= 1, 40 hex] or, for a journal without entries, [0, ''])"
        )
    return None


def _signature_problem(checkpoint: dict[str, Any], key: Ed25519PublicKey) -> str | None:
    """Why a well-formed `checkpoint` is not what `key` signed: another key's, changed or
    forged, or its hash not of what was signed."""
    mine = fingerprint(key)
    if checkpoint["key"] != mine:
        return f"is signed by another key (fingerprint {checkpoint['key']}, not {mine})"
    signed = canonical(checkpoint)
    try:
        signature = base64.b64decode(str(checkpoint["signature"]), validate=True)
        key.verify(signature, signed)
    except (InvalidSignature, binascii.Error, ValueError):
        return "its signature does not verify: it was changed after it was signed, or forged"
    if checkpoint["hash"] != hashlib.sha256(signed).hexdigest():
        return "its hash is not the SHA-256 of its signed bytes"
    return None


def new_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def load_private(pem: bytes) -> Ed25519PrivateKey:
    """An Ed25519 private key from PEM (ValueError if it is not one)."""
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("not an Ed25519 private key")
    return key


def load_public(pem: bytes) -> Ed25519PublicKey:
    """An Ed25519 public key from PEM, or the public half of a private key's PEM."""
    if b"PRIVATE KEY" in pem:
        return load_private(pem).public_key()
    key = serialization.load_pem_public_key(pem)
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 public key")
    return key


def covers(checkpoint: Mapping[str, Any], journal: str, seq: int) -> bool:
    """Whether the checkpoint's head of `journal` is at or past `seq`."""
    pair = checkpoint.get("heads", {}).get(journal)
    return pair is not None and int(pair[0]) >= seq


def summary(checkpoint: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What a slip, a report or a sign carries of the checkpoint covering it: its number,
    short fingerprint, hash and time (None: not yet covered)."""
    if checkpoint is None:
        return None
    return {
        "id": checkpoint["id"],
        "short": short(checkpoint),
        "hash": checkpoint["hash"],
        "ts": checkpoint["ts"],
    }
