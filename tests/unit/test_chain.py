"""The journals' hash chain: what an entry's hash covers, and what a walk finds."""

from __future__ import annotations

import hashlib

from jackpot.domain.chain import GENESIS, ChainedEntry, ChainWalk, entry_hash


def entries(n: int) -> list[ChainedEntry]:
    out, head = [], GENESIS
    for seq in range(1, n + 1):
        e = ChainedEntry(seq, head, (("type", "round"), ("ts", str(1000 + seq))))
        out.append(e)
        head = e.hash
    return out


def test_the_hash_is_sha1_of_prev_seq_and_length_prefixed_fields() -> None:
    expected = hashlib.sha1(b"abc\n7\n4:type\n5:round\n6:reason\n5:\xc3\xbcber").hexdigest()
    assert entry_hash("abc", 7, (("type", "round"), ("reason", "über"))) == expected


def test_length_prefixes_keep_different_entries_apart() -> None:
    assert entry_hash("", 1, (("a", "b\n1:c"),)) != entry_hash("", 1, (("a", "b"), ("c", "")))
    assert entry_hash("", 1, (("ab", ""),)) != entry_hash("", 1, (("a", "b"),))


def test_an_intact_chain_walks_clean() -> None:
    walk = ChainWalk("house")
    walk.feed(entries(5))
    assert walk.problems() == [] and walk.checked == 5 and walk.seq == 5


def test_a_deleted_an_edited_and_a_repeated_entry_are_each_found() -> None:
    chain = entries(6)
    deleted = ChainWalk("house")
    deleted.feed(chain[:2] + chain[3:])
    assert [b.seq for b in deleted.problems()] == [4, 4]  # a missing seq, and a broken link

    edited = list(chain)
    edited[2] = ChainedEntry(3, chain[2].prev, (("type", "round"), ("ts", "9")))
    walk = ChainWalk("house")
    walk.feed(edited)
    assert [b.seq for b in walk.problems()] == [4]  # the next entry no longer links

    repeated = ChainWalk("house")
    repeated.feed(chain[:3] + chain[2:])
    assert any("repeated" in b.problem for b in repeated.problems())


def test_an_entry_read_from_a_stream_keeps_its_fields_in_order() -> None:
    e = ChainedEntry.from_stream("12-0", {"prev": "ff", "type": "hit", "amount": "5"})
    assert (e.seq, e.prev, e.fields) == (12, "ff", (("type", "hit"), ("amount", "5")))
    assert e.get("amount") == "5" and e.get("nothing") is None
