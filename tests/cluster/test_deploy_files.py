"""The cluster's deployment files agree with each other: docker-compose.cluster.yml parses,
names every image it runs (or builds this repository's Dockerfile), gives every app
process the database; deploy/nginx.conf lists exactly those app processes in both
upstreams and routes every room path by the room code; and the nginx file has the settings
failover needs (read by a parser of nginx's syntax, not by pattern): the consistent hash,
``max_fails=0`` on every room process, a 503 or a dead process moving any request on
along the ring, timeouts that let it reach the end, WebSockets kept open, idle connections
to the processes closed by nginx before the processes close them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml  # type: ignore[import-untyped]  # (PyYAML comes with uvicorn[standard])

from app.serve import KEEP_ALIVE_SECONDS

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.cluster.yml").read_text())
    return data


def test_the_compose_file_runs_named_images_and_gives_every_app_the_database() -> None:
    services = compose()["services"]
    apps = sorted(name for name in services if re.fullmatch(r"app\d+", name))
    assert len(apps) >= 2 and {"postgres", "nginx"} <= set(services)
    for name, service in services.items():
        assert service.get("build") == "." or "/" in service["image"], name  # fully named
    for name in apps:
        url = urlsplit(services[name]["environment"]["AMERIKANER_DATABASE_URL"])
        assert url.scheme == "postgresql" and url.hostname == "postgres"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        # SIGTERM drains the rooms before a stop: compose must not kill it at once
        grace = re.fullmatch(r"(\d+)s", services[name]["stop_grace_period"])
        assert grace and int(grace.group(1)) >= 10, name
    assert set(services["nginx"]["depends_on"]) == set(apps)
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in \
        services["nginx"]["volumes"]
    # the single-process file stays the default, on SQLite
    single = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert all("AMERIKANER_DATABASE_URL" not in s.get("environment", {})
               for s in single.values())


def test_nginx_routes_rooms_by_code_to_the_compose_apps() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    apps = sorted(name for name in compose()["services"] if re.fullmatch(r"app\d+", name))
    upstreams = dict(re.findall(r"upstream (\w+) \{(.*?)\}", conf, re.S))
    assert set(upstreams) == {"amerikaner_rooms", "amerikaner_any"}
    for body in upstreams.values():
        assert sorted(re.findall(r"server (app\d+):8000", body)) == apps
    assert "hash $room consistent;" in upstreams["amerikaner_rooms"]
    for path in ("/r/", "/api/rooms/", "/ws/"):
        assert re.search(rf"~\^{re.escape(path)}\(\?<room_code>", conf), path
    assert "proxy_set_header Upgrade $http_upgrade;" in conf


# -- what failover needs of deploy/nginx.conf, read by a small parser of nginx's syntax --

Directive = tuple[str, list[str], list["Directive"] | None]  # name, arguments, block


def parse_nginx(text: str) -> list[Directive]:
    """nginx's configuration syntax: directives ``name args;`` and blocks ``name args {
    ... }``, ``#`` comments, quoted arguments."""
    tokens = re.findall(r"#[^\n]*|\"[^\"]*\"|'[^']*'|[{};]|[^\s{};\"']+", text)
    pos = 0

    def block() -> list[Directive]:
        nonlocal pos
        out: list[Directive] = []
        words: list[str] = []
        while pos < len(tokens):
            token = tokens[pos]
            pos += 1
            if token.startswith("#"):
                continue
            if token == ";":
                out.append((words[0], words[1:], None))
                words = []
            elif token == "{":
                out.append((words[0], words[1:], block()))
                words = []
            elif token == "}":
                assert not words, words
                return out
            else:
                words.append(token.strip("\"'"))
        assert not words, words
        return out

    return block()


def find(directives: list[Directive], name: str, *args: str) -> list[Directive]:
    return [d for d in directives if d[0] == name and d[1][:len(args)] == list(args)]


def effective(name: str, *levels: list[Directive]) -> list[str]:
    """A directive's arguments where it applies: the innermost level that sets it (as
    nginx inherits proxy_* settings)."""
    for level in reversed(levels):
        found = find(level, name)
        if found:
            return found[-1][1]
    raise AssertionError(f"{name} is not set")


