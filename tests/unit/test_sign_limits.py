"""Sign streams: who a stream counts against (the client behind a trusted proxy, never an
address the client wrote itself), and how many one client and one process may hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jackpot.api.signlimits import (
    Places,
    TooManySignsError,
    TooManyStreamsError,
    client_of,
    networks,
)
from jackpot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx" / "templates" / "jackpot.conf.template"
LOOPBACK = networks(Settings().signs_trusted_proxies)
# the template's location of the sign streams, up to its closing brace
STREAM_LOCATION = re.compile(r"location ~ \^/signs/\[\^/\]\+/stream\$ \{(.*?)\n    \}", re.S)


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        pytest.param("10.0.0.7", None, "10.0.0.7", id="a screen straight to the sign process"),
        pytest.param("10.0.0.7", "10.9.9.9", "10.0.0.7", id="an untrusted peer's header"),
        pytest.param("127.0.0.1", None, "127.0.0.1", id="the proxy, saying nothing"),
        pytest.param("127.0.0.1", "10.0.0.7", "10.0.0.7", id="the client behind the proxy"),
        pytest.param("127.0.0.1", "6.6.6.6, 10.0.0.7", "10.0.0.7", id="a spoofed left entry"),
        pytest.param("127.0.0.1", "10.0.0.7, 127.0.0.2", "10.0.0.7", id="two trusted proxies"),
        pytest.param("127.0.0.1", "127.0.0.9", "127.0.0.9", id="every hop trusted"),
        pytest.param("127.0.0.1", "10.0.0.7, junk", "127.0.0.1", id="an entry not an address"),
        pytest.param("127.0.0.1", " 2001:DB8::1 ", "2001:db8::1", id="one form per address"),
        pytest.param("::ffff:10.0.0.7", None, "10.0.0.7", id="IPv4 on a dual-stack socket"),
        pytest.param("::1", "10.0.0.7", "10.0.0.7", id="the proxy over IPv6 loopback"),
        pytest.param("", "10.0.0.7", "", id="a peer with no address (a unix socket)"),
    ],
)
def test_a_stream_counts_against_the_nearest_address_no_trusted_proxy_vouches_for(
    peer: str, forwarded_for: str | None, client: str
) -> None:
    assert client_of(peer, forwarded_for, LOOPBACK) == client


def test_no_proxy_is_trusted_when_told_none() -> None:
    assert client_of("127.0.0.1", "10.0.0.7", networks(())) == "127.0.0.1"


def test_one_client_may_hold_its_share_and_no_more_while_others_still_connect() -> None:
    places = Places(most=10, most_per_client=2)
    places.take("10.0.0.7")
    places.take("10.0.0.7")
    with pytest.raises(TooManyStreamsError) as refused:
        places.take("10.0.0.7")
    assert (refused.value.client, refused.value.most) == ("10.0.0.7", 2)
    places.take("10.0.0.8")
    assert places.held == 3


def test_a_stream_that_ends_gives_its_client_the_place_back_and_leaves_no_trace() -> None:
    places = Places(most=10, most_per_client=1)
    places.take("10.0.0.7")
    places.give_back("10.0.0.7")
    places.take("10.0.0.7")
    places.give_back("10.0.0.7")
    assert places.held == 0 and places.by_client == {}  # a client gone costs no memory


def test_the_process_refuses_every_client_once_full() -> None:
    places = Places(most=2, most_per_client=2)
    places.take("10.0.0.7")
    places.take("10.0.0.8")
    with pytest.raises(TooManySignsError):
        places.take("10.0.0.9")
    assert places.held == 2 and "10.0.0.9" not in places.by_client


def test_the_proxy_refuses_one_address_before_the_sign_process_does() -> None:
    """deploy/nginx's limit on one address's streams stays below the sign process's share
    of one client: screens behind one address meet nginx's 429 first, and the sign process,
    which notices a closed stream only at its next write, keeps room for screens that
    reconnect meanwhile (D243)."""
    stream = STREAM_LOCATION.search(TEMPLATE.read_text())
    assert stream is not None, "the stream location is not in the template"
    limits = [int(n) for n in re.findall(r"^\s*limit_conn \S+ (\d+);", stream[1], re.M)]
    assert len(limits) == 1, limits
    share = Settings().signs_max_per_client
    assert Settings.from_env({}).signs_max_per_client == share
    assert limits[0] < share, (limits[0], share)
