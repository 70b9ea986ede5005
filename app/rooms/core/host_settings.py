"""The host's settings of a room, each declared once: its name, its type on the wire, its
meaning (the line's comment) and its default.

``HostSettings`` is the one declaration.  What carries the settings takes its fields from
it, so a new setting is one line here:

- the ``settings`` message (``messages.SettingsMessage``) and its log record
  (``records.SettingsSet``) inherit the fields as they are declared here (``X | None =
  None``: only the keys given change);
- the checkpoint (``records.Checkpoint``) inherits them with the defaults of
  ``DEFAULTS`` (what a room had before the setting existed: an older checkpoint has no
  such key);
- the room view's ``settings`` (``frames.RoomSettings``) is derived from them by
  ``shown_fields`` (every setting, as a plain JSON value);
- ``ROOM_SETTINGS`` names them for the code that copies them all (state.py, views.py).

Why the changes form is the one declared: the message is what a client may send, the
most constrained of the forms; the others drop ``None`` and the constraints' strictness
(the log is read in lax mode; the view only shows values the message let in).
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Final

from pydantic import BaseModel, Field

from .wire_enums import GRACE_SECONDS_MAX, NEXT_DEAL_PAUSE_MAX, BotPace, TurnSeconds

GRACE = Annotated[int, Field(ge=0, le=GRACE_SECONDS_MAX)]
PAUSE = Annotated[int, Field(ge=0, le=NEXT_DEAL_PAUSE_MAX)]
# The messages are strict, but an enum field takes its wire value (a JSON string), not
# only an instance of the enum; any other type is still refused.
PACE = Annotated[BotPace, Field(strict=False)]


class HostSettings(BaseModel):
    """The host's settings (only the keys given change)."""

    grace_seconds: GRACE | None = None  # a disconnected person's turn waits this long for them
    next_deal_pause: PAUSE | None = None  # seconds between deals unless all are ready sooner
    turn_seconds: TurnSeconds | None = None  # a connected person's time per move; 0: no limit
    bot_pace: PACE | None = None  # how quickly bots move: relaxed, normal or fast
    spectator_chat: bool | None = None  # spectators may chat


# Each setting's value in a room that never changed it, and in a checkpoint written
# before the setting existed (one without a default here would be required in every
# checkpoint: older logs would not load).  A new room's ``grace_seconds`` and
# ``next_deal_pause`` are the server's (app/settings.py, whose defaults these are); every
# checkpoint has them.  The client's tests build their views from these
# (``SETTING_DEFAULTS`` of protocol.js).
DEFAULTS: Final[dict[str, Any]] = {
    "grace_seconds": 30,
    "next_deal_pause": 10,
    "turn_seconds": 0,
    "bot_pace": BotPace.NORMAL.value,
    "spectator_chat": True,
}

ROOM_SETTINGS: Final[tuple[str, ...]] = tuple(HostSettings.model_fields)


def plain(annotation: Any, enum_as: Callable[[type[enum.Enum]], Any] = lambda e: str) -> Any:
    """The type a setting is kept or shown as: its declared type without ``None``, a
    number's range or a ``Literal``'s list (an ``int``), and an enum as ``enum_as`` says
    (its wire word: a ``str``)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(parts) == 1:
            return plain(parts[0], enum_as)
    if origin is Annotated:
        return plain(typing.get_args(annotation)[0], enum_as)
    if origin is typing.Literal:
        return type(typing.get_args(annotation)[0])
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return enum_as(annotation)
    return annotation


def kept_fields() -> dict[str, Any]:
    """Every setting as a checkpoint keeps it (``create_model``'s field definitions): its
    plain type, with its default from ``DEFAULTS`` (none: required)."""
    return {name: (plain(field.annotation), DEFAULTS.get(name, ...))
            for name, field in HostSettings.model_fields.items()}


def on_off() -> list[str]:
    """The settings that are a boolean, in order (a checkbox each in the host's box)."""
    return [name for name, field in HostSettings.model_fields.items()
            if plain(field.annotation) is bool]
