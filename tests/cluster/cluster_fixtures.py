"""Fixtures of the scale-out tests: a fresh database for each test in the session's
throwaway PostgreSQL server (``postgres``, tests/conftest.py: skipped only when
PostgreSQL is not installed, and scripts/test.sh installs it).

tests/cluster/conftest.py hands them to pytest; a module of its own name so that one mypy
run checks every folder."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cluster_harness import Cluster, running_cluster
from nginx_server import find_nginx
from pg_server import PostgresServer

_names = itertools.count()


@pytest.fixture
def database_url(postgres: PostgresServer) -> str:
    """A fresh, empty database."""
    return postgres.create_database(f"t{next(_names)}")


@pytest.fixture
def cluster(postgres: PostgresServer, database_url: str, tmp_path: Path) -> Iterator[Cluster]:
    """Three processes and nginx on a fresh database."""
    if find_nginx() is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs it)")
    with running_cluster(postgres, database_url, tmp_path) as cluster:
        yield cluster
