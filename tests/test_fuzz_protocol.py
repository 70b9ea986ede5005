"""Protocol fuzzing against the live app (issue 9): a Hypothesis state machine drives a
room of four seated players and two spectators, each a real WebSocket client of a real
``amerikaner serve`` process on loopback, with sequences of valid, invalid, out-of-turn,
stale, oversized, deeply nested, binary and rapid-reconnect messages, and HTTP calls
beside them.

After every step: no traceback (nor any ERROR line) in the server's log, no 5xx, every
frame validates against the protocol's models (``rooms_harness.Client`` checks each one,
extra keys forbidden), and a refused message changed nothing: the room's ``version`` and
``game`` (``GET /api/rooms/{code}``) stay, and no state frame follows the refusal.  At the
end of every run the table still plays its match to the end with legal moves.

Bounded: few examples of few steps, derandomized, no example database.  Nothing waits on
the machine's speed: the room has no clock the steps could reach, so it moves only when a
client does, and a socket the test closed is waited for through the room version its
close brings; what the server logs late is read once it has stopped.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from fuzz_inputs import RULES
from fuzz_machine import ProtocolFuzz
from fuzz_server import LiveServer
from rooms_harness import OPEN_CLIENTS, Client, create_room
from serve_process import ServeProcess


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose rooms stay still between messages: bots act at once (there are none
    at the table under test), no per-client room limits, generous message rates, the host
    role passes at once (no host-grace timer), long deal pauses and grace."""
    env = {"AMERIKANER_RATE": "500", "AMERIKANER_BURST": "1000",
           "AMERIKANER_NEXT_DEAL_PAUSE": "60", "AMERIKANER_GRACE_SECONDS": "60",
           "AMERIKANER_HOST_GRACE": "0", "AMERIKANER_ROOMS_HELD": "0",
           "AMERIKANER_LOG_LEVEL": "warning"}
    process = ServeProcess(tmp_path_factory.mktemp("fuzz") / "data", env)
    process.start()
    try:
        yield LiveServer(process)
    finally:
        process.stop()


def test_protocol_fuzz(live: LiveServer) -> None:
    live.check()
    ProtocolFuzz.server = live
    ProtocolFuzz.rooms.clear()
    run_state_machine_as_test(
        ProtocolFuzz, settings=settings(
            max_examples=6, stateful_step_count=30, deadline=None, derandomize=True,
            database=None, suppress_health_check=list(HealthCheck),
            # no shrinking: each step costs real sockets, and a failing run of at most 30
            # steps reads well as it is (shrinking one took over five minutes)
            phases=[Phase.explicit, Phase.generate]))
    # a late line of the last run: every room has taken the close of every socket, and
    # the whole log is read once the server can write no more
    for code in ProtocolFuzz.rooms:
        live.wait_gone(code)
    live.check_to_the_end()


def test_a_text_frame_that_is_not_utf8_is_closed_without_a_traceback(
        live: LiveServer) -> None:
    server = live
    server.check()
    room = create_room(server.base, rules=RULES)
    c = Client(server.base, room["room"], hello=False)
    try:
        c.ws.send(b'{"type": "hello", "spectate": true, "x": "\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            c.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        server.check_to_the_end()  # what the server logged of that socket, late lines too
    finally:
        server.seen = len(server.process.output())  # the fuzz checks its own steps only
        c.close()
        OPEN_CLIENTS.remove(c)
