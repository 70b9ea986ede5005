"""How many Hypothesis examples a property test tries: its full number in the whole suite
(scripts/test.sh), a tenth of it in the quick loop (scripts/quick.sh sets
``AMERIKANER_QUICK=1``), which checks the same properties on fewer random inputs.

Imported as a top-level module, like ``shared_helpers``: pytest puts tests/ on
``sys.path`` for tests/conftest.py, whichever test folder runs."""

from __future__ import annotations

import os

QUICK = os.environ.get("AMERIKANER_QUICK") == "1"


def examples(full: int) -> int:
    """``full`` examples, or in the quick loop a tenth of them (at least 10)."""
    return max(10, full // 10) if QUICK else full
