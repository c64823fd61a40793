"""The sign channel: each screen gets the newest state and meters, in the order they were
made, and nothing piles up for a screen that falls behind."""

from __future__ import annotations

from jackpot.api.signfeed import Channel, Screen, chunk, frame


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


def test_the_feed_writes_to_a_screen_at_once_or_leaves_it_to_catch_up() -> None:
    """A real socket pair (gevent's, as the sign process has): a screen that reads gets each
    event; one whose socket is full falls behind, keeps what part was not taken, and is left
    alone by the feed until its greenlet has caught it up."""
    from gevent import socket as gsocket

    server, client = gsocket.socketpair()
    server.setsockopt(gsocket.SOL_SOCKET, gsocket.SO_SNDBUF, 4096)
    try:
        channel = Channel()
        screen = Screen(server, seen=0, behind=False)
        channel.direct.add(screen)
        channel.publish("meters", '{"v": 1}')
        assert screen.seen == 1 and not screen.behind
        assert client.recv(4096) == chunk(frame("meters", '{"v": 1}'))
        big = "x" * 1000
        for _ in range(1000):  # nobody reads: the socket fills
            channel.publish("meters", f'{{"v": "{big}"}}')
            if screen.behind:
                break
        assert screen.behind and screen.wake.is_set()
        skipped = channel.seq
        channel.publish("meters", '{"v": "after"}')
        assert screen.seen < channel.seq and skipped != channel.seq  # left alone while behind
        assert channel.since(screen.seen).endswith(frame("meters", '{"v": "after"}'))
        client.close()
        screen.behind = False
        channel.publish("ping", '{"up": true}')
        assert screen.gone and screen.behind  # the screen went away: its greenlet ends it
    finally:
        server.close()
