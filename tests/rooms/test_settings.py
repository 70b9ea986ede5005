"""Server settings from the environment."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from app.bots.review import WALL_CAP
from app.rooms.server.fair_queue import Lane
from app.rooms.server.registry import Registry
from app.rooms.server.thinking import (
    HINT_SECONDS,
    REVIEW_SECONDS,
    Thinkers,
    hint_job,
    job_of,
    review_hard_seconds,
    review_job,
)
from app.rooms.store.sqlite import SqliteStore
from app.rules import Match, RuleSet
from app.settings import Settings, SettingsError


def test_environment_variables_set_the_defaults() -> None:
    s = Settings.from_env({"AMERIKANER_PORT": "9000", "AMERIKANER_DATA_DIR": "/srv/a",
                           "AMERIKANER_ORIGINS": "https://a.example, https://b.example/",
                           "AMERIKANER_BOT_DELAY": "0", "AMERIKANER_HOST": ""})
    assert s.port == 9000 and s.data_dir == Path("/srv/a") and s.host == "127.0.0.1"
    assert s.origins == ("https://a.example", "https://b.example")
    assert s.bot_delay == 0.0
    assert s.with_overrides(port=8001, host=None).port == 8001


@pytest.mark.parametrize("name,value", [("AMERIKANER_PORT", "abc"),
                                        ("AMERIKANER_RATE", "fast"),
                                        ("AMERIKANER_GRACE_SECONDS", "-3")])
def test_bad_values_are_refused_with_the_variable_named(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


def pool_call(settings: Settings, monkeypatch: pytest.MonkeyPatch,
              ask: Callable[[Thinkers], Awaitable[object]]) -> dict[str, Any]:
    """What the registry's thinkers, made from ``settings``, hand their pool for ``ask``."""
    asked: dict[str, Any] = {}

    async def run(lane: Lane, fn: Callable[..., Any], *args: object, room: str,
                  address: str = "", hard: float, start_within: float | None = None) -> Any:
        asked.update(lane=lane, fn=fn, args=args, hard=hard)
        return {}

    async def go() -> None:
        store = SqliteStore(settings.data_dir, settings.records_kept)
        registry = Registry(settings, store)
        try:
            monkeypatch.setattr(registry.thinkers.pool, "run", run)
            await ask(registry.thinkers)
        finally:
            registry.thinkers.close()
            await store.close()

    asyncio.run(go())
    return asked


def test_a_review_searches_for_the_settings_seconds(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """AMERIKANER_REVIEW_SECONDS (the browser tests set it lower) reaches every review job
    the registry's thinkers hand their pool, and the worker's hard limit follows it."""
    settings = Settings.from_env({"AMERIKANER_REVIEW_SECONDS": "1.5",
                                  "AMERIKANER_DATA_DIR": str(tmp_path)})
    asked = pool_call(settings, monkeypatch, lambda thinkers: thinkers.review(
        RuleSet.shared({"preset": "standard"}), {}, 0))
    assert asked["lane"] is Lane.REVIEW and asked["fn"] is review_job
    assert asked["args"][-1] == 1.5
    assert asked["hard"] == review_hard_seconds(1.5) == 1.5 * WALL_CAP + 10.0
    assert Settings().review_seconds == REVIEW_SECONDS == 8.0  # the product's default


def test_a_hint_searches_for_the_settings_seconds(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """AMERIKANER_HINT_SECONDS (the browser tests set it lower) reaches every hint job,
    and the worker's hard limit follows it."""
    settings = Settings.from_env({"AMERIKANER_HINT_SECONDS": "0.2",
                                  "AMERIKANER_DATA_DIR": str(tmp_path)})
    match = Match(RuleSet.shared({"preset": "standard"}), random.Random(1))
    match.start_deal()
    asked = pool_call(settings, monkeypatch, lambda thinkers: thinkers.hint(match, 0))
    assert asked["lane"] is Lane.HINT and asked["fn"] is hint_job
    assert asked["args"] == (job_of(match, 0), 0.2)
    assert asked["hard"] == 0.2 + 4.0
    assert Settings().hint_seconds == HINT_SECONDS == 0.5  # the product's default
