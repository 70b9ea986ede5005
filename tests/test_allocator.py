"""``amerikaner serve`` runs on the C library's malloc unless told otherwise
(app/runtime/allocator.py): how it gets there (a restart of the same command) and when it does
not (an allocator chosen before the start, or Python's own asked for)."""

from __future__ import annotations

import sys

import pytest

from app.runtime import allocator
from app.settings import Settings, SettingsError


def test_a_server_started_without_an_allocator_restarts_itself_on_malloc() -> None:
    env: dict[str, str] = {}
    calls: list[tuple[str, list[str]]] = []
    allocator.ensure("malloc", env, lambda path, argv: calls.append((path, argv)))
    assert env == {"PYTHONMALLOC": "malloc"}  # the new interpreter inherits it
    assert calls == [(sys.executable, list(sys.orig_argv))]  # the same command, flags too
    assert allocator.current(env) == "malloc"


def test_an_allocator_chosen_before_the_start_is_kept() -> None:
    for chosen in ("pymalloc", "malloc", "malloc_debug"):
        env = {"PYTHONMALLOC": chosen}
        allocator.ensure("malloc", env, _no_restart)
        assert env == {"PYTHONMALLOC": chosen}
    assert allocator.current({"PYTHONMALLOC": "pymalloc"}) == "pymalloc"
    assert allocator.current({}) == "pymalloc"  # the interpreter's default


def test_pythons_own_allocator_needs_no_restart() -> None:
    env: dict[str, str] = {}
    allocator.ensure("pymalloc", env, _no_restart)
    assert env == {"PYTHONMALLOC": "pymalloc"}


def test_the_setting_takes_only_the_two_allocators() -> None:
    assert Settings.from_env({}).allocator == "malloc"
    assert Settings.from_env({"AMERIKANER_ALLOCATOR": "pymalloc"}).allocator == "pymalloc"
    with pytest.raises(SettingsError, match="AMERIKANER_ALLOCATOR='jemalloc': one of "
                                            "malloc, pymalloc"):
        Settings.from_env({"AMERIKANER_ALLOCATOR": "jemalloc"})
    with pytest.raises(ValueError, match="unknown allocator"):
        allocator.ensure("jemalloc", {}, _no_restart)


def _no_restart(path: str, argv: list[str]) -> None:
    raise AssertionError(f"restarted: {path} {argv}")
