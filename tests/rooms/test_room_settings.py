"""Every room setting, from the one table of them (tests/option_tables.py, derived from the
``settings`` message): declared in each place a setting lives, and each of its values
kept by the room, shown to everyone, logged and replayed, a checkpoint included.

A new setting is tried here with no change to this file; one forgotten in the log record,
the checkpoint, the room's state or its view fails."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from core_table import LASTING, Table
from option_tables import ROOM_SETTINGS

from app.rooms.core.frames import RoomSettings
from app.rooms.core.host_settings import on_off
from app.rooms.core.records import Checkpoint, SettingsSet

# The view's settings that are not the host's to change (the bot levels a seat may have).
VIEW_ONLY = {"bot_levels"}
STATIC = Path(__file__).resolve().parents[2] / "app" / "static"
LOBBY_JS = STATIC / "js" / "lobby.js"
# A setting's label is ``settings.<name>`` in the catalogues; these two older ones keep
# the keys they had.
LABELS = {"grace_seconds": "lobby.grace", "next_deal_pause": "lobby.pause"}


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
    assert t.state_to(bo)["view"]["room"]["settings"][name] == value
    t.assert_consistent()  # replayed from the room's first checkpoint: the settings record
    t.send(ann, {"type": "start"})
    assert t.first > 0, "a match starts with a checkpoint"
    assert getattr(t.replayed(), name) == value  # replayed from the match's checkpoint
    t.assert_consistent()


def test_every_setting_has_a_control_in_the_hosts_settings_box() -> None:
    """The host's settings box (app/static/js/lobby.js) names each setting as a control's
    ``data-setting``, or draws a checkbox for each on/off one (``BOOL_SETTINGS``): a
    setting the server takes and the page cannot change is otherwise a forgotten step
    that no test sees (the client's types do not require a control)."""
    source = LOBBY_JS.read_text(encoding="utf-8")
    named = set(re.findall(r'"([a-z_]+)"', source))
    if "BOOL_SETTINGS" in source:  # a checkbox for each on/off setting (protocol.js)
        named |= set(on_off())
    missing = [name for name in ROOM_SETTINGS if name not in named]
    assert not missing, f"no control in app/static/js/lobby.js for: {missing}"


@pytest.mark.parametrize("lang", ["en", "nb", "fr"])
def test_every_setting_has_its_label_in_each_catalogue(lang: str) -> None:
    """Without it the settings box shows the key: tests/test_texts.py only sees a key that
    one language has and another lacks, not one that all three lack."""
    catalogue = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    missing = [name for name in ROOM_SETTINGS
               if LABELS.get(name, f"settings.{name}") not in catalogue]
    assert not missing, f"{lang}.json has no label (settings.<name>) for: {missing}"
