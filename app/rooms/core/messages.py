"""What clients send: every WebSocket message and HTTP body as a strict Pydantic model.

Inbound WebSocket messages are one discriminated union, ``ClientMessage``; a connection
reads a frame into one (app/rooms/server/connection.py, ``parse_client_message``:
unknown types, unknown keys and wrong types are refused with a precise ``BadMessage``).
What the server sends is in ``frames.py``.  Declarations only: nothing here runs when a
message is read.
"""

from __future__ import annotations

import typing
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.text import CHAT_MAX

from .frames import JsonObject
from .host_settings import PACE, HostSettings
from .wire_enums import (
    BOT_LEVEL_MAX,
    TOKEN_MAX,
    Reaction,
)

SEAT = Annotated[int, Field(ge=0, le=4)]
LEVEL = Annotated[str, Field(min_length=1, max_length=BOT_LEVEL_MAX)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- client -> server (WebSocket) ------------------------------------------------------


class Hello(_Strict):
    """First message of every connection: a seat's token, or ``spectate: true``."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=TOKEN_MAX)] | None = None  # a seat's token
    spectate: bool = False  # watch with the public view


class ActionMessage(_Strict):
    """A game action in the record's shape, naming the ``game`` number it answers (the
    ``game`` of the last state the client saw)."""

    type: Literal["action"]
    game: Annotated[int, Field(ge=0)]  # the game number of the state this answers
    action: JsonObject  # the game record's shape without seat: {"bid": 7}, {"play": "KD"}


class Start(_Strict):
    type: Literal["start"]


class RulesMessage(_Strict):
    """Host, lobby: replace the rule set (``{"preset": NAME, **overrides}``)."""

    type: Literal["rules"]
    rules: JsonObject


class SeatBot(_Strict):
    """Host, lobby: the bot level that will fill this empty seat at the start."""

    type: Literal["seat_bot"]
    seat: SEAT
    level: LEVEL


class _SettingsType(_Strict):
    type: Literal["settings"]


class SettingsMessage(HostSettings, _SettingsType):
    """Host, any time: the room's settings (only the keys given change).  When a connected
    person's ``turn_seconds`` run out, the best bot plays that one move for them (the event
    ``timed_out``)."""

    # the fields: every setting of ``HostSettings`` (host_settings.py), after ``type``
    model_config = _Strict.model_config


class Ready(_Strict):
    """Seated human, between deals: ready for the next deal."""

    type: Literal["ready"]


class ChatIn(_Strict):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX)]


class React(_Strict):
    """A quick reaction, shown in the chat."""

    type: Literal["react"]
    reaction: Annotated[Reaction, Field(strict=False)]


class ReviewAsk(_Strict):
    """Seated person: review my decisions in a finished deal of this match (one of
    ``view.room.reviewable``; by default the last), or of an earlier match of the room
    (``match``: one of ``view.room.history``, ``deal`` one of its ``reviewable``)."""

    type: Literal["review"]
    deal: Annotated[int, Field(ge=0)] | None = None  # its index in the match (void deals count)
    match: Annotated[int, Field(ge=1)] | None = None  # the match's number (null: this match)


class Rematch(_Strict):
    """Host, after the match: a new match with the same seats and rules (after a short
    countdown every screen shows when other people are at the table)."""

    type: Literal["rematch"]


class Again(_Strict):
    """Seated person, after the match: "Play again" (when every connected person has
    said it, the next match starts)."""

    type: Literal["again"]


class BackToLobby(_Strict):
    """Host, after the match: back to the lobby, to change rules, seats and bots."""

    type: Literal["lobby"]


class Leave(_Strict):
    """Seated person who is not the host, in the lobby or after the match: give the seat
    back (the token stops working)."""

    type: Literal["leave"]


class Ping(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | ActionMessage | Start | RulesMessage | SeatBot | SettingsMessage | Ready | ChatIn
    | React | ReviewAsk | Rematch | Again | BackToLobby | Leave | Ping,
    Field(discriminator="type"),
]
# What a bound connection sends to its room (``hello`` binds it, ``ping`` never reaches it).
RoomMessage = (ActionMessage | Start | RulesMessage | SeatBot | SettingsMessage | Ready | ChatIn
               | React | ReviewAsk | Rematch | Again | BackToLobby | Leave)
# Every message's ``type``, read off the union (so a new message cannot be left out).
CLIENT_TYPES: tuple[str, ...] = tuple(
    typing.get_args(model.model_fields["type"].annotation)[0]
    for model in typing.get_args(typing.get_args(ClientMessage)[0]))
client_adapter: TypeAdapter[Hello | RoomMessage | Ping] = TypeAdapter(ClientMessage)


# -- HTTP bodies and answers -----------------------------------------------------------


class CreateRoomBody(_Strict):
    name: Annotated[str, Field(max_length=100)]  # the host's name
    rules: JsonObject | None = None  # a rule set: {"preset": NAME, **options}
    practice: bool = False  # a private table against bots
    bot_level: LEVEL | None = None  # the bots' level
    bot_pace: PACE | None = None  # how quickly the bots move
    # the club the room belongs to (docs/clubs.md): needs a member's key (Bearer)
    club: Annotated[str, Field(max_length=40)] | None = None


class JoinBody(_Strict):
    name: Annotated[str, Field(max_length=100)]
    seat: SEAT | None = None
