"""app/runtime's protocol classes subclass uvicorn's (and drive websockets' connection):
this fails, saying what to do, when the locked releases change under them, or when a
name they rely on is gone or takes other arguments.  Only public names are relied on."""

from __future__ import annotations

import asyncio
import inspect
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from app.runtime import CHECKED_AGAINST
from app.runtime.http import GuardedProtocol
from app.runtime.websocket import LeanWebSocketProtocol
from app.shutdown import DrainingServer

LOCK = Path(__file__).resolve().parents[1] / "requirements" / "serve.txt"
READ_AGAIN = ("app/runtime/http.py and app/runtime/websocket.py were read against "
              "{checked}; read them again against the new release's "
              "uvicorn/protocols/http/httptools_impl.py and "
              "uvicorn/protocols/websockets/websockets_sansio_impl.py (and websockets' "
              "protocol.py), then set app.runtime.CHECKED_AGAINST")

# What the subclasses call or override, with the parameters they pass.
HTTP_METHODS = {"connection_made": ["transport"], "connection_lost": ["exc"],
                "data_received": ["data"], "on_response_complete": [],
                "handle_websocket_upgrade": []}
HTTP_ATTRIBUTES = {"client", "cycle", "transport", "loop"}
WS_METHODS = {"handle_connect": ["event"], "start_keepalive": [], "send": ["message"]}
WS_ATTRIBUTES = {"handshake_complete", "close_sent", "disconnected", "initial_response",
                 "writable", "conn", "transport"}
CONN_METHODS = {"send_text": ["data", "fin"], "data_to_send": []}
CONN_ATTRIBUTES = {"state", "expect_continuation_frame", "writes", "extensions"}
# What the subclasses add of their own: none of it may be a name of uvicorn's class.
HTTP_OWN = {"deadline", "open_sockets", "trusted", "guard_key", "deadline_timer",
            "arm_deadline", "disarm_deadline", "release_address", "too_slow"}
WS_OWN = {"send_text_now"}


def locked(package: str) -> str:
    found = re.search(rf"^{package}==([^\s;]+)", LOCK.read_text(), re.MULTILINE)
    assert found, f"{package} is not pinned in {LOCK.name}"
    return found.group(1)


def test_the_locked_uvicorn_and_websockets_are_those_app_runtime_was_read_against() -> None:
    for package, checked in CHECKED_AGAINST.items():
        message = (f"{package} is locked at {locked(package)} and installed at "
                   f"{version(package)}, not {checked}: " + READ_AGAIN.format(
                       checked=CHECKED_AGAINST))
        assert locked(package) == checked, message
        assert version(package) == checked, message


def parameters(function: Any) -> list[str]:
    return [name for name in inspect.signature(function).parameters if name != "self"]


def check_methods(cls: type, wanted: dict[str, list[str]]) -> list[str]:
    problems = []
    for name, params in wanted.items():
        method = getattr(cls, name, None)
        if not callable(method):
            problems.append(f"{cls.__name__}.{name} is gone")
        elif parameters(method)[:len(params)] != params:
            problems.append(f"{cls.__name__}.{name}{tuple(parameters(method))}, "
                            f"expected to start with {tuple(params)}")
    return problems


async def made_protocols() -> tuple[Any, Any]:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        pass

    config = uvicorn.Config(app, lifespan="off", log_level="warning")
    config.load()
    state = ServerState()
    return HttpToolsProtocol(config, state, {}), WebSocketsSansIOProtocol(config, state, {})


def test_what_the_subclasses_rely_on_is_there_with_the_expected_parameters() -> None:
    http, ws = asyncio.run(made_protocols())
    problems = check_methods(HttpToolsProtocol, HTTP_METHODS)
    problems += check_methods(WebSocketsSansIOProtocol, WS_METHODS)
    problems += check_methods(type(ws.conn), CONN_METHODS)
    problems += [f"HttpToolsProtocol().{name} is gone" for name in sorted(HTTP_ATTRIBUTES)
                 if not hasattr(http, name)]
    problems += [f"WebSocketsSansIOProtocol().{name} is gone"
                 for name in sorted(WS_ATTRIBUTES) if not hasattr(ws, name)]
    problems += [f"websockets' ServerProtocol().{name} is gone"
                 for name in sorted(CONN_ATTRIBUTES) if not hasattr(ws.conn, name)]
    # the handshake that LeanWebSocketProtocol lets go of is kept in these two
    source = inspect.getsource(WebSocketsSansIOProtocol.handle_connect)
    problems += [f"handle_connect no longer keeps self.{name}"
                 for name in ("request", "response") if f"self.{name} =" not in source]
    # lean_protocol finds the protocol as the owner of the ASGI send it hands the app
    if "self.send)" not in inspect.getsource(WebSocketsSansIOProtocol.run_asgi):
        problems.append("run_asgi no longer hands the app the protocol's own send")
    # the cycle whose end re-arms the deadline
    cycle = inspect.getsource(RequestResponseCycle.__init__)
    problems += [f"the request cycle no longer keeps self.{name}"
                 for name in ("more_body", "response_complete") if f"self.{name} =" not in cycle]
    assert not problems, "; ".join(problems) + ". " + READ_AGAIN.format(
        checked=CHECKED_AGAINST)


