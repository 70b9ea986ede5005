"""Helpers for more than one test folder: the ``amerikaner`` command in a subprocess, a
room's record downloaded and replayed, the card ids named in a JSON value, and a
language's texts from all its catalogues, and a clock the test moves by hand.

Imported as a top-level module, like ``serve_process``: pytest puts tests/ on
``sys.path`` for tests/conftest.py, whichever test folder runs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from app.rules.cards import CARD_INDEX

I18N = Path(__file__).resolve().parents[1] / "app" / "static" / "i18n"
# One client for the tests' one-off requests (``HTTP.get(url)`` for ``httpx.get(url)``):
# httpx.get() builds a client, and with it an SSL context, at every call, 22 ms of CPU
# against 0.1 ms through one client (2026-12-05, httpx 0.29), over the suite's thousands
# of requests.  It keeps no connection, as httpx.get does not: a server a test stops or
# restarts leaves nothing stale behind.  httpx's clients are safe across threads.
# Its timeout is a hang guard, not a speed bound: httpx's default of 5 s failed a busy
# machine's run (two suites at once) where a fresh server's first replay started its
# worker process.  A test that needs a short wait says so in its call.
HANG_GUARD = 60.0  # seconds: an HTTP answer not come by then is a hang
HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), timeout=HANG_GUARD)


class FakeClock:
    """A monotonic clock the test moves by hand (``clock.now += 5``): time from the test,
    never from the machine."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def amerikaner(*args: str, cwd: Path | None = None,
               timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the installed command (falling back to the module when it is not on PATH)."""
    exe = shutil.which("amerikaner")
    command = [exe] if exe else [sys.executable, "-m", "app.cli"]
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


def benchmark_refuses(script: str, *args: str, says: str) -> None:
    """``benchmarks/SCRIPT ARGS`` run as a command refuses its arguments: exit status 2
    (argparse's) and ``says`` in its error output."""
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(root / "benchmarks" / script), *args],
                          cwd=root, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr, proc.stderr


def download_record(base: str, code: str, token: str) -> dict[str, Any]:
    """The record of room ``code``, downloaded with a seat's ``token``."""
    r = HTTP.get(f"{base}/api/rooms/{code}/record",
                 headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    return record


def replay_record(record: dict[str, Any], path: Path) -> dict[str, Any]:
    """Write ``record`` to ``path``, replay it with ``amerikaner replay`` (run as
    ``python -m app.cli``), which must succeed, and return its output line."""
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    line: dict[str, Any] = json.loads(out.stdout)
    return line


def card_ids_in(value: Any) -> list[str]:
    """Every string in a JSON value that is a card id, in the order they are written.

    A loop over a stack, not recursion: the property and leak tests call it on every
    seat's view at every step, and this is about a third cheaper (same result)."""
    found: list[str] = []
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        v = pop()
        if isinstance(v, str):
            if v in CARD_INDEX:
                found.append(v)
        elif isinstance(v, dict):
            push(reversed(v.values()))  # reversed: popped in the order written
        elif isinstance(v, (list, tuple)) and v:
            push(v[::-1])
    return found


def catalogue(lang: str) -> dict[str, str]:
    """Every text of language ``lang``: the shared i18n/<lang>.json and the pages' own
    i18n/<part>/<lang>.json (i18n.js ``addCatalogue``); no key is in two of them."""
    merged: dict[str, str] = {}
    for path in [I18N / f"{lang}.json", *sorted(I18N.glob(f"*/{lang}.json"))]:
        texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
        assert not set(texts) & set(merged), f"{path}: {set(texts) & set(merged)} twice"
        merged.update(texts)
    return merged