def seconds(value: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()  # type: ignore[union-attr]
    return int(number) * units[unit or "s"]


def test_nginx_has_the_settings_failover_needs() -> None:
    top = parse_nginx((ROOT / "deploy" / "nginx.conf").read_text())
    (_, _, rooms), = find(top, "upstream", "amerikaner_rooms")
    assert rooms is not None
    # one process per code, and few codes move when a process comes or goes
    assert find(rooms, "hash") == [("hash", ["$room", "consistent"], None)]
    servers = find(rooms, "server")
    assert len(servers) >= 2
    for _, args, _ in servers:
        # a 503 only means "not mine" and a dead process costs a refused connection: a
        # process is never taken out of the ring for a while, or its rooms' requests would
        # go elsewhere while it is alive (max_fails=0), and no process waits aside
        assert "max_fails=0" in args[1:] and not {"backup", "down"} & set(args), args

    # the room code nginx hashes: the code in each room path, nothing for other paths
    (_, _, map_body), = find(top, "map", "$uri", "$room")
    assert map_body is not None
    patterns = [(re.compile(d[0][1:].replace("(?<", "(?P<")), d[1][0]) for d in map_body
                if d[0].startswith("~")]
    default = next(d[1][0] for d in map_body if d[0] == "default")

    def room_of(uri: str) -> str:
        for pattern, value in patterns:
            match = pattern.search(uri)
            if match:
                return value.replace("$room_code", match.group("room_code"))
        return default

    for uri in ("/r/abcde", "/ws/abcde", "/api/rooms/abcde", "/api/rooms/abcde/join",
                "/api/rooms/abcde/record"):
        assert room_of(uri) == "abcde", uri
    for uri in ("/", "/api/rooms", "/static/js/net.js", "/healthz", "/r/"):
        assert room_of(uri) == "", uri

    (_, _, server), = find(top, "server")
    assert server is not None
    (_, _, location), = find(server, "location", "~", "^/(r|ws|api/rooms)/")
    assert location is not None
    assert effective("proxy_pass", server, location) == ["http://amerikaner_rooms"]
    # a 503 from a process that does not serve the room (a join, a POST, too: it changed
    # nothing) and a dead process both move the request on along the ring, to the end
    onward = set(effective("proxy_next_upstream", server, location))
    assert {"error", "timeout", "http_503", "non_idempotent"} <= onward
    tries = int(effective("proxy_next_upstream_tries", server, location)[0])
    assert tries == 0 or tries >= len(servers)
    # a dead machine costs a connect timeout per process tried: the whole ring fits in
    # the time nginx gives a request to move on
    connect = seconds(effective("proxy_connect_timeout", server, location)[0])
    assert connect <= 5
    assert seconds(effective("proxy_next_upstream_timeout", server, location)[0]) >= \
        connect * len(servers)
    # WebSockets: upgraded, and kept while a table plays
    assert effective("proxy_http_version", server, location) == ["1.1"]
    headers = {tuple(a) for _, a, _ in find(server, "proxy_set_header")}
    assert {("Upgrade", "$http_upgrade"), ("Connection", "$connection_upgrade")} <= headers
    assert seconds(effective("proxy_read_timeout", server, location)[0]) >= 600
    # creating a room goes to any process
    (_, _, create), = find(server, "location", "=", "/api/rooms")
    assert create is not None
    assert effective("proxy_pass", server, create) == ["http://amerikaner_any"]
    # a process that is stopping answers 503 (it creates nothing): the POST goes on
    assert {"http_503", "non_idempotent"} <= set(
        effective("proxy_next_upstream", server, create))


def test_nginx_closes_an_idle_upstream_connection_before_the_app_does() -> None:
    # A request nginx sends on a kept connection that the app is closing for idleness at
    # that moment is reset: a 502. So each upstream that keeps connections (every one
    # here) lets them go first, with a second to spare for a busy machine.
    top = parse_nginx((ROOT / "deploy" / "nginx.conf").read_text())
    upstreams = find(top, "upstream")
    assert len(upstreams) == 2
    for _, (name, *_), body in upstreams:
        assert body is not None
        assert find(body, "keepalive"), name
        (_, (idle,), _), = find(body, "keepalive_timeout")
        assert seconds(idle) <= KEEP_ALIVE_SECONDS - 1, name
