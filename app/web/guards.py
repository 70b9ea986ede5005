"""The per-client limits of one app, made once from the settings (``app.state.guards``):
who a client is, rooms created per minute, WebSockets per address and per seat, replays
asked per minute and open at once per address."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.types import Scope

from app.settings import Settings

from .addresses import TrustedProxies, address_key, client_address
from .limits import OpenCounter, WindowLimit


@dataclass(frozen=True)
class Guards:
    trusted: TrustedProxies
    room_creation: WindowLimit     # keys: address_key(address)
    ws_per_address: OpenCounter    # keys: address_key(address)
    ws_per_seat: OpenCounter       # keys: (room code, seat)
    replays: WindowLimit           # keys: address_key(address)
    replays_open: OpenCounter      # keys: address_key(address)

    @classmethod
    def from_settings(cls, settings: Settings) -> Guards:
        return cls(TrustedProxies(settings.trusted_proxies),
                   WindowLimit(settings.rooms_per_minute, 60.0),
                   OpenCounter(settings.ws_per_address), OpenCounter(settings.ws_per_seat),
                   WindowLimit(settings.replays_per_minute, 60.0),
                   OpenCounter(settings.replays_at_once))

    def address(self, scope: Scope) -> str:
        """The client's address for an ASGI scope (``request.scope``, ``websocket.scope``)."""
        return client_address(scope, self.trusted)

    @staticmethod
    def key(address: str) -> str:
        """What the per-address limits count by."""
        return address_key(address)
