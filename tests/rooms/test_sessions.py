"""A connection's messages on their way to the room (app/rooms/server/connection.py): read
by the connection's task one at a time, in order, even when a handling has to wait; a
flood closes the connection, whatever WebSocket protocol the server runs."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from rooms_harness import Client, ServerThread, create_room
from shared_helpers import HANG_GUARD
from starlette.websockets import WebSocketState
from websockets.exceptions import ConnectionClosed

from app.rooms.core.effects import Save
from app.rooms.core.wire_enums import CloseCode
from app.rooms.server.connection import Connection
from app.rooms.store.sqlite import SqliteStore
from app.settings import Settings


class WaitingSqlite(SqliteStore):
    """SQLite whose appends suspend, as a database server's do: the messages that come
    meanwhile wait for their turn, in order."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir)
        self.waits = 0

    async def append(self, code: str, save: Save) -> None:
        self.waits += 1
        await asyncio.sleep(0.01)
        await super().append(code, save)


def chat_lines(c: Client, count: int) -> list[str]:
    """The room's chat texts once ``count`` lines are there."""
    view = c.wait_state(lambda v: len(v["room"]["chat"]) >= count, timeout=HANG_GUARD)
    return [line["text"] for line in view["room"]["chat"]]


def test_messages_reach_the_room_in_order_when_handlings_wait(
        make_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    store = WaitingSqlite(tmp_path / "data")
    srv = make_server(store=store)
    room = create_room(srv.base)
    ann = Client(srv.base, room["room"], token=room["token"])
    ann.wait_state(lambda v: True)
    first = ann.frames[-1]
    texts = [f"line {i}" for i in range(25)]
    binary = {i for i in range(len(texts)) if i % 5 == 2}  # refused, in their turn
    for i, text in enumerate(texts):
        message = json.dumps({"type": "chat", "text": text})
        ann.send_raw(message.encode() if i in binary else message)
    said = [t for i, t in enumerate(texts) if i not in binary]
    assert chat_lines(ann, len(said)) == said
    assert store.waits >= len(said)
    ann.send({"type": "ping"})  # the connection still answers, nothing queued is left
    assert ann.wait_for(lambda m: m["type"] == "pong")["type"] == "pong"
    # each refusal came in its turn: after the state of the line before it
    heard = [f["view"]["room"]["chat"][-1]["text"] if f["type"] == "state" else f["code"]
             for f in ann.frames[ann.frames.index(first) + 1:]
             if f["type"] == "error" or (f["type"] == "state" and f["view"]["room"]["chat"])]
    expected = ["bad_message" if i in binary else t for i, t in enumerate(texts)]
    assert heard == expected


def test_a_flood_closes_the_connection_on_uvicorn_s_own_protocol_too(
        make_server: Callable[..., ServerThread]) -> None:
    """Without app/runtime's protocol every frame goes through the ASGI send (the drain):
    the pong answers, the error and the close still come, in order."""
    # a window of a minute: however slow the machine, the flood's messages all come in it
    srv = make_server(plain_protocol=True, rate=5, burst=5, flood_window=60.0)
    room = create_room(srv.base)
    ann = Client(srv.base, room["room"], token=room["token"])
    ann.wait_state(lambda v: True)
    for _ in range(1000):  # the guard allows 2 * 5 * 60 + 5 = 605 in the window
        try:
            ann.send({"type": "ping"})
        except ConnectionClosed:
            break
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ann.recv(30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.FLOOD
    # the room is fine and takes the person back
    again = Client(srv.base, room["room"], token=room["token"])
    assert again.wait_state(lambda v: True)["room"]["code"] == room["room"]


def test_a_flood_behind_a_waiting_send_closes_as_a_flood_and_is_told_once(
        caplog: pytest.LogCaptureFixture) -> None:
    """Once the flood's close waits in the backlog, the messages still coming are not
    handled: none queues a frame (which would overflow the backlog and close the connection
    as too slow instead) and none is logged again."""

    class WaitingSocket:
        application_state = client_state = WebSocketState.CONNECTED

        def __init__(self) -> None:
            self.sent: list[str] = []
            self.reading = asyncio.Event()  # the client reads: sends finish
            self.closed_with: int | None = None
            self.closing = asyncio.Event()

        async def send_text(self, text: str) -> None:
            await self.reading.wait()
            self.sent.append(text)

        async def close(self, code: int = 1000) -> None:
            self.closed_with = code
            self.closing.set()

    class Room:
        code = "room"
        closed = False

    async def scenario() -> tuple[WaitingSocket, int]:
        ws = WaitingSocket()
        settings = Settings(send_queue=4, send_timeout=600, rate=0.001, burst=2,
                            flood_window=10_000.0)
        conn = Connection(ws, settings)  # type: ignore[arg-type]
        conn.runner = Room()  # type: ignore[assignment]
        limit = conn.flood.limit
        for _ in range(limit + 50):  # far past the flood, while the first pong waits
            await conn.handle('{"type": "ping"}')
        ws.reading.set()
        await asyncio.wait_for(ws.closing.wait(), 30)
        await conn.stop()
        return ws, limit

    with caplog.at_level(logging.WARNING, logger="amerikaner.audit"):
        ws, limit = asyncio.run(scenario())
    assert ws.closed_with == CloseCode.FLOOD
    assert [json.loads(t)["type"] for t in ws.sent] == ["pong", "pong", "error"]
    assert limit > 4 and len([r for r in caplog.records if "kind=flood" in r.getMessage()]) == 1
