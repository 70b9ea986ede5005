"""Test harness for the rooms server: a real uvicorn server on loopback (in a thread, or
an ``amerikaner serve`` process) and real WebSocket clients that check every frame they
receive against the protocol's models."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from seat_moves import WS_MAX as WS_MAX
from seat_moves import my_turn as my_turn
from seat_moves import pick_action as pick_action
from shared_helpers import HTTP
from websockets.sync.client import ClientConnection, connect

from app.main import create_app
from app.rooms.core.frames import frame_adapter
from app.rooms.store import RoomStore
from app.runtime.websocket import LeanWebSocketProtocol
from app.settings import Settings

OPEN_CLIENTS: list[Client] = []  # closed by the fixtures after each test


class ErrorLog(logging.Handler):
    """Every log record at ERROR or above, from any logger (uvicorn's "Exception in ASGI
    application", the rooms' own): the ``errors_logged`` fixture."""

    LOGGERS = ("", "uvicorn", "uvicorn.error")  # uvicorn's do not pass theirs to the root

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> ErrorLog:
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)

    def check(self) -> None:
        """Nothing was logged at ERROR or above."""
        assert not self.records, "\n".join(
            self.format(r) if r.exc_info else r.getMessage() for r in self.records[:3])


class ServerThread:
    """``create_app(settings, store)`` served by uvicorn in a background thread, with the
    WebSocket protocol of ``amerikaner serve`` (app/runtime/websocket.py: frames written
    straight to the socket), or with uvicorn's own (``plain_protocol``: every frame through
    the ASGI send)."""

    def __init__(self, settings: Settings, store: RoomStore | None = None,
                 plain_protocol: bool = False) -> None:
        self.settings = settings
        self.app = create_app(settings, store=store)
        ws: Any = "websockets-sansio" if plain_protocol else LeanWebSocketProtocol
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning",
                                ws=ws, ws_per_message_deflate=False, ws_max_size=WS_MAX,
                                timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        sock = self.server.servers[0].sockets[0]
        self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        return self

    def __exit__(self, *exc: object) -> None:
        while OPEN_CLIENTS:
            OPEN_CLIENTS.pop().close()
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def registry(self) -> Any:
        return self.app.state.registry


def create_room(base: str, name: str = "Ann", **body: Any) -> dict[str, Any]:
    r = HTTP.post(base + "/api/rooms", json={"name": name, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join_room(base: str, code: str, name: str, **body: Any) -> dict[str, Any]:
    r = HTTP.post(f"{base}/api/rooms/{code}/join", json={"name": name, **body})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


class Client:
    """A WebSocket client of one room; every frame is validated and kept."""

    def __init__(self, base: str, code: str, token: str | None = None, spectate: bool = False,
                 hello: bool = True, origin: str | None = None) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{code}"
        kwargs: dict[str, Any] = {"compression": None, "open_timeout": 30,
                                  "max_size": 2 * WS_MAX, "legacy": True}
        if origin is not None:
            kwargs["origin"] = origin
        self.ws: ClientConnection = connect(url, **kwargs)
        OPEN_CLIENTS.append(self)
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.game = -1
        self.seat: int | None = None
        if hello:
            msg: dict[str, Any] = {"type": "hello"}
            if token is not None:
                msg["token"] = token
            if spectate:
                msg["spectate"] = True
            self.send(msg)
            welcome = self.wait_for(lambda m: m["type"] == "welcome")
            self.seat = welcome["seat"]
            self.wait_for(lambda m: m["type"] == "state")

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        msg: dict[str, Any] = json.loads(raw)
        frame_adapter.validate_python(msg)  # every frame fits the protocol's models
        self.frames.append(msg)
        if msg["type"] == "state":
            assert msg["version"] > self.version or self.version < 0, (msg["version"],
                                                                      self.version)
            self.version = msg["version"]
            self.game = msg["game"]
            self.state = msg["view"]
        return msg

    def wait_for(self, pred: Callable[[dict[str, Any]], bool],
                 timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching frame; last state: {self.state}")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def wait_state(self, pred: Callable[[dict[str, Any]], bool],
                   timeout: float = 60) -> dict[str, Any]:
        if self.state is not None and pred(self.state):
            return self.state
        msg = self.wait_for(lambda m: m["type"] == "state" and pred(m["view"]), timeout)
        view: dict[str, Any] = msg["view"]
        return view

    def error(self, timeout: float = 30) -> dict[str, Any]:
        return self.wait_for(lambda m: m["type"] == "error", timeout)

    def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing comes for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def act(self, action: dict[str, Any], game: int | None = None) -> None:
        self.send({"type": "action", "game": self.game if game is None else game,
                   "action": action})

    def close(self) -> None:
        self.ws.close()


def act_until(client: Client, done: Callable[[dict[str, Any]], bool],
              rng: random.Random, timeout: float = 30) -> dict[str, Any]:
    """Play this seat's turns (saying ready between deals) until ``done(view)``."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.wait_state(lambda v: done(v) or my_turn(v) or v["phase"] == "deal_over",
                                 timeout=max(deadline - time.monotonic(), 0.1))
        if done(view):
            return view
        if view["phase"] == "deal_over":
            client.send({"type": "ready"})
            client.wait_state(lambda v: v["phase"] != "deal_over" or done(v))
            continue
        client.act(pick_action(view, rng))
        client.wait_for(lambda m: m["type"] in ("state", "error"))
