"""Three (or more) ``amerikaner serve`` processes sharing one PostgreSQL database behind
nginx with the shipped ``deploy/nginx.conf``, on loopback: the ``cluster`` fixture
(tests/cluster/conftest.py) and what the tests ask of it (who holds which room, which
process a code is routed to)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from nginx_server import NginxServer, without_rate_limits
from pg_server import PostgresServer
from rooms_harness import OPEN_CLIENTS
from serve_process import ServeProcess

# How long to wait for what the cluster does by itself (a lease lapsing, a connection
# dropping, a room served again): far longer than it takes (about 3 s, the lease), so
# that a busy machine passes too.  How soon it happens is printed (pytest -s), not tested.
PATIENCE = 30.0
# every client is nginx at 127.0.0.1 here: the per-address caps on creating rooms are
# lifted, and so are nginx's own request rates (one test address stands for hundreds of
# players; tests/cluster/test_nginx_limits.py tests those)
CLUSTER_ENV = {"AMERIKANER_ROOMS_PER_MINUTE": "0", "AMERIKANER_ROOMS_HELD": "0",
               "AMERIKANER_TRUSTED_PROXIES": "127.0.0.1"}


@dataclass
class Cluster:
    apps: list[ServeProcess]
    nginx: NginxServer
    postgres: PostgresServer
    database: str

    @property
    def database_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.postgres.port}/{self.database}"

    def sql(self, query: str) -> list[list[str]]:
        out = self.postgres.psql(query, self.database)
        return [line.split("|") for line in out.splitlines() if line]

    def owners(self) -> dict[str, str]:
        """Room code -> the lease holder's owner id (``host:pid:nonce``)."""
        return {code: owner for code, owner in self.sql(
            "SELECT l.code, l.owner FROM leases l JOIN processes p ON p.owner = l.owner "
            "WHERE p.expires_at > now()")}

    def app_of(self, owner: str) -> int | None:
        pid = int(owner.split(":")[1])
        return next((i for i, a in enumerate(self.apps)
                     if a.proc is not None and a.proc.pid == pid), None)

    def records(self, code: str) -> list[dict[str, Any]]:
        """The records of the room's finished matches, in order."""
        return [json.loads(row[0]) for row in self.sql(
            f"SELECT record FROM records WHERE code = '{code}' ORDER BY match_number")]

    def app_at(self, port: int) -> int:
        return next(i for i, a in enumerate(self.apps) if a.port == port)

    def routed_to(self) -> dict[str, int]:
        """Room code -> the app nginx tried first for it (where its code hashes to), from
        the requests about rooms nginx has answered so far."""
        out: dict[str, int] = {}
        for _, uri, _, ports in self.nginx.tried():
            parts = uri.split("/")
            if uri.startswith("/api/rooms/") and ports:
                out[parts[3]] = self.app_at(ports[0])
        return out


def comparable(action: dict[str, Any]) -> dict[str, Any]:
    """An action as sent or as recorded, without the seat, a discard in any order."""
    out = {k: v for k, v in action.items() if k != "seat"}
    if isinstance(out.get("discard"), list):
        out["discard"] = sorted(out["discard"])
    return out


def assert_in_order_once(acked: list[dict[str, Any]], recorded: list[dict[str, Any]],
                         unacked: int) -> None:
    """Every acknowledged action is in the record, in order, once; at most the actions
    never acknowledged (sent as the process died) besides."""
    it = iter(recorded)
    for action in acked:
        assert any(r == action for r in it), (action, recorded)
    assert len(recorded) <= len(acked) + unacked, (acked, recorded)


def assert_one_writer_at_a_time(writers: list[str]) -> None:
    """Each process wrote one stretch of the log: it never came back after another."""
    stretches = [w for i, w in enumerate(writers) if i == 0 or writers[i - 1] != w]
    assert len(stretches) == len(set(stretches)), stretches


def close_clients() -> None:
    """Close every test client still open (rooms_harness's ``OPEN_CLIENTS``)."""
    while OPEN_CLIENTS:
        OPEN_CLIENTS.pop().close()


@contextmanager
def running_cluster(postgres: PostgresServer, database_url: str, folder: Path,
                    processes: int = 3,
                    env: dict[str, str] | None = None) -> Iterator[Cluster]:
    apps: list[ServeProcess] = []
    nginx: NginxServer | None = None
    try:
        # launched together, then waited for: their start-ups (imports, pools, the
        # store's connections) overlap instead of adding up
        for i in range(processes):
            apps.append(ServeProcess(folder / f"app{i}", env=CLUSTER_ENV | (env or {}) | {
                "AMERIKANER_DATABASE_URL": database_url}).launch())
        for app in apps:
            app.wait_ready()
        nginx = NginxServer([a.port for a in apps], edit=without_rate_limits).start()
        yield Cluster(apps, nginx, postgres, database_url.rsplit("/", 1)[1])
    finally:
        close_clients()
        if nginx is not None:
            nginx.stop()
        for app in apps:
            app.stop()
