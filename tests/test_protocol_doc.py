"""docs/protocol.md's field tables are the frame models' own text: regenerating them from
app/rooms/core/frames.py, messages.py and app/rules/wire.py changes nothing."""

from __future__ import annotations

from app.rooms import schema_doc
from app.rooms.core import frames


def test_the_protocol_doc_matches_the_models() -> None:
    text = schema_doc.DOC.read_text()
    assert schema_doc.render(text) == text, (
        "docs/protocol.md is out of date: run python -m app.rooms.contract_gen")


def test_every_frame_field_is_in_the_doc() -> None:
    text = schema_doc.DOC.read_text()
    for cls in (frames.StateFrame, frames.View, frames.RoomInfo, frames.SeatInfo):
        for field in cls.__annotations__:
            assert f"| `{field}` |" in text, f"{cls.__name__}.{field} is not documented"
