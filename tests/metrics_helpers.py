"""Helpers for the ``/metrics`` tests (tests/test_metrics_*.py): settings for a quiet
in-process server, the servers a test starts (stopped after it), and one series' value in
this process's registry.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prometheus_client import REGISTRY

from app.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from rooms_harness import OPEN_CLIENTS, ServerThread

ROOT = Path(__file__).resolve().parent.parent
PATIENCE = 60.0  # seconds to wait for what happens by itself


def settings(data_dir: Path, **changes: Any) -> Settings:
    return Settings(data_dir=data_dir, bot_delay=0.0, rate=200, burst=400,
                    rooms_per_minute=0).with_overrides(**changes)


@contextlib.contextmanager
def servers_of_a_test() -> Iterator[list[ServerThread]]:
    """A list for the servers a test starts (``ServerThread``, each test file's ``served``
    fixture), stopped with the clients left open when the block ends."""
    started: list[ServerThread] = []
    yield started
    while OPEN_CLIENTS:
        OPEN_CLIENTS.pop().close()
    for server in started:
        server.__exit__()


def serve(served: list[ServerThread], data_dir: Path, **changes: Any) -> ServerThread:
    server = ServerThread(settings(data_dir, **changes)).__enter__()
    served.append(server)
    return server


def sample(name: str, **labels: str) -> float:
    """This process's value of one series (0 if it has none yet)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0
