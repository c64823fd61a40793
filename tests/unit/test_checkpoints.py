"""The checkpoint rule (jackpot.domain.checkpoints): the bytes signed are the documented
canonical JSON, a signature holds only for those bytes and that key, and a slip shows the
covering checkpoint or says it is not yet covered."""

from __future__ import annotations

import base64
import hashlib
import json
from zoneinfo import ZoneInfo

from jackpot.cli.payouts import payout_detail
from jackpot.domain import checkpoints as rule
from jackpot.domain.checkpoints import Head

KEY = rule.new_key()
HEADS = [Head("pool/main", 7, "b" * 40), Head("house", 12, "a" * 40)]


def made() -> dict[str, object]:
    return rule.make(KEY, 3, 1_795_896_499_504, HEADS, "c" * 64, "d" * 64, "interval")


def test_the_signed_bytes_are_sorted_compact_json_without_hash_and_signature() -> None:
    c = made()
    body = {k: v for k, v in c.items() if k not in ("hash", "signature")}
    expected = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    assert rule.canonical(c) == expected
    assert b" " not in expected and expected.startswith(b'{"day":null,"heads":{"house":[12,')
    assert c["hash"] == hashlib.sha256(expected).hexdigest()
    KEY.public_key().verify(base64.b64decode(str(c["signature"])), expected)
    assert c["key"] == hashlib.sha256(KEY.public_key().public_bytes_raw()).hexdigest()[:16]


def test_a_signature_holds_for_its_bytes_and_its_key_only() -> None:
    c = made()
    assert rule.problem(c, KEY.public_key()) is None
    changed = {**c, "ts": int(str(c["ts"])) + 1}
    assert "signature does not verify" in str(rule.problem(changed, KEY.public_key()))
    other = rule.new_key().public_key()
    assert "signed by another key" in str(rule.problem(c, other))
    assert "lacks signature" in str(
        rule.problem({k: v for k, v in c.items() if k != "signature"}, KEY.public_key())
    )
    assert rule.problem([], KEY.public_key()) == "is not a JSON object"


def test_the_keys_pem_round_trips_and_a_private_pem_yields_its_public_key() -> None:
    mine = rule.fingerprint(KEY.public_key())
    assert rule.fingerprint(rule.load_private(rule.private_pem(KEY)).public_key()) == mine
    assert rule.fingerprint(rule.load_public(rule.public_pem(KEY.public_key()))) == mine
    assert rule.fingerprint(rule.load_public(rule.private_pem(KEY))) == mine


def test_a_slip_names_its_checkpoint_or_says_it_is_not_yet_covered() -> None:
    zone = ZoneInfo("UTC")
    shown = payout_detail({"id": "P000001", "checkpoint": rule.summary(made())}, zone)
    assert f"#3 {str(made()['hash'])[:12]} at 2026-11-" in shown
    assert "not yet covered" in payout_detail({"id": "P000001", "checkpoint": None}, zone)
    assert rule.covers(made(), "house", 12) and not rule.covers(made(), "house", 13)
    assert not rule.covers(made(), "pool/other", 1)
