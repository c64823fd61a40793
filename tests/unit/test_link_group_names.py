"""Link groups' names, hash tags, payout ids and archive names, and one health of several."""

from __future__ import annotations

import pytest

from jackpot.domain.journals import house_journal
from jackpot.domain.linkgroups import MAIN_GROUP, group_name
from jackpot.domain.payoutids import payout_group, payout_id, payout_number, payout_prefix
from jackpot.errors import ValidationError
from jackpot.integrity import SoftwareCheck
from jackpot.services.fanout import GroupedHealth
from jackpot.services.selfcheck import Health, Problem
from jackpot.store.keys import Keys
from jackpot.store.payouts import payout_order
from tests.support.payouts import a_payout


def test_the_main_group_keeps_the_tag_every_key_had_and_another_group_has_its_own() -> None:
    assert Keys("jackpot").tag == "{jackpot}" == Keys("jackpot", MAIN_GROUP).tag
    assert Keys("jackpot", "east").tag == "{jackpot:east}"
    assert Keys("jackpot", "east").pool("p1") == "{jackpot:east}/pool/p1"
    # the registry is the main group's, whichever group's keys ask
    assert Keys("jackpot", "east").pool_groups == Keys("jackpot").pool_groups
    assert Keys("jackpot", "east").pool_groups.startswith("{jackpot}/")


@pytest.mark.parametrize("name", ["east", "g0", "0", "a-b_c", "z" * 32])
def test_a_group_name_is_lowercase_letters_digits_dash_and_underscore(name: str) -> None:
    assert group_name(name) == name


@pytest.mark.parametrize("name", ["", "East", "-a", "_a", "a b", "a}", "a:b", "z" * 33, 7, []])
def test_anything_else_is_refused_naming_the_field(name: object) -> None:
    with pytest.raises(ValidationError) as refused:
        group_name(name)
    assert refused.value.field == "group"


def test_absent_is_the_main_group() -> None:
    assert group_name(None) == MAIN_GROUP


def test_payout_ids_and_house_journals_name_their_group() -> None:
    assert payout_prefix(MAIN_GROUP) == "" and payout_prefix("east") == "east:"
    assert payout_group("P000123") == MAIN_GROUP and payout_group("east:P000123") == "east"
    assert payout_id(MAIN_GROUP, 123) == "P000123" and payout_id("east", 7) == "east:P000007"
    assert payout_number("P000123") == 123 == payout_number("east:P000123")
    assert house_journal(MAIN_GROUP) == "house" and house_journal("east") == "house@east"
    older = a_payout(id="east:P000009", created=10)
    newer = a_payout(id="P000002", created=11)
    assert sorted([newer, older], key=payout_order) == [older, newer]


def test_one_health_of_several_names_each_other_groups_problems_once() -> None:
    software = SoftwareCheck("d" * 64, "c" * 8, ())
    late = Problem("software", "software_unverified", "the build changed")
    meters = Problem("pools", "pool_invariant", "pool west: the meters were changed")
    found = {
        MAIN_GROUP: Health(software, (late,), checked=20.0),
        "east": Health(software, (late,), checked=10.0),
        "west": Health(software, (late, meters), checked=30.0),
    }
    merged = GroupedHealth.merged(found)
    assert [p.message for p in merged.problems] == [
        "the build changed",
        "link group west: pool west: the meters were changed",
    ]
    assert merged.checked == 10.0 and not merged.operable
    assert GroupedHealth.merged({MAIN_GROUP: Health(software)}).operable
