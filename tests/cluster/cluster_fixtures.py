"""Fixtures of the scale-out tests: a fresh database for each test in the session's
throwaway PostgreSQL server (``postgres``, tests/conftest.py: skipped only when
PostgreSQL is not installed, and scripts/test.sh installs it), and a cluster shared by a
module's tests.

tests/cluster/conftest.py hands them to pytest; a module of its own name so that one mypy
run checks every folder."""

from __future__ import annotations

import itertools
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cluster_harness import Cluster, close_clients, running_cluster
from nginx_server import find_nginx
from pg_server import PostgresServer

_names = itertools.count()


@pytest.fixture
def database_url(postgres: PostgresServer) -> str:
    """A fresh, empty database."""
    return postgres.create_database(f"t{next(_names)}")


@pytest.fixture(scope="module")
def module_cluster(postgres: PostgresServer,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three processes and nginx on a fresh database, for one module: starting them costs
    seconds of CPU, which its tests pay once."""
    if find_nginx() is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs it)")
    url = postgres.create_database(f"t{next(_names)}")
    with running_cluster(postgres, url, tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture
def cluster(module_cluster: Cluster) -> Iterator[Cluster]:
    """The module's cluster (three processes and nginx on one database).  Its tests do
    not need a fresh one: each plays its own rooms, and what it counts it counts from
    before it acts.  Every process an earlier test killed, stopped or paused runs again
    first, on its own port (not after the last test: nobody would use it); each test's
    clients are closed after it."""
    for app in module_cluster.apps:
        if app.proc is not None and app.proc.poll() is None:
            app.proc.send_signal(signal.SIGCONT)  # a test that failed while it paused one
        else:
            app.stop()
            app.start()
    yield module_cluster
    close_clients()
