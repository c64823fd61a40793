"""Which link group a new pool or table joins, and what stays where it is: the placement
rules alone, without a store (jackpot.domain.linkgroups)."""

from __future__ import annotations

import pytest

from jackpot.conflicts import LinkGroupError
from jackpot.domain.linkgroups import MAIN_GROUP, pool_placement, pools_group, table_placement
from jackpot.errors import NotFoundError, ValidationError


def test_a_new_pool_goes_where_its_request_says_or_to_the_main_group() -> None:
    assert pool_placement("p1", None, None) == MAIN_GROUP
    assert pool_placement("p1", "east", None) == "east"


def test_an_existing_pool_stays_in_its_group() -> None:
    assert pool_placement("p1", None, "east") == "east"
    assert pool_placement("p1", "east", "east") == "east"
    with pytest.raises(LinkGroupError) as refused:
        pool_placement("p1", "west", "east")
    assert refused.value.status == 409 and refused.value.field == "group"
    assert "pool 'p1' is in link group 'east', not 'west'" in refused.value.message


def test_a_pool_group_is_named_like_every_group() -> None:
    with pytest.raises(ValidationError) as refused:
        pool_placement("p1", "East!", None)
    assert refused.value.field == "group"


def test_a_table_goes_to_the_one_group_of_its_pools() -> None:
    assert table_placement("T1", [("a", "east"), ("b", "east")], None) == "east"
    assert table_placement("T1", [("a", MAIN_GROUP)], MAIN_GROUP) == MAIN_GROUP


def test_pools_of_two_groups_are_refused_naming_the_first_of_the_other() -> None:
    with pytest.raises(ValidationError) as refused:
        pools_group([("a", "east"), ("b", "east"), ("c", "west")])
    assert refused.value.field == "pools[2]" and refused.value.code == "link_group"
    assert "pool 'c' is in link group 'west' and pool 'a' in 'east'" in refused.value.message


def test_an_unknown_pool_is_a_404_naming_it_before_any_mismatch() -> None:
    with pytest.raises(NotFoundError) as refused:
        pools_group([("a", "east"), ("ghost", None), ("c", "west")])
    assert refused.value.field == "pools[1]"


def test_an_existing_table_changes_group_only_by_a_move() -> None:
    with pytest.raises(LinkGroupError) as refused:
        table_placement("T1", [("w", "west")], "east")
    assert refused.value.field == "pools" and "POST /tables/{id}/move" in refused.value.message
