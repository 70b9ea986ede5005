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
| `deal` | `dealer`, `hands`, `kitty` | a deal as dealt (docs/spec/GAME-RECORD.md) |
| `act` | `seat` and the action | a game action (docs/spec/GAME-RECORD.md) |
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

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, cast, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    create_model,
    field_validator,
)

from app.rules import Action, parse_action
from app.rules.actions import BidValue

from .codes import hash_token, token_matches
from .frames import ChatLine, JsonObject, MatchSummary
from .host_settings import ROOM_SETTINGS, HostSettings, kept_fields
from .wire_enums import ChatKind


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    sparse: ClassVar[bool] = False  # the JSON form leaves out the fields that are None

    def to_json(self) -> str:
        """The stored form: compact JSON, keys in field order, UTF-8 as it is."""
        return self.model_dump_json(exclude_none=self.sparse)


class SeatData(BaseModel):
    """Who holds a seat and who plays it (``Seat``), as logged: never the token itself."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    away: bool = False
    ready: bool = False
    again: bool = False


@dataclass(frozen=True)
class Seat:
    """A seat of a room as it is now (``SeatData`` is its logged form): who holds it (a
    person's token hash, or nobody) and who plays it.

    The states a seat can be in:

    - lobby, empty: ``token_hash is None``, ``bot`` = the level that will fill it at the start;
    - a person: ``token_hash`` set, ``bot is None`` (``away`` while a bot stands in for them);
    - a bot, after the start: ``token_hash is None``, ``bot`` = its level;
    - a takeover pending: ``token_hash`` set *and* ``bot`` set; the bot finishes the deal,
      the person plays from the next one (``takeover``).

    ``from_deal`` is not logged: ``evolve`` derives it from the match when a seat record
    lets a person play (state.py), so every log, an old one too, replays to it; a
    checkpoint holds no match, and a new match sets it to 0 again.
    """

    index: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    away: bool = False
    ready: bool = False
    again: bool = False       # match over: this person said "Play again"
    # the score sheet's row (0-based) from which this seat's person plays it: the rows
    # before are a bot's (a late joiner); 0 for a seat played from the match's start
    from_deal: int = 0

    @property
    def human(self) -> bool:
        return self.token_hash is not None

    @property
    def takeover(self) -> bool:
        return self.token_hash is not None and self.bot is not None

    @property
    def player_name(self) -> str:
        """The name of whoever plays the seat now (a pending person is not playing yet)."""
        return self.name if self.name and not self.bot else f"Bot {self.index + 1}"

    def copy(self, **changes: object) -> Seat:
        """This seat with ``changes`` (a seat is frozen: it is replaced, never edited)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def claimed(self, name: str, token: str) -> Seat:
        """This seat taken by a person, who holds ``token`` (a new one: only its hash is
        kept)."""
        return replace(self, name=name, token_hash=hash_token(token), away=False,
                       ready=False, again=False)

    def holds(self, token: str) -> bool:
        """Whether ``token`` is this seat's."""
        return token_matches(token, self.token_hash)

    def after(self, before: Seat, scored: int | None) -> Seat:
        """This seat (just logged) with its ``from_deal``, ``before`` being the seat until
        now and ``scored`` the match's scored deals (``None``: no match).  A person who
        starts to play the seat during a match (a bot's seat taken over, as a deal
        starts) plays from the next row to score; the same person keeps their row
        whatever else changes (away, ready, again)."""
        if scored is None or not self.human or self.takeover:
            start = 0
        elif before.human and not before.takeover and before.token_hash == self.token_hash:
            start = before.from_deal
        else:
            start = scored
        return replace(self, from_deal=start)

    def to_data(self) -> SeatData:
        return SeatData(name=self.name, token_hash=self.token_hash, bot=self.bot,
                        away=self.away, ready=self.ready, again=self.again)

    @classmethod
    def from_data(cls, index: int, data: SeatData) -> Seat:
        return cls(index, data.name, data.token_hash, data.bot, data.away, data.ready,
                   data.again)


class _CheckpointHead(_Record):
    k: Literal["room"] = "room"
    code: str
    practice: bool
    rules: JsonObject
    seats: list[SeatData]
    host: int | None
    grace_seconds: int  # the first two settings, in every checkpoint
    next_deal_pause: int


# The settings a checkpoint of version 2's logs holds (tests/rooms/test_log_v2.py): a
# later one is left out of the JSON while at its default (``Checkpoint.LATER``).
V2_SETTINGS = frozenset({"grace_seconds", "next_deal_pause", "turn_seconds", "bot_pace",
                         "spectator_chat"})

# Every other setting as a checkpoint keeps it, before the chat: declared in
# host_settings.py with its default there (what a room had before it existed).  mypy
# sees none of them (they are read by name, ``ROOM_SETTINGS``).
if TYPE_CHECKING:
    _CheckpointSettings = _CheckpointHead
else:
    _CheckpointSettings = create_model(
        "_CheckpointSettings", __base__=_CheckpointHead, __module__=__name__,
        **{name: field for name, field in kept_fields().items()
           if name not in _CheckpointHead.model_fields})


class _CheckpointTail(_Record):
    chat: list[ChatLine] = []
    history: list[MatchSummary] = []
    # by match of ``history``: its seats' holders (``RoomState.holders``); none in a log
    # written before issue 36
    holders: dict[int, list[str | None]] = {}
    match_number: int
    recorded_match: int
    game: int


class Checkpoint(_CheckpointTail, _CheckpointSettings):
    """The whole room but its match: the log before it is no longer needed.  Its fields,
    in order: the head's, every setting (host_settings.py), the tail's."""

    # Fields added after older logs were written, left out of the JSON while at their
    # default: what the code before them wrote, byte for byte (tests/rooms/test_log_v2.py).
    # A new field of the checkpoint goes here too (CONTRIBUTING.md, "A field on a log
    # record"); a new setting is here by itself.
    LATER: ClassVar[frozenset[str]] = frozenset(
        {"holders", *(name for name in ROOM_SETTINGS if name not in V2_SETTINGS)})

    def to_json(self) -> str:
        """As ``_Record``'s, without the ``LATER`` fields at their default."""
        fields = type(self).model_fields
        leave = {name for name in self.LATER if getattr(self, name) == fields[name].default}
        return self.model_dump_json(exclude=leave or None)

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


_NOT_ACTION = frozenset({"k", "seat"})


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
        # the fields as they are (a dump would copy them): read on every replayed move
        return parse_action({k: v for k, v in self.__dict__.items()
                             if v is not None and k not in _NOT_ACTION})


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


class _SettingsKind(_Record):
    sparse: ClassVar[bool] = True
    k: Literal["settings"] = "settings"


class SettingsSet(HostSettings, _SettingsKind):
    """The settings the host changed (only those): the fields of ``HostSettings``
    (host_settings.py), after ``k``."""

    model_config = _Record.model_config


class Chatted(_Record):
    k: Literal["chat"] = "chat"
    seat: int | None
    name: str
    text: str
    at: float
    kind: ChatKind = ChatKind.TEXT

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
_RECORD_TYPES: tuple[type, ...] = get_args(get_args(Record)[0])  # every record class

_RECORD: TypeAdapter[Record] = TypeAdapter(Record)


class RestoreError(ValueError):
    """Stored data that does not load as a room: an entry that is no record (broken JSON,
    wrong types, an unknown kind, nested too deep), records that do not replay, a log
    with a gap or without its checkpoint (a damaged database, or a bug).  The room answers
    ``room_damaged`` and stays stored for inspection."""


def record_of_json(text: object) -> Record:
    """A stored entry's record (its JSON text); ``RestoreError`` if it is none, whatever
    the store held (not text, not JSON, any shape)."""
    try:
        return _RECORD.validate_json(text)  # type: ignore[arg-type]  # checked by pydantic
    except (ValueError, TypeError, RecursionError) as exc:  # ValidationError is a ValueError
        raise RestoreError(f"a stored entry is no record: {_short(exc)}") from exc


def as_record(entry: object) -> Record:
    """``entry`` if it is a record already, else the record of its parsed JSON
    (``RestoreError`` if none)."""
    return cast(Record, entry) if isinstance(entry, _RECORD_TYPES) else record_of_data(entry)


def record_of_data(data: object) -> Record:
    """The record of an entry already parsed from JSON (``RestoreError`` if none)."""
    try:
        return _RECORD.validate_python(data)
    except (ValueError, TypeError, RecursionError) as exc:
        raise RestoreError(f"a stored entry is no record: {_short(exc)}") from exc


def _short(exc: BaseException, limit: int = 500) -> str:
    """What went wrong, for the log: an entry nested deep makes a long message."""
    text = str(exc)
    return text if len(text) <= limit else text[:limit] + "..."
