"""What the search-attack test's clients share (tests/rooms/test_search_attack.py): the
attacker's and the victim's addresses, the test's bounds (rooms, moves, the share kept,
the wait for any one event), the victim's bot level, and HTTP and WebSocket connections
from a given address.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from rooms_harness import WS_MAX
from websockets.sync.client import ClientConnection, connect

ATTACKER = "127.0.0.1"
VICTIM = "127.0.0.2"   # another client: loopback answers all of 127/8
ROOMS = 4              # the attacker's rooms ...
SEATS = 4              # ... of this many people each (the standard rules' table)
MOVES = 30             # bot moves the victim's table makes in each measured phase
SHARE = 0.8            # of the searched moves made alone, the least kept under the attack
AFTER_KILL = 3         # bot moves checked after a worker was killed
WAIT = 60.0            # seconds any one awaited event may take (a generous deadline)
BOT_SEATS = {1, 2, 3}
# The victim's bots: a searching level, so each of their moves needs a worker of the pool
# (or is given to the easy bot), which is all the test counts.  ``normal`` rather than
# ``strong``: its searches take a fraction of the CPU, so the phases (and the attack's
# reviews beside them) are shorter; a pool whose reviews took the tables' workers would
# make its moves wait past BOT_WAIT_SECONDS just the same.
LEVEL = "normal"
MOVE_EVENTS = {"bid", "discarded", "card_played"}  # one for each action a seat takes
ACTION_ERRORS = {"not_your_turn", "stale_game", "bad_action", "illegal_bid",
                 "illegal_discard", "illegal_lead", "illegal_play"}


def http_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=WAIT)


def open_ws(base: str, code: str, address: str) -> ClientConnection:
    """A WebSocket to room ``code`` whose connection comes from ``address``."""
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    ws = connect(url, source_address=(address, 0), compression=None, open_timeout=WAIT,
                 max_size=2 * WS_MAX, proxy=None, legacy=True)
    assert isinstance(ws, ClientConnection)
    return ws


def sit(ws: ClientConnection, token: str) -> dict[str, Any]:
    """Say hello with the seat's token; the first state frame."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(WAIT))
        assert msg["type"] in ("welcome", "state"), msg
        if msg["type"] == "state":
            return msg


def health(http: httpx.Client, base: str) -> dict[str, Any]:
    reply = http.get(f"{base}/healthz")
    assert reply.status_code == 200, reply.text
    search: dict[str, Any] = reply.json()["search"]
    return search
