"""Which Chromium the browser tests and benchmarks/phone_network.py drive, and its switches.

Debian's headless shell (package ``chromium-headless-shell``: the same Chromium release as
the ``chromium`` package, built as the old headless mode's own browser): what Playwright
itself runs for headless Chromium since 1.49 (microsoft/playwright#33566), and lighter
than the full browser run headless. The suite is bound by its two cores and the
browser is half its CPU: on ``tests/e2e/test_three_languages.py`` and
``tests/e2e/test_table.py`` the shell took 50.5 s of CPU where ``/usr/bin/chromium``
took 72.9 s, its renderers 28.9 s against 41.7 s (2026-12-07, ``benchmarks/suite_cpu.py``,
README). ``AMERIKANER_CHROMIUM`` names another binary (``/usr/bin/chromium``: the full
browser, headless).
"""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("AMERIKANER_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
