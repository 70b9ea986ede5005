"""Which Chromium the browser tests and benchmarks/phone_network.py drive, and its switches.

Debian's headless shell (package ``chromium-headless-shell``: the same Chromium release as
the ``chromium`` package, built as the old headless mode's own browser): what Playwright
itself runs for headless Chromium since 1.49 (microsoft/playwright#33566), and lighter
than the full browser run headless. The suite is bound by its two cores, and the full
browser was half its CPU: on ``tests/e2e`` the shell took 466 s of CPU where
``/usr/bin/chromium`` took 801 s, its renderers 255 s against 439 s (2026-12-07,
``benchmarks/suite_cpu.py``, the two back to back, README). ``AMERIKANER_CHROMIUM``
names another binary (``/usr/bin/chromium``: the full browser, headless).
"""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("AMERIKANER_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
