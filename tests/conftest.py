"""Shared pytest fixtures for every test folder (kept small: helpers live next to tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from pg_server import THROWAWAY, PostgresServer, postgres_available

# Time never decides a test (the suite passes on a busy machine): no example has a
# deadline, and the health check that times data generation is off everywhere (it failed
# a text test at load 30: "only generated 9 valid inputs after 1.17 seconds").
settings.register_profile("any-machine", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any-machine")

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "spec" / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The spec's example records (docs/spec/GAME-RECORD.md "Examples"), copied into the repo."""
    assert (EXAMPLES / "seed000-made-8.json").is_file(), f"missing examples in {EXAMPLES}"
    return EXAMPLES


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the session (tests/pg_server.py; it never waits
    for the disk: ``THROWAWAY``); skipped only when PostgreSQL is not installed
    (scripts/test.sh installs it)."""
    if not postgres_available():
        pytest.skip("PostgreSQL is not installed (scripts/test.sh installs it)")
    server = PostgresServer(THROWAWAY).start()
    yield server
    server.stop()


def grouped_by_folder(args: list[str]) -> list[str]:
    """``args`` with the paths of one folder next to each other, folders in the order they
    first appear and each folder's paths in the order given.

    pytest 9.1 binds a folder's conftest fixtures to the first collector of that folder:
    when the command line interleaves folders (``tests/rooms/a.py tests/b.py
    tests/rooms/c.py``) it collects ``tests/rooms`` twice and the second collector has no
    fixtures ("fixture 'make_server' not found"; pytest-dev/pytest#14964, #15071).
    Keeping each folder's arguments together collects it once."""
    groups: dict[Path, list[str]] = {}
    for arg in args:
        path = Path(arg.split("::", 1)[0])
        folder = path if path.is_dir() else path.parent
        groups.setdefault(folder.resolve(), []).append(arg)
    return [arg for group in groups.values() for arg in group]


def pytest_configure(config: pytest.Config) -> None:
    """Run a command line's test files grouped by folder (``grouped_by_folder``)."""
    config.args[:] = grouped_by_folder(list(config.args))


# The files that take longest, longest first: seconds of their tests in all, summed by file
# from the lead's fresh-clone `scripts/test.sh --junitxml=...` of 2026-12-05 17:07 (three
# workers, the machine quiet; test_phone_dock.py, 42 s then, was cut to about 18 s since).
# scripts/test.sh's workers take files in the collection's order
# (--no-loadscope-reorder): these start first, so that none of them is the last one left
# running while the other workers idle, and the many short files fill in around them.
LONGEST_FIRST = (
    "tests/e2e/test_replay.py",  # 97 s
    "tests/e2e/test_accessibility.py",  # 89 s
    "tests/e2e/test_deal_and_match.py",  # 68 s
    "tests/e2e/test_three_languages.py",  # 66 s
    "tests/e2e/test_replay_layout.py",  # 57 s
    "tests/e2e/test_trick_display.py",  # 45 s
    "tests/rooms/test_http_leaks.py",  # 40 s
    "tests/e2e/test_clubs.py",  # 38 s
    "tests/e2e/test_turns_and_clocks.py",  # 35 s
    "tests/e2e/test_review.py",  # 35 s
    "tests/e2e/test_rules_page.py",  # 35 s
    "tests/test_openapi.py",  # 34 s
    "tests/cluster/test_rolling_restart.py",  # 34 s
    "tests/e2e/test_reconnect.py",  # 31 s
    "tests/bots/test_bots_legal.py",  # 30 s
    "tests/e2e/test_back_from_away.py",  # 29 s
    "tests/e2e/test_polish.py",  # 27 s
    "tests/test_load_benchmark.py",  # 25 s
    "tests/cluster/test_club_kill.py",  # 25 s
    "tests/e2e/test_sound_and_reactions.py",  # 23 s
    "tests/test_abuse_payloads.py",  # 17 s (of test_abuse.py's 22 s)
    "tests/e2e/test_room_gone.py",  # 21 s
    "tests/e2e/test_phone_and_chat.py",  # 21 s
    "tests/e2e/test_lobby_and_match.py",  # 19 s
    "tests/cluster/test_placement.py",  # 18 s
    "tests/e2e/test_phone_dock.py",  # 18 s
    "tests/cluster/test_cluster_benchmark.py",  # 18 s
    "tests/cluster/test_capacity_model.py",  # 17 s
    "tests/cluster/test_cluster.py",  # 16 s
    "tests/test_fuzz_protocol.py",  # 15 s
)
ROOT = Path(__file__).resolve().parents[1]


def run_order(item: pytest.Item) -> tuple[int, bool]:
    """Where ``item``'s file runs. In a pytest-xdist worker the longest files first
    (``LONGEST_FIRST``), then the others as collected. In one process the browser tests
    last, so that the rest gives its verdict sooner (each browser file closes its Chromium
    when it ends, tests/e2e/conftest.py, so browser and other files may mix)."""
    browser = "e2e" in item.path.parts
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return 0, browser
    name = item.path.relative_to(ROOT).as_posix() if item.path.is_relative_to(ROOT) else ""
    return (LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)), False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the files in the order they run best in (``run_order``; the sort is stable)."""
    items.sort(key=run_order)
