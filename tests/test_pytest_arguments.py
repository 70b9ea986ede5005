"""Test files given in any order on one command line find their folders' fixtures
(tests/conftest.py, ``grouped_by_folder``: pytest 9.1 loses a folder's conftest fixtures
when its files are interleaved with another folder's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_interleaved_folders_keep_their_conftest_fixtures() -> None:
    # tests/rooms/conftest.py gives both rooms files `make_server`; test_locks.py between
    # them once made the second one's tests fail with "fixture 'make_server' not found".
    # --setup-plan resolves every fixture without running a test or starting a server.
    files = ["tests/rooms/test_store_failures.py", "tests/test_locks.py",
             "tests/rooms/test_health.py"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "--setup-plan", *files],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "not found" not in run.stdout


def test_the_longest_files_named_for_the_workers_exist(pytestconfig: pytest.Config) -> None:
    # tests/conftest.py orders the workers' files by LONGEST_FIRST: a renamed file would
    # silently lose its place at the front.
    conftest = pytestconfig.pluginmanager.get_plugin(str(ROOT / "tests" / "conftest.py"))
    assert conftest is not None
    missing = [name for name in conftest.LONGEST_FIRST if not (ROOT / name).is_file()]
    assert missing == []
