"""A day's meter drawn from a few hundred points, however many rounds moved it."""

from __future__ import annotations

from jackpot.domain.dayreport import meter_series, pool_corrections, void_corrections

DAY = 86_400_000


def contributions(n: int, every: int, start: int = 0, value: int = 10_000_000) -> list[dict]:
    out = []
    for i in range(n):
        value += 25_000  # 2.5 cents a round
        out.append({"type": "contribution", "ts": start + i * every, "value_units": value})
    return out


def test_a_busy_day_is_drawn_from_each_slices_last_value() -> None:
    entries = contributions(50_000, DAY // 50_000)
    points = meter_series(10_000_000, entries, 0, DAY, slices=288)
    assert len(points) <= 2 + 288
    assert points[0] == [0, 1000] and points[-1] == [DAY, entries[-1]["value_units"] // 10_000]
    # each point is the meter as it was at that instant: the last entry at or before it
    stamps = [e["ts"] for e in entries]
    for ms, cents in points[1:-1]:
        last = max(i for i, ts in enumerate(stamps) if ts <= ms)
        assert cents == entries[last]["value_units"] // 10_000


def test_a_hit_and_its_reset_are_drawn_where_they_happened() -> None:
    entries = contributions(10, 1000)
    entries += [
        {"type": "hit", "ts": 9_500, "value_units": 0},
        {"type": "reset", "ts": 9_500, "value_units": 5_000_000},
    ]
    entries += contributions(5, 1000, start=10_000, value=5_000_000)
    points = meter_series(10_000_000, entries, 0, 20_000, slices=4)
    assert [9_500, 1025] in points and [9_500, 0] in points and [9_500, 500] in points
    at = [p for p in points if p[0] == 9_500]
    assert [p[1] for p in at] == [1025, 0, 500], "before, after the hit, after the top-up"


def test_a_quiet_meter_is_two_points() -> None:
    assert meter_series(12_345_678, [], 0, DAY) == [[0, 1234], [DAY, 1234]]


def test_corrections_name_people_and_the_money_moved() -> None:
    people = {"operator:a": "Dana Reyes", "operator:b": "Sam Ortiz"}
    [adjustment] = pool_corrections(
        "main",
        [
            {
                "type": "adjustment",
                "ts": 5,
                "who": "operator:a",
                "amount_units": -12_345_678,
                "target": "visible",
                "reason": "board repair",
            },  # fmt: skip
            {"type": "contribution", "ts": 6, "value_units": 1},
        ],  # fmt: skip
        people,
    )
    assert (adjustment["amount_cents"], adjustment["amount_subcent_units"]) == (-1235, 4322)
    assert adjustment["person"] == "Dana Reyes" and adjustment["reason"] == "board repair"
    [void] = void_corrections(
        [
            {
                "ts": 7,
                "table": "T1",
                "round": "r9",
                "whole": "0",
                "spots": "2,3",
                "wagered": 1000,
                "fixed": 500,
                "envy": 0,
                "jackpot": 0,
                "who": "operator:b",
                "requested_by": "operator:a",
                "reason": "card not dealt",
            }
        ],  # fmt: skip
        people,
    )
    assert (void["target"], void["wagered_cents"], void["pays_cents"]) == ("spots 2,3", 1000, 500)
    assert (void["person"], void["approver"]) == ("Dana Reyes", "Sam Ortiz")
