"""nginx on loopback with the project's own ``deploy/nginx.conf``, for the cluster tests:
the file's upstream servers (``appN:8000``) become loopback ports and its ``listen 80``
a free loopback port; everything else is used as shipped (unless a test edits it:
``edit``).  Its own prefix folder, no system service; as root its processes run as
``nobody``.  ``check`` runs ``nginx -t`` on the same files instead of starting it."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from pg_server import as_unprivileged, end_server, give_to_unprivileged
from serve_process import ROOT, free_port

DEPLOY_CONF = ROOT / "deploy" / "nginx.conf"


def find_nginx() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None)


def site_config(ports: list[int], listen: int) -> str:
    """``deploy/nginx.conf`` for app processes on these loopback ports."""
    text = DEPLOY_CONF.read_text()
    names = sorted(set(re.findall(r"\bserver (app\d+):8000", text)))
    assert len(names) >= len(ports), f"deploy/nginx.conf names only {names}"
    for i, name in enumerate(names):
        if i < len(ports):
            text = text.replace(f"server {name}:8000", f"server 127.0.0.1:{ports[i]}")
        else:  # fewer processes in this test than in the file
            text = re.sub(rf"\n\s*server {name}:8000[^\n]*", "", text)
    assert "listen 80;" in text
    return text.replace("listen 80;", f"listen 127.0.0.1:{listen};")


def without_rate_limits(site: str) -> str:
    """The site without its ``limit_req`` lines (the zones stay, unused): for a load
    benchmark, whose one address stands for hundreds of players (as the app's own
    per-address caps are lifted for it)."""
    lifted, n = re.subn(r"^[ \t]*limit_req zone=[^;]*;\n", "", site, flags=re.M)
    assert n, "no limit_req in deploy/nginx.conf"
    return lifted


class NginxServer:
    def __init__(self, app_ports: list[int],
                 edit: Callable[[str], str] | None = None) -> None:
        """``edit``: the site's text, changed by the test (tests/cluster/
        test_nginx_limits.py slows the request rates)."""
        self.app_ports = app_ports
        self.edit = edit
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.root = Path(tempfile.mkdtemp(prefix="amerikaner-nginx-"))
        self.proc: subprocess.Popen[bytes] | None = None

    def _write_config(self) -> list[str]:
        """The files nginx reads, written: its command line, without ``-t``."""
        nginx = find_nginx()
        if nginx is None:
            raise RuntimeError("nginx is not installed")
        site = site_config(self.app_ports, self.port)
        (self.root / "site.conf").write_text(site if self.edit is None else self.edit(site))
        temp = "".join(f"    {kind}_temp_path {self.root}/{kind}_temp;\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # a WebSocket through nginx holds two connections: room for a load benchmark
        (self.root / "nginx.conf").write_text("\n".join([
            "daemon off;", "worker_processes 1;", "worker_rlimit_nofile 20000;",
            f"pid {self.root}/nginx.pid;", f"error_log {self.root}/error.log warn;",
            "events { worker_connections 10000; }",
            # which processes nginx tried for each request, in order (``tried``)
            f"http {{\n{temp}    log_format tried '$request_method $uri $status "
            "$upstream_addr';",
            f"    access_log {self.root}/access.log tried;",
            f"    include {self.root}/site.conf;\n}}\n"]))
        self.root.chmod(0o755)
        give_to_unprivileged(self.root)
        return as_unprivileged([nginx, "-p", str(self.root), "-e", str(self.root / "error.log"),
                                "-c", str(self.root / "nginx.conf")])

    def check(self) -> tuple[int, str]:
        """``nginx -t`` on the files ``start`` would run: its exit status and output."""
        try:
            done = subprocess.run([*self._write_config(), "-t"], capture_output=True,
                                  text=True, timeout=60)
            return done.returncode, done.stdout + done.stderr
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def start(self) -> NginxServer:
        command = self._write_config()
        self.proc = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        with httpx.Client(timeout=1) as http:  # one client: see ServeProcess.wait_ready
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    http.get(self.base + "/healthz")
                    return self
                except httpx.HTTPError:
                    time.sleep(0.05)
        log = self.error_log()
        self.stop()
        raise RuntimeError(f"nginx did not start:\n{log}")

    def access_log(self) -> list[str]:
        """nginx's access log so far, a line a request: method, path, status and
        ``$upstream_addr`` (``tried``)."""
        return (self.root / "access.log").read_text().splitlines()

    def tried(self) -> list[tuple[str, str, int, list[int]]]:
        """Every request nginx answered so far: method, path, status and the ports of
        the processes it passed the request to, in order (the first: where the hash of
        a room's code points).  When nginx found no process left to try, it logs the
        upstream group's name in place of an address: that is left out here (the line
        in ``access_log`` keeps it)."""
        out = []
        for line in self.access_log():
            method, uri, status, *upstreams = line.replace(",", " ").replace(" : ", " ").split()
            ports = [int(u.rsplit(":", 1)[1]) for u in upstreams
                     if u.rsplit(":", 1)[-1].isdigit()]
            out.append((method, uri, int(status), ports))
        return out

    def error_log(self) -> str:
        try:
            return (self.root / "error.log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self) -> None:
        if self.proc is not None:
            end_server(self.proc, self.root / "nginx.pid", signal.SIGTERM)  # fast shutdown
            self.proc = None
        shutil.rmtree(self.root, ignore_errors=True)
