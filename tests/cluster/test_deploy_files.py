"""The cluster's deployment files agree with each other: docker-compose.cluster.yml parses,
names every image it runs (or builds this repository's Dockerfile), gives every app
process the database; deploy/nginx.conf lists exactly those app processes in both
upstreams and routes every room path by the room code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml  # type: ignore[import-untyped]  # (PyYAML comes with uvicorn[standard])

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
