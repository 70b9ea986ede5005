"""Who a client is: its address, for the per-client limits.

The peer of the TCP connection is the client, unless the peer is one of the configured
trusted proxies (``AMERIKANER_TRUSTED_PROXIES``: addresses or networks such as
``10.0.0.0/8``); then ``X-Forwarded-For`` is read from the right, skipping trusted
proxies, and the first other address is the client.  Nobody else's ``X-Forwarded-For`` is
believed, so a stranger cannot pose as many clients.  Limits count by ``address_key``: an
IPv6 client is its /64 network (one subscriber usually holds a whole /64).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import Scope

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
UNKNOWN = "unknown"


def parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address in ``text`` (IPv4-mapped IPv6 as IPv4), or ``None``."""
    try:
        ip = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


class TrustedProxies:
    """The configured proxies: ``in`` says whether an address is one of them."""

    __slots__ = ("networks",)

    def __init__(self, entries: Iterable[str]) -> None:
        self.networks: tuple[Network, ...] = tuple(
            ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())

    def __contains__(self, address: str) -> bool:
        ip = parse_ip(address)
        return ip is not None and any(ip in n for n in self.networks)

    def __bool__(self) -> bool:
        return bool(self.networks)


def resolve(peer: str | None, forwarded_for: str | None, trusted: TrustedProxies) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy (see the module)."""
    if peer is None:
        return UNKNOWN
    if not trusted or forwarded_for is None or peer not in trusted:
        return peer
    client = peer
    for hop in reversed(forwarded_for.split(",")):
        ip = parse_ip(hop)
        if ip is None:
            return client  # a malformed hop: the last address we could vouch for
        client = str(ip)
        if client not in trusted:
            return client
    return client


def client_address(scope: Scope, trusted: TrustedProxies) -> str:
    """The client's address for an ASGI ``http`` or ``websocket`` scope."""
    peer = scope.get("client")
    forwarded: str | None = None
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":  # several headers: one list, in order
            text = value.decode("latin-1")
            forwarded = text if forwarded is None else f"{forwarded},{text}"
    return resolve(peer[0] if peer else None, forwarded, trusted)


def address_key(address: str) -> str:
    """What the per-client limits count by: the address, or an IPv6 address's /64."""
    ip = parse_ip(address)
    if ip is None:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
