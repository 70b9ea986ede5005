"""Every room setting, from the one table of them (tests/option_tables.py, derived from the
``settings`` message): declared in each place a setting lives, and each of its values
kept by the room, shown to everyone, logged and replayed, a checkpoint included.

A new setting is tried here with no change to this file; one forgotten in the log record,
the checkpoint, the room's state or its view fails."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from core_table import LASTING, Table
from option_tables import ROOM_SETTINGS

from app.rooms.core.frames import RoomSettings
from app.rooms.core.records import Checkpoint, SettingsSet

# The view's settings that are not the host's to change (the bot levels a seat may have).
VIEW_ONLY = {"bot_levels"}


def test_every_setting_is_declared_in_each_place_a_setting_lives() -> None:
    names = set(ROOM_SETTINGS)
    assert names, "no settings found in the settings message"
    assert set(SettingsSet.model_fields) - {"k"} == names, (
        "the settings log record (records.SettingsSet) and the settings message "
        "(messages.SettingsMessage) must declare the same settings")
    assert set(typing.get_type_hints(RoomSettings)) - VIEW_ONLY == names, (
        "the view's settings (frames.RoomSettings) must show every setting")
    assert names <= set(Checkpoint.model_fields), (
        "a checkpoint (records.Checkpoint) must keep every setting, with a default for "
        "the checkpoints written before it")
    assert names <= set(LASTING)
    state = Table().core.state
    missing = [name for name in names if not hasattr(state, name)]
    assert not missing, f"RoomState has no attribute for {missing}"


@pytest.mark.parametrize(("name", "value"),
                         [(n, v) for n, values in ROOM_SETTINGS.items() for v in values])
def test_each_value_of_each_setting_is_kept_shown_logged_and_replayed(name: str,
                                                                      value: Any) -> None:
    t = Table()
    bo_seat = t.join("Bo")
    ann, bo = t.connect(0), t.connect(bo_seat)
    t.send(ann, {"type": "settings", name: value})
    assert getattr(t.core.state, name) == value
    assert t.state_to(bo)["view"]["room"]["settings"][name] == value  # type: ignore[literal-required]
    t.assert_consistent()  # replayed from the room's first checkpoint: the settings record
    t.send(ann, {"type": "start"})
    assert t.first > 0, "a match starts with a checkpoint"
    assert getattr(t.replayed(), name) == value  # replayed from the match's checkpoint
    t.assert_consistent()
