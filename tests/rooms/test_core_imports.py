"""app/rooms/core stays a pure core (docs/architecture.md): it imports no I/O, clock,
randomness, event loop or bot, nothing of the adapters, and its modules import each other
without a circle (``TYPE_CHECKING`` imports included: a circle held apart by it is still
one concept spread over several files)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "app" / "rooms" / "core"
FORBIDDEN = ("secrets", "random", "time", "asyncio", "app.bots", "app.rooms.server",
             "app.rooms.store", "sqlite3", "socket", "threading", "os")


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, relative ones made absolute (``.state`` ->
    ``app.rooms.core.state``), wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = "app.rooms.core" + (f".{base}" if base else "")
                if not node.module:  # from . import flow, lobby
                    found.update(f"{base}.{alias.name}" for alias in node.names)
                    continue
            found.add(base)
    return found


def test_the_core_imports_no_io_clock_randomness_event_loop_or_bot() -> None:
    bad = {f"{path.name}: {module}"
           for path in CORE.glob("*.py") for module in imports_of(path)
           if any(module == f or module.startswith(f + ".") for f in FORBIDDEN)}
    assert not bad, sorted(bad)


def test_the_core_modules_import_each_other_without_a_circle() -> None:
    graph = {f"app.rooms.core.{path.stem}": {m for m in imports_of(path)
                                             if m.startswith("app.rooms.core.")}
             for path in CORE.glob("*.py") if path.stem != "__init__"}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the failure's message
        raise AssertionError(f"an import circle in app/rooms/core: {exc.args[1]}") from None
    assert "app.rooms.core.room" in order


def test_the_import_reader_sees_a_circle_and_a_type_checking_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from .room import RoomCore\nfrom . import flow\nimport time\n")
    assert imports_of(sample) == {"typing", "app.rooms.core.room", "app.rooms.core.flow",
                                  "time"}
