"""Every refusal's code is an ``ErrorCode``: the type of ``RoomError`` refuses a bare
string, and no call in app/ passes one (a code the protocol does not list could not reach
a client then)."""

from __future__ import annotations

import ast
from pathlib import Path

from app.rooms.core.errors import RoomError
from app.rooms.core.wire_enums import ErrorCode

APP = Path(__file__).resolve().parents[2] / "app"
# the calls whose first argument is a wire error code
CODE_TAKERS = frozenset({"RoomError", "BadMessage", "error_frame", "error_response"})


def _mypy_refuses_a_literal() -> RoomError:
    # mypy runs strict (warn_unused_ignores): were a plain string accepted here, this
    # ignore would be unused and mypy would fail.  The line is checked, never run.
    return RoomError("not_host", "only the host can do that")  # type: ignore[arg-type]


def test_no_literal_code_in_app() -> None:
    found = []
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            first = node.args[0]
            if name in CODE_TAKERS and isinstance(first, ast.Constant) \
                    and isinstance(first.value, str):
                where = path.relative_to(APP.parent)
                found.append(f"{where}:{node.lineno}: {name}({first.value!r}")
    assert not found, "error codes as strings, not ErrorCode:\n" + "\n".join(found)


def test_a_refusal_carries_the_enum() -> None:
    assert isinstance(RoomError(ErrorCode.NOT_HOST, "only the host").code, ErrorCode)
    assert _mypy_refuses_a_literal.__annotations__["return"] == "RoomError"
