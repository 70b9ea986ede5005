"""Browser tests: a real ``amerikaner serve`` process and Debian's Chromium via Playwright.

The server runs once per session on a free loopback port with a temporary data folder
and bots that act almost at once.  Every page a test opens records console errors and
uncaught exceptions; a test fails if any appear.  Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("AMERIKANER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DESKTOP = {"width": 1280, "height": 900}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 375, "height": 667}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServeProcess:
    """A real ``amerikaner serve`` on loopback; ``start`` again after ``stop`` to restart it
    on the same port and data folder."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = data_dir
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServeProcess:
        env = {**os.environ, "AMERIKANER_BOT_DELAY": "0.05", "AMERIKANER_LOG_LEVEL": "warning"}
        with (self.data_dir / "serve.log").open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--data-dir", str(self.data_dir)],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"amerikaner serve did not start: {self.data_dir}/serve.log")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real ``amerikaner serve`` process shared by the session."""
    serve = ServeProcess(tmp_path_factory.mktemp("e2e-data")).start()
    try:
        yield serve.base
    finally:
        serve.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class PageProblems:
    """Console errors and uncaught exceptions seen by the pages of one test."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any, label: str) -> None:
        page.on("console", lambda m: m.type == "error" and self.errors.append(
            f"{label} console: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"{label} exception: {e}"))


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """``new_page(label, viewport=DESKTOP, **context_options)``: a page in a fresh browser
    context (its own localStorage, like another person's browser)."""
    problems = PageProblems()
    contexts: list[Any] = []

    def make(label: str, viewport: dict[str, int] | None = None, **options: Any) -> Any:
        ctx = browser.new_context(viewport=viewport or DESKTOP, base_url=server,
                                  locale=options.pop("locale", "en-GB"), **options)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        problems.watch(page, label)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert problems.errors == [], "\n".join(problems.errors)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
