"""What an open WebSocket keeps alive on the server: uvicorn with the protocols of
``amerikaner serve`` (app/runtime/http.py, app/runtime/websocket.py), a real client.

Memory per idle socket is what ``benchmarks/load.py`` measures; these tests pin the
reasons it is low, so that a change upstream or here that brings them back fails."""

from __future__ import annotations

import asyncio
import gc
import socket
from collections.abc import Callable
from typing import Any

import uvicorn

from app.runtime.http import GuardedProtocol, guarded_protocol
from app.runtime.websocket import LeanWebSocketProtocol, lean_protocol
from app.web.addresses import TrustedProxies, address_key

BIG = "y" * 2000  # a header worth noticing
HANDSHAKE = (b"GET /ws/ABCD HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\nX-Big: %s\r\n\r\n")
EMPTY_TEXT = b"\x81\x80\x00\x00\x00\x00"  # a client's empty text frame (masked, key 0)
PATIENCE = 30.0  # seconds to wait for what the server does by itself


async def until(done: Callable[[], bool], timeout: float = PATIENCE) -> None:
    """Let the server run until ``done()``, or at most ``timeout`` seconds (the caller
    then checks what it expected, and fails)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not done() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)


async def _serve_one_socket() -> dict[str, Any]:
    seen: dict[str, Any] = {}
    accepted = asyncio.Event()
    heard = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        seen["scope"] = scope
        protocol = lean_protocol(send)
        seen["direct"] = protocol.send_text_now if protocol else None
        accepted.set()
        while (await receive())["type"] != "websocket.disconnect":
            heard.set()

    http = guarded_protocol(10.0, 4, TrustedProxies(()))
    config = uvicorn.Config(app, ws=LeanWebSocketProtocol, http=http, lifespan="off",
                            log_level="warning")
    server = uvicorn.Server(config)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        await until(lambda: server.started)
        # a handshake by hand: a client library in this process would hold the header too
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(HANDSHAKE % (port, BIG.encode()))
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
        await asyncio.wait_for(accepted.wait(), PATIENCE)
        # a message the app reads: what the server had to do before (the handshake, the
        # upgrade, the accept) is done
        writer.write(EMPTY_TEXT)
        await asyncio.wait_for(heard.wait(), PATIENCE)
        gc.collect()
        protocols = [c for c in server.server_state.connections
                     if isinstance(c, LeanWebSocketProtocol)]
        seen["protocols"] = protocols
        seen["request"] = protocols[0].request
        seen["response"] = protocols[0].response
        seen["http_alive"] = sum(isinstance(o, GuardedProtocol) for o in gc.get_objects())
        seen["open_while"] = http.open_sockets.count(address_key("127.0.0.1"))
        # websockets' Headers keep a value in a list per name
        seen["handshake_header_lists"] = sum(
            1 for o in gc.get_objects()
            if type(o) is list and any(type(x) is str and x == BIG for x in o))
        # a frame written straight to the socket, unless the peer reads too slowly
        protocol, direct = protocols[0], seen["direct"]
        protocol.pause_writing()
        seen["sent_while_paused"] = direct(b'"held"')
        protocol.resume_writing()
        seen["sent"] = direct(b'"now"')
        seen["frame"] = await asyncio.wait_for(reader.readexactly(7), PATIENCE)
        writer.close()
        await until(lambda: not server.server_state.connections
                    and http.open_sockets.count(address_key("127.0.0.1")) == 0)
        seen["open_after"] = http.open_sockets.count(address_key("127.0.0.1"))
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 10)
    return seen


def test_an_open_websocket_keeps_neither_its_handshake_nor_its_http_protocol() -> None:
    seen = asyncio.run(_serve_one_socket())
    assert len(seen["protocols"]) == 1
    assert seen["request"] is None and seen["response"] is None
    assert seen["http_alive"] == 0  # the upgraded HTTP protocol (parser, headers) is gone
    # the header lives on in the ASGI scope the app reads, not also in the handshake's
    assert (b"x-big", BIG.encode()) in seen["scope"]["headers"]
    assert seen["handshake_header_lists"] == 0


def test_the_per_address_socket_count_holds_while_open_and_is_released_on_close() -> None:
    seen = asyncio.run(_serve_one_socket())
    assert seen["open_while"] == 1
    assert seen["open_after"] == 0


def test_frames_go_straight_to_the_socket_unless_the_peer_reads_too_slowly() -> None:
    seen = asyncio.run(_serve_one_socket())
    assert seen["direct"] is not None
    assert seen["sent_while_paused"] is False  # the caller falls back to the ASGI send
    assert seen["sent"] is True
    assert seen["frame"] == b"\x81\x05\"now\""  # one unmasked text frame, nothing before it


def test_no_direct_path_for_a_send_that_is_not_our_protocols() -> None:
    async def send(message: Any) -> None:
        pass

    assert lean_protocol(send) is None


def test_a_frame_written_straight_is_what_a_websocket_client_reads() -> None:
    """The direct path builds the frame header itself: every length class of RFC 6455
    (7-bit, 16-bit, 64-bit) is read back by websockets' own client parser."""
    from websockets.client import ClientProtocol
    from websockets.frames import Frame, Opcode
    from websockets.protocol import State
    from websockets.uri import parse_uri

    from app.runtime.websocket import _text_header

    for length in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        data = ("é" * (length // 2) + "x" * (length % 2)).encode()
        assert len(data) == length
        client = ClientProtocol(parse_uri("ws://127.0.0.1/ws/x"), state=State.OPEN,
                                max_size=None)
        client.receive_data(_text_header(length) + data)
        [frame] = client.events_received()
        assert isinstance(frame, Frame)
        assert frame.opcode is Opcode.TEXT and frame.fin and bytes(frame.data) == data


async def _closed_socket_survivors() -> dict[str, Any]:
    """Open and close one WebSocket with the collector off: is its protocol freed by
    reference counting alone (no cycle left to a full collection)?"""
    import weakref

    protocols: list[weakref.ref[LeanWebSocketProtocol]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        protocol = lean_protocol(send)
        assert protocol is not None
        protocols.append(weakref.ref(protocol))
        while (await receive())["type"] != "websocket.disconnect":
            pass

    http = guarded_protocol(10.0, 4, TrustedProxies(()))
    config = uvicorn.Config(app, ws=LeanWebSocketProtocol, http=http, lifespan="off",
                            log_level="warning")
    server = uvicorn.Server(config)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    gc.collect()
    gc.disable()
    try:
        await until(lambda: server.started)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(HANDSHAKE % (port, b"x"))
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
        await until(lambda: bool(protocols))
        writer.close()
        # the server's close tasks end; a protocol in a reference cycle would stay (the
        # collector is off) and be counted once the wait is over
        await until(lambda: not server.server_state.connections
                    and all(r() is None for r in protocols))
        return {"seen": len(protocols), "alive": sum(r() is not None for r in protocols)}
    finally:
        gc.enable()
        server.should_exit = True
        await asyncio.wait_for(serving, 10)


def test_a_closed_websocket_is_freed_without_waiting_for_a_full_collection() -> None:
    """The per-address cap wraps the WebSocket's connection_lost; that wrapper held the
    protocol and the protocol the wrapper, a cycle: on a busy server, where full
    collections are rare, every closed socket stayed in memory (benchmarks/soak.py)."""
    out = asyncio.run(_closed_socket_survivors())
    assert out == {"seen": 1, "alive": 0}
