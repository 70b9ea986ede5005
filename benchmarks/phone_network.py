"""The room page on a phone's network (issue 39): cold load to usable, and what a reload
asks for, before and after the static files were compressed, versioned and preloaded.

Two real ``amerikaner serve`` processes: ``before``, the app of commit ``--baseline``
(extracted with ``git archive`` into a temporary folder: the old behaviour, in the same
run) and ``after``, this checkout.  Debian's Chromium (Playwright, ``executable_path``)
opens a room's link as a guest would, on DevTools' "fast 3G": 150 ms added to each
request, 1.6 Mbit/s down, 750 kbit/s up (``Network.emulateNetworkConditions``).

- *cold*: a fresh browser context (empty cache) from ``goto`` to *usable*: the guest's
  "Your name" box (``#join-name`` in the join panel, as the tests use it) visible with
  the page translated (the panel shows after the room's first state over the WebSocket);
- *reload*: ``page.reload()`` of that page, to usable again.

Counted from DevTools' own events (tests/network_log.py): the files asked of the network
(the page, styles, modules, catalogues, pictures; not the cache's answers, not the
room's data over /api/ and /ws/) and their bytes on the wire.  The old app's reload is
the one after Chromium's guess of its files' freshness has lapsed (``extract``).  The
sides alternate, ``--rounds`` times each; printed: the median of each figure, and
before / after.

    .venv/bin/python benchmarks/phone_network.py [--rounds 5] [--baseline 472b7e2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from network_log import FAST_3G, NetworkLog  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from rooms_harness import create_room  # noqa: E402
from serve_process import ServeProcess  # noqa: E402

BASELINE = "472b7e2"  # main before this work: no compression, no caching headers
USABLE = "#join-name"
FIGURES = ("cold s", "cold files", "cold KiB", "reload s", "reload files", "reload KiB")


def extract(commit: str, into: Path) -> Path:
    """The ``app`` package of ``commit``, as a checkout a server can run from."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "app"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    # The old app sent Last-Modified and no Cache-Control: Chromium then guesses a file
    # fresh for a tenth of its age and reuses it without asking until then, every file
    # asked again (a 304 each) after.  Dated a day ahead, the files are never guessed
    # fresh: the reload measured is the one that comes once the guess has lapsed (a day
    # after a deploy ten days old).
    ahead = time.time() + 86_400
    for file in into.rglob("*"):
        os.utime(file, (ahead, ahead))
    return into


def usable_after(page: Any, go: Any) -> float:
    start = time.perf_counter()
    go()
    page.locator(USABLE).wait_for(state="visible", timeout=120_000)
    page.locator("#join-room-heading[data-i18n]").wait_for(state="visible")
    return time.perf_counter() - start


def measure(browser: Any, base: str) -> dict[str, float]:
    code = create_room(base)["room"]
    context = browser.new_context(viewport={"width": 375, "height": 667}, locale="en-GB")
    try:
        page = context.new_page()
        log = NetworkLog().watch(page, FAST_3G)
        cold = usable_after(page, lambda: page.goto(f"{base}/r/{code}", wait_until="commit"))
        cold_files, cold_bytes = len(log.on_network()), log.wire_bytes()
        log.clear()
        reload = usable_after(page, lambda: page.reload(wait_until="commit"))
        return {"cold s": cold, "cold files": cold_files, "cold KiB": cold_bytes / 1024,
                "reload s": reload, "reload files": len(log.on_network()),
                "reload KiB": log.wire_bytes() / 1024}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default=BASELINE, help="the commit measured as before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        servers = {
            "before": ServeProcess(work / "before-data", {"AMERIKANER_LOG_LEVEL": "warning"},
                                   root=extract(args.baseline, work / "before")),
            "after": ServeProcess(work / "after-data", {"AMERIKANER_LOG_LEVEL": "warning"}),
        }
        runs: dict[str, list[dict[str, float]]] = {side: [] for side in servers}
        try:
            for server in servers.values():
                server.start()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for _ in range(args.rounds):
                    for side, server in servers.items():
                        runs[side].append(measure(browser, server.base))
                browser.close()
        finally:
            for server in servers.values():
                server.stop()
    medians = {side: {name: statistics.median(run[name] for run in figures)
                      for name in FIGURES} for side, figures in runs.items()}
    print(f"fast 3G (150 ms, 1.6 Mbit/s down, 750 kbit/s up), median of {args.rounds}; "
          f"before = {args.baseline}")
    print(f"{'':>8} " + " ".join(f"{name:>12}" for name in FIGURES))
    for side, values in medians.items():
        print(f"{side:>8} " + " ".join(f"{values[name]:>12.2f}" for name in FIGURES))
    ratios = [medians["before"][n] / medians["after"][n] if medians["after"][n] else
              float("inf") for n in FIGURES]
    print(f"{'b / a':>8} " + " ".join(f"{r:>12.2f}" for r in ratios))


if __name__ == "__main__":
    main()
