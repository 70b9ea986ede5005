"""Every message of the rooms protocol as a Pydantic model, both directions.

docs/protocol.md is the prose version of this file.  Inbound WebSocket messages are
parsed strictly by ``parse_client_message`` (unknown types, unknown keys and wrong types
are rejected); inbound HTTP bodies by the ``*Body`` models.  Outbound messages are built
as plain dicts on the hot path and must validate against the ``Server*`` models (the
tests check every frame they receive).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import RoomError

NAME_MAX = 32
CHAT_MAX = 200
SEAT = Annotated[int, Field(ge=0, le=4)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- client -> server (WebSocket) ------------------------------------------------------


class Hello(_Strict):
    """First message of every connection: a seat's token, or ``spectate: true``."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    spectate: bool = False


class ActionMessage(_Strict):
    """A game action in the record's shape, on the room version the client last saw."""

    type: Literal["action"]
    version: Annotated[int, Field(ge=0)]
    action: dict[str, Any]


class Start(_Strict):
    type: Literal["start"]


class RulesMessage(_Strict):
    """Host, lobby: replace the rule set (``{"preset": NAME, **overrides}``)."""

    type: Literal["rules"]
    rules: dict[str, Any]


class SeatBot(_Strict):
    """Host, lobby: the bot level that will fill this empty seat at the start."""

    type: Literal["seat_bot"]
    seat: SEAT
    level: Annotated[str, Field(min_length=1, max_length=32)]


class SettingsMessage(_Strict):
    """Host, any time: the room's timing settings (only the keys given change)."""

    type: Literal["settings"]
    grace_seconds: Annotated[int, Field(ge=0, le=600)] | None = None
    next_deal_pause: Annotated[int, Field(ge=0, le=300)] | None = None


class Ready(_Strict):
    """Seated human, between deals: ready for the next deal."""

    type: Literal["ready"]


class ChatIn(_Strict):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX)]


class Rematch(_Strict):
    """Host, after the match: a new match with the same seats and rules."""

    type: Literal["rematch"]


class Leave(_Strict):
    """Seated human, lobby only: give the seat back (the token stops working)."""

    type: Literal["leave"]


class Ping(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | ActionMessage | Start | RulesMessage | SeatBot | SettingsMessage | Ready | ChatIn
    | Rematch | Leave | Ping,
    Field(discriminator="type"),
]
CLIENT_TYPES: tuple[str, ...] = ("hello", "action", "start", "rules", "seat_bot", "settings",
                                 "ready", "chat", "rematch", "leave", "ping")
_client_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)


class BadMessage(RoomError):
    """An inbound message that is not one of ours; ``code`` goes on the wire."""


def parse_client_message(text: str | bytes, max_bytes: int) -> Any:
    """The model for one inbound frame, or ``BadMessage`` saying precisely what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage("bad_message", "send JSON text frames, not binary")
    if len(text.encode()) > max_bytes:
        raise BadMessage("too_large", f"a message may be at most {max_bytes} bytes")
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("bad_json", "that message is not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise BadMessage("unknown_type", f"unknown message type {kind!r}; "
                         f"one of {', '.join(CLIENT_TYPES)}")
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as exc:
        raise BadMessage("bad_message", _describe(exc, kind)) from None


def _describe(exc: ValidationError, kind: str) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"][1:]) or "message"
    if err["type"] == "extra_forbidden":
        return f"{kind}: {loc} is not a field of this message"
    if err["type"] == "missing":
        return f"{kind}: {loc} is missing"
    return f"{kind}: {loc}: {err['msg']}"


# -- server -> client (WebSocket) ------------------------------------------------------


class HttpError(BaseModel):
    """A refusal: its stable code and a message a player understands (also the HTTP
    error body's ``error``)."""

    code: str
    message: str


class SeatInfo(BaseModel):
    """One seat as everyone sees it (never a token)."""

    seat: int
    name: str | None
    bot: str | None           # the bot level playing (or to play) this seat; None: a person
    human: bool               # a person holds this seat (perhaps away, perhaps from next deal)
    connected: bool
    away: bool                # a bot plays for this disconnected person
    host: bool
    ready: bool
    takeover: bool            # a person takes this bot seat over from the next deal


class ChatLine(BaseModel):
    seat: int
    name: str
    text: str
    at: float


class ChatOut(ChatLine):
    type: Literal["chat"] = "chat"


class RoomSettings(BaseModel):
    grace_seconds: int
    next_deal_pause: int
    bot_levels: list[str]


class RoomInfo(BaseModel):
    """``view.room``: the room around the game, the same for everyone but ``you_are_host``
    and ``your_seat``."""

    code: str
    practice: bool
    host: int | None
    you_are_host: bool
    your_seat: int | None     # the seat of this connection, also while a takeover is pending
    seats: list[SeatInfo]
    spectators: int
    rules: dict[str, Any]
    rules_resolved: dict[str, Any]
    settings: RoomSettings
    next_deal_at: float | None
    chat: list[ChatLine]
    match_number: int
    record_available: bool


class Contract(BaseModel):
    bidder: int
    bid: int | str | None
    trump: str | None
    called: str | None
    partner: int | None
    grand: bool


class View(BaseModel):
    """The protocol's ``view``: SeatView.to_wire() plus ``room`` (and ``hint``)."""

    model_config = ConfigDict(extra="allow")

    phase: Literal["lobby", "auction", "discard", "lead", "play", "deal_over", "match_over"]
    you: int | None
    turn: int | None
    hand: list[str]
    legal: list[dict[str, Any]]
    contract: Contract | None
    trick: list[dict[str, Any]]
    tricks_won: list[int]
    scores: list[int]
    players: int
    dealer: int | None
    kitty: list[str] | None
    discards: list[str] | None
    score_sheet: list[list[int]]
    winners: list[int]
    room: RoomInfo
    hint: dict[str, Any] | None = None


class StateOut(BaseModel):
    type: Literal["state"] = "state"
    version: int
    view: View


class WelcomeOut(BaseModel):
    type: Literal["welcome"] = "welcome"
    room: str
    seat: int | None
    version: int


class ErrorOut(HttpError):
    type: Literal["error"] = "error"


class PongOut(BaseModel):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[StateOut | WelcomeOut | ErrorOut | ChatOut | PongOut,
                          Field(discriminator="type")]
server_adapter: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def error_message(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


# -- HTTP bodies and answers -----------------------------------------------------------


def clean_name(value: str) -> str:
    """A display name: trimmed, 1..32 printable characters."""
    name = " ".join(value.split())
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > NAME_MAX:
        raise ValueError(f"a name may be at most {NAME_MAX} characters")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("a name cannot hold control characters")
    return name


class CreateRoomBody(_Strict):
    name: Annotated[str, Field(max_length=100)]
    rules: dict[str, Any] | None = None
    practice: bool = False


class JoinBody(_Strict):
    name: Annotated[str, Field(max_length=100)]
    seat: SEAT | None = None


class CreatedRoom(BaseModel):
    room: str
    seat: int
    token: str
    url: str


class JoinedRoom(BaseModel):
    seat: int
    token: str
    takeover: bool            # True: the seat is a bot's until the next deal starts


class PublicRoom(BaseModel):
    """``GET /api/rooms/{code}``: lobby info for anyone with the link."""

    room: str
    phase: str
    practice: bool
    version: int
    host: int | None
    seats: list[SeatInfo]
    spectators: int
    rules: dict[str, Any]
    rules_resolved: dict[str, Any]
    match_number: int
    joinable: list[int]       # seats a join would get (free in the lobby, bot seats after)


class HttpErrorBody(BaseModel):
    error: HttpError
