"""docs/protocol.md's tables of pages and HTTP endpoints name every route the app
serves: a new endpoint left out of the doc fails here (the club review once was)."""

from __future__ import annotations

import re

from app.main import create_app
from app.rooms import schema_doc


def test_every_route_has_a_row_in_the_protocol_doc() -> None:
    text = schema_doc.DOC.read_text()
    paths = create_app().openapi()["paths"]
    missing = [
        f"{method.upper()} {path}"
        for path, operations in paths.items()
        for method in operations
        # A row starts with the method and the path, then its query (`?`) or the cell's end.
        if not re.search(rf"\| `{method.upper()} {re.escape(path)}[`?]", text)
    ]
    assert paths and not missing, f"not in docs/protocol.md's tables: {missing}"
