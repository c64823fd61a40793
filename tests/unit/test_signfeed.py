"""The sign channel: each screen gets the newest state and meters, in the order they were
made, and nothing piles up for a screen that falls behind."""

from __future__ import annotations

from jackpot.api.signfeed import Channel, frame


def test_a_new_screen_gets_the_state_then_the_newest_meters() -> None:
    channel = Channel()
    channel.publish("state", '{"v": 1}')
    for v in range(2, 50):
        channel.publish("meters", f'{{"v": {v}}}')
    assert channel.since(0) == frame("state", '{"v": 1}') + frame("meters", '{"v": 49}')


def test_a_screen_gets_only_what_it_has_not_been_sent() -> None:
    channel = Channel()
    channel.publish("state", "{}")
    channel.publish("meters", '{"v": 1}')
    seen = channel.seq
    assert channel.since(seen) == b""
    channel.publish("meters", '{"v": 2}')
    assert channel.since(seen) == frame("meters", '{"v": 2}')


def test_events_keep_the_order_they_were_made_in() -> None:
    channel = Channel()
    channel.publish("meters", '{"v": 1}')
    channel.publish("state", '{"v": 2}')  # carries newer values than the meters before it
    assert channel.since(0) == frame("meters", '{"v": 1}') + frame("state", '{"v": 2}')


def test_a_publication_wakes_the_screens_waiting_and_arms_a_new_wake() -> None:
    channel = Channel()
    waiting = channel.changed
    channel.publish("ping", '{"up": true}')
    assert waiting.is_set()
    assert not channel.changed.is_set()
