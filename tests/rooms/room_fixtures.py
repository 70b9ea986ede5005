"""Fixtures: a real rooms server on loopback with a fresh data folder (tests/rooms/conftest.py
hands them to pytest; a module of its own name so that one mypy run checks every folder)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from rooms_harness import ErrorLog, ServerThread

from app.rooms.store import RoomStore
from app.settings import Settings


def make_settings(data_dir: Path, **changes: object) -> Settings:
    """Test settings: bots act at once, generous rate limits, no limit on rooms created
    nor on replays a minute (the leak test asks after every step), long timers unless
    set, and the host role passes at once (no reload grace) unless set."""
    base = Settings(data_dir=data_dir, bot_delay=0.0, idle_seconds=600, rate=200, burst=400,
                    next_deal_pause=60, grace_seconds=30, host_grace=0.0, rooms_per_minute=0,
                    replays_per_minute=0)
    return base.with_overrides(**changes)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(make_settings(tmp_path / "data")) as srv:
        yield srv


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., ServerThread]]:
    """``make_server(store=None, plain_protocol=False, **settings)``: a server with these
    settings (``plain_protocol``: uvicorn's own WebSocket protocol, not app/runtime's), on the
    test's data folder (a second one restarts on the same data), stopped after the test."""
    with ExitStack() as stack:
        def make(store: RoomStore | None = None, plain_protocol: bool = False,
                 **changes: object) -> ServerThread:
            settings = make_settings(tmp_path / "data", **changes)
            return stack.enter_context(ServerThread(settings, store, plain_protocol))

        yield make


@pytest.fixture
def errors_logged() -> Iterator[ErrorLog]:
    """What the server logs at ERROR or above during the test (``ErrorLog.check``)."""
    with ErrorLog() as handler:
        yield handler