def test_the_draining_server_overrides_a_shutdown_uvicorn_awaits() -> None:
    """app/shutdown.py's ``DrainingServer`` hands the rooms over in ``shutdown``, which
    uvicorn's server awaits after its main loop ends (on SIGTERM), before it stops
    listening; and its own name ``drain`` is not uvicorn's."""
    problems = check_methods(uvicorn.Server, {"shutdown": ["sockets"]})
    if not inspect.iscoroutinefunction(uvicorn.Server.shutdown):
        problems.append("uvicorn.Server.shutdown is no coroutine function")
    serve = inspect.getsource(uvicorn.Server._serve)
    if "await self.shutdown(sockets=sockets)" not in serve:
        problems.append("uvicorn.Server no longer awaits self.shutdown(sockets=...)")
    shutdown = inspect.getsource(uvicorn.Server.shutdown)
    if shutdown.index("server.close()") > shutdown.index("connection.shutdown()"):
        problems.append("uvicorn.Server.shutdown closes connections before it stops "
                        "listening")
    if hasattr(uvicorn.Server, "drain"):
        problems.append("uvicorn.Server now has drain: rename DrainingServer's")
    assert set(vars(DrainingServer)) - {"__annotations__", "__qualname__", "__doc__",
                                        "__module__", "__init__"} == {"shutdown"}
    assert not problems, "; ".join(problems) + ". " + READ_AGAIN.format(
        checked=CHECKED_AGAINST)


def test_the_subclasses_own_names_are_not_uvicorn_s() -> None:
    """A name of our own that uvicorn's class also has (now or after an upgrade) would
    silently replace its own: each must be new to the base class and its instances."""
    http, ws = asyncio.run(made_protocols())
    assert HTTP_OWN | set(HTTP_METHODS) | {"__init__", "__doc__", "__module__"} >= set(
        vars(GuardedProtocol)) - {"__annotations__", "__qualname__"}
    assert WS_OWN | set(WS_METHODS) | {"__doc__", "__module__"} >= set(
        vars(LeanWebSocketProtocol)) - {"__annotations__", "__qualname__"}
    clashes = [f"HttpToolsProtocol.{name}" for name in sorted(HTTP_OWN)
               if hasattr(HttpToolsProtocol, name) or hasattr(http, name)]
    clashes += [f"WebSocketsSansIOProtocol.{name}" for name in sorted(WS_OWN)
                if hasattr(WebSocketsSansIOProtocol, name) or hasattr(ws, name)]
    assert not clashes, f"uvicorn now has {', '.join(clashes)}: rename ours"


# Names with a leading underscore that are public by their library's documentation:
# a named tuple's methods (the underscore keeps them apart from field names), ctypes'.
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_field_defaults",
                      "_fields_"}


def test_no_private_name_of_a_library_is_used_in_app() -> None:
    """``obj._name`` where ``obj`` is not ``self`` and ``_name`` is not defined in app/
    itself: a private name of a library or of the interpreter (``sys._...``,
    ``asyncio``'s, uvicorn's)."""
    app = Path(__file__).resolve().parents[1] / "app"
    sources = {path: path.read_text() for path in app.rglob("*.py")}
    own = set(PUBLIC_UNDERSCORED)
    for text in sources.values():
        own |= set(re.findall(r"(?:def|class)\s+(_\w+)", text))
        own |= set(re.findall(r"^\s*(_\w+)\s*[:=]", text, re.MULTILINE))
        own |= set(re.findall(r"self\.(_\w+)\s*[:=]", text))
        own |= set(re.findall(r'"(_\w+)"', text))  # __slots__
    found = []
    for path, text in sources.items():
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            for owner, name in re.findall(r"(?<![\w.])(\w+)\.(_[a-zA-Z]\w*)", code):
                if owner != "self" and name not in own and not name.endswith("__"):
                    found.append(f"{path.relative_to(app.parent)}:{number}: {owner}.{name}")
    assert not found, "private names of libraries or the interpreter: " + ", ".join(found)
