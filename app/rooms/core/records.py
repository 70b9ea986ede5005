"""A room's log: a tagged union of typed records, one frozen class a kind, whose JSON
form is derived from the class.

Every lasting change of a room is one record; folding ``evolve`` (state.py) over a room's
records from its last checkpoint rebuilds the room.  The JSON form is what the code
before these classes wrote by hand (a dict with its kind under ``k``), byte for byte, so
that rooms saved then load now (tests/rooms/test_log_v2.py):

| k | fields | what |
|---|---|---|
| `room` | the whole room but its match | a checkpoint: at creation and before each match |
| `match` | `dealer` | a new match, its first dealer |
| `deal` | `dealer`, `hands`, `kitty` | a deal as dealt (GAME-RECORD.md) |
| `act` | `seat` and the action | a game action (GAME-RECORD.md) |
| `seat` | `seat`, `data` | a seat's holder, bot level, away, ready and again flags |
| `ready` | `seat` | a person is ready for the next deal |
| `rules`, `settings`, `host`, `chat`, `history` | | the room around it |
| `next_deal_at`, `recorded`, `lobby` | | between deals, a match's record kept, back to the lobby |

Why pydantic models rather than frozen dataclasses with a hand-made codec: the classes
are then the only description of the format.  Pydantic reads a stored entry straight
from its JSON text into the right class by the ``k`` discriminator (one pass, in Rust,
with a precise message for a damaged entry) and writes it back in field order with no
code of ours to keep in step; a dataclass would need a decoder and an encoder written
beside each class, which is what this module replaces.  Two kinds leave out what is
unset (``sparse``): an action has only its own keys, settings only the changed ones.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    field_validator,
)

from app.rules import Action, parse_action
from app.rules.actions import BidValue

from .frames import ChatKind, ChatLine, MatchSummary

JsonObject = dict[str, JsonValue]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    sparse: ClassVar[bool] = False  # the JSON form leaves out the fields that are None

    def to_json(self) -> str:
        """The stored form: compact JSON, keys in field order, UTF-8 as it is."""
        return self.model_dump_json(exclude_none=self.sparse)


class SeatData(BaseModel):
    """Who holds a seat and who plays it (seats.py), as logged: never the token itself."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    away: bool = False
    ready: bool = False
    again: bool = False


class Checkpoint(_Record):
    """The whole room but its match: the log before it is no longer needed."""

    k: Literal["room"] = "room"
    code: str
    practice: bool
    rules: JsonObject
    seats: list[SeatData]
    host: int | None
    grace_seconds: int
    next_deal_pause: int
    turn_seconds: int = 0
    bot_pace: str = "normal"
    spectator_chat: bool = True
    chat: list[ChatLine] = []
    history: list[MatchSummary] = []
    match_number: int
    recorded_match: int
    game: int

    @field_validator("chat", mode="before")
    @classmethod
    def kind_defaults(cls, lines: object) -> object:
        """Chat lines logged before reactions existed have no kind: they were text."""
        if isinstance(lines, list):
            return [{**line, "kind": line.get("kind", "text")} if isinstance(line, dict)
                    else line for line in lines]
        return lines


class MatchBegun(_Record):
    k: Literal["match"] = "match"
    dealer: int


class Dealt(_Record):
    k: Literal["deal"] = "deal"
    dealer: int
    hands: list[list[str]]
    kitty: list[str]


class Acted(_Record):
    """A game action in the game record's shape: ``seat`` and the action's own keys."""

    sparse: ClassVar[bool] = True
    k: Literal["act"] = "act"
    seat: int
    bid: BidValue | None = None
    discard: list[str] | None = None
    play: str | None = None
    call: str | None = None
    grand: bool | None = None

    @classmethod
    def of(cls, seat: int, action: Action) -> Acted:
        return cls(seat=seat, **action.to_json())

    @property
    def action(self) -> Action:
        return parse_action(self.model_dump(exclude_none=True, exclude={"k", "seat"}))


class SeatSet(_Record):
    k: Literal["seat"] = "seat"
    seat: int
    data: SeatData


class ReadySet(_Record):
    k: Literal["ready"] = "ready"
    seat: int


class NextDealAt(_Record):
    k: Literal["next_deal_at"] = "next_deal_at"
    at: float | None


class HostSet(_Record):
    k: Literal["host"] = "host"
    seat: int | None


class RulesSet(_Record):
    k: Literal["rules"] = "rules"
    rules: JsonObject


class SettingsSet(_Record):
    """The settings the host changed (only those)."""

    sparse: ClassVar[bool] = True
    k: Literal["settings"] = "settings"
    grace_seconds: int | None = None
    next_deal_pause: int | None = None
    turn_seconds: int | None = None
    bot_pace: str | None = None
    spectator_chat: bool | None = None


class Chatted(_Record):
    k: Literal["chat"] = "chat"
    seat: int | None
    name: str
    text: str
    at: float
    kind: ChatKind = "text"

    @property
    def line(self) -> ChatLine:
        return {"seat": self.seat, "name": self.name, "text": self.text, "at": self.at,
                "kind": self.kind}


class HistoryAdded(_Record):
    k: Literal["history"] = "history"
    match: MatchSummary


class Recorded(_Record):
    """The record of match ``match`` is stored."""

    k: Literal["recorded"] = "recorded"
    match: int


class BackInLobby(_Record):
    k: Literal["lobby"] = "lobby"


Record = Annotated[
    Checkpoint | MatchBegun | Dealt | Acted | SeatSet | ReadySet | NextDealAt | HostSet
    | RulesSet | SettingsSet | Chatted | HistoryAdded | Recorded | BackInLobby,
    Field(discriminator="k")]
GAME_KINDS = (MatchBegun, Dealt, Acted)  # what the ``game`` number counts

_RECORD: TypeAdapter[Record] = TypeAdapter(Record)


def record_of_json(text: str | bytes) -> Record:
    """A stored entry's record; ``pydantic.ValidationError`` (a ``ValueError``) if it is
    none."""
    return _RECORD.validate_json(text)


def record_of_data(data: object) -> Record:
    """The record of an entry already parsed from JSON (``ValueError`` if none)."""
    return _RECORD.validate_python(data)
