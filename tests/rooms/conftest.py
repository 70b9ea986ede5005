"""Fixtures: a real rooms server on loopback with a fresh data folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.settings import Settings

from rooms_harness import ServerThread


def test_settings(data_dir: Path, **changes: object) -> Settings:
    base = Settings(data_dir=data_dir, bot_delay=0.0, idle_seconds=600, rate=200, burst=400,
                    next_deal_pause=60, grace_seconds=30)
    return base.with_overrides(**changes)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(test_settings(tmp_path / "data")) as srv:
        yield srv
