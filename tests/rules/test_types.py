"""The engine's types, where everything else depends on them (issue 37): no ``Any`` in
``app/rules`` (the word nowhere, comments included: the issue's check is that grep), and
``apply`` declares the ``Event`` union it returns, so that its callers are checked."""

from __future__ import annotations

import re
import typing
from collections.abc import Sequence
from pathlib import Path

from app.rules import DealState, Event, Match

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"


def test_no_any_in_the_engine() -> None:
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(RULES.glob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\bAny\b", line)]
    assert not found, "\n".join(found)


def test_apply_returns_the_event_union() -> None:
    for cls in (DealState, Match):
        assert typing.get_type_hints(cls.apply)["return"] == Sequence[Event], cls
