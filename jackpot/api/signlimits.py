"""How many sign streams a sign process holds, and one client's share of them (D243).

A process holds at most JACKPOT_SIGNS_MAX_CONNECTIONS streams (past them: 503
`too_many_signs`), and one client at most JACKPOT_SIGNS_MAX_PER_CLIENT of them (past them:
429 `too_many_streams`), so that no one client can take every place.

A client is an address: the peer's, unless the peer is a trusted proxy
(JACKPOT_SIGNS_TRUSTED_PROXIES; by default the loopback, where the shipped nginx runs beside
the sign process). Each proxy appends the address it was connected from to X-Forwarded-For,
so the header is read from the right, past the trusted proxies: the first address no
trusted proxy is, is the client. What lies further left was written by the client itself
and is never believed, nor is the header of a peer that is not trusted.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

log = logging.getLogger("jackpot.signs")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TooManySignsError(Exception):
    """The process holds as many streams as it may."""


class TooManyStreamsError(Exception):
    """The client holds as many streams as one client may."""

    def __init__(self, client: str, most: int) -> None:
        super().__init__(
            f"the address {client} already holds {most} sign streams, the most one client may"
        )
        self.client = client
        self.most = most


def networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies' networks, from the settings' `a.b.c.d[/n]` and `v6[/n]` texts."""
    return tuple(ipaddress.ip_network(spec, strict=False) for spec in specs)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        found = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped  # an IPv4 peer on a dual-stack socket
    return found


def client_of(peer: str, forwarded_for: str | None, trusted: Sequence[Network]) -> str:
    """The address a stream counts against: `peer`'s, or, behind trusted proxies, the
    nearest one in `forwarded_for` that no trusted proxy has."""
    hop = _address(peer)
    if hop is None:
        return peer  # no address to trust (a unix socket): the peer as the server names it
    client = str(hop)
    for entry in reversed(forwarded_for.split(",") if forwarded_for else []):
        if not any(hop in net for net in trusted):
            return client
        hop = _address(entry)
        if hop is None:  # not written by a proxy: the last one trusted is all we know
            return client
        client = str(hop)
    return client


@dataclass
class Places:
    """The streams a process holds, in all and by client (its caller holds a lock)."""

    most: int  # JACKPOT_SIGNS_MAX_CONNECTIONS
    most_per_client: int  # JACKPOT_SIGNS_MAX_PER_CLIENT
    held: int = 0
    by_client: dict[str, int] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)  # told so since they last had room

    def take(self, client: str) -> None:
        """A place for a stream of `client`'s, or TooManyStreamsError, TooManySignsError."""
        mine = self.by_client.get(client, 0)
        if mine >= self.most_per_client:
            if client not in self.refused:  # once until it has room again, not per request
                self.refused.add(client)
                log.warning(
                    "signs: refusing more streams from %s: it holds %d, the most one client "
                    "may (JACKPOT_SIGNS_MAX_PER_CLIENT; behind a proxy, is the proxy in "
                    "JACKPOT_SIGNS_TRUSTED_PROXIES?)",
                    client,
                    mine,
                )
            raise TooManyStreamsError(client, self.most_per_client)
        if self.held >= self.most:
            raise TooManySignsError
        self.held += 1
        self.by_client[client] = mine + 1

    def give_back(self, client: str) -> None:
        self.held -= 1
        left = self.by_client[client] - 1
        if left:
            self.by_client[client] = left
        else:
            del self.by_client[client]
        self.refused.discard(client)
