"""What the server sends: every WebSocket frame and HTTP answer, declared once.

Frames are ``TypedDict``s: built as plain dicts on the hot path, checked by mypy where
they are built, and validated by the tests with extra keys forbidden (``frame_adapter``).
docs/protocol.md's field tables, the JSON Schema and the client's typedefs are generated
from these classes (``python -m app.rooms.contract_gen``) and a test keeps them equal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Literal, NotRequired

from pydantic import JsonValue, TypeAdapter, with_config
from typing_extensions import TypedDict

from app.double_dummy import DoubleDummySkipped
from app.rules.errors import Refusal
from app.rules.phases import Phase
from app.rules.wire import FORBID, ActionJson, GameEventWire, WireView

from .host_settings import HostSettings, plain
from .wire_enums import BotPace, ChatKind, CountdownKind, ErrorCode, SeatEventKind

JsonObject = dict[str, JsonValue]  # a JSON object as it comes: rules, parameters


class WireShape:
    """``Annotated`` metadata of a field that Python still builds as a plain ``str`` or
    dict: on the wire it is one of ``shapes`` (an enum, a ``TypedDict``), which the
    generated schema, docs and client types use (pydantic's runtime checks ignore it)."""

    def __init__(self, *shapes: type) -> None:
        self.shapes = shapes


PaceWord = Annotated[str, WireShape(BotPace)]
PhaseWord = Annotated[str, WireShape(Phase)]
ErrorCodeWord = Annotated[str, WireShape(ErrorCode)]
RefusalWord = Annotated[str, WireShape(Refusal)]


# -- the room around the game ---------------------------------------------------------


@with_config(FORBID)
class SeatInfo(TypedDict):
    """One seat as everyone sees it (never a token)."""

    seat: int
    name: str | None          # the person's name; "Bot N" for a bot after the start
    bot: str | None           # the bot level playing (or to play) this seat; None: a person
    human: bool               # a person holds this seat (perhaps away, perhaps from next deal)
    connected: bool
    away: bool                # a bot plays for this disconnected person
    host: bool
    ready: bool               # between deals: this person is ready for the next deal
    takeover: bool            # a person takes this bot seat over from the next deal
    joining: str | None       # that person's name (``name`` is the bot playing it now)
    again: bool               # match over: this person said "Play again"
    from_deal: int            # score sheet row (0-based) its person plays from (a bot's before)




@with_config(FORBID)
class ChatLine(TypedDict):
    """A chat line; ``system`` lines say what happened at the table (``text`` names the
    event, ``name`` whom it is about), ``reaction`` lines a quick reaction's id."""

    seat: int | None          # null: a spectator, or the table itself
    name: str
    text: str
    at: float                 # epoch seconds
    kind: ChatKind


@with_config(FORBID)
class Clock(TypedDict):
    """Whose time is running, and until when (the server owns the clock)."""

    seat: int
    until: float              # epoch seconds
    kind: CountdownKind       # a dropped person's grace, or the turn timer


@with_config(FORBID)
class MatchSummary(TypedDict):
    """A finished match of the room (``view.room.history``)."""

    number: int
    players: list[str]
    score_sheet: list[list[int]]
    totals: list[int]
    winners: list[int]
    # (Absent from a match logged before earlier matches could be reviewed: none may be.)
    # deals to review (score_sheet row i: deal reviewable[i]); in a view, empty unless
    # the connection's person held their seat as the match ended (views.history_for)
    reviewable: NotRequired[list[int]]  # deals to review; [] for anyone else (a view's)
    # (Absent from a match logged before late joiners were told apart: all 0.)
    from_deal: NotRequired[list[int]]  # by seat: the row its player plays from (a bot's before)


def _shown_settings() -> dict[str, object]:
    """Every setting of ``HostSettings`` as the view shows it: a plain JSON value (its
    number, its enum's word, its boolean), never ``None``."""
    return {name: plain(field.annotation, lambda shape: Annotated[str, WireShape(shape)])
            for name, field in HostSettings.model_fields.items()}


# The room's settings: every one of ``HostSettings`` (host_settings.py, where their
# meanings are) by its name, then the bot levels a seat may have.  To mypy a plain JSON
# object: the code reads the settings by name (``ROOM_SETTINGS``).
if TYPE_CHECKING:
    RoomSettings = dict[str, JsonValue]
else:
    # TypedDict's functional form: the keys are computed, so no class body can list them
    # (the settings first, as declared)
    RoomSettings = with_config(FORBID)(
        TypedDict("RoomSettings", {**_shown_settings(), "bot_levels": list[str]}))
    RoomSettings.__fields_from__ = HostSettings  # their meanings, for the docs


@with_config(FORBID)
class RoomInfo(TypedDict):
    """``view.room``: the same for everyone but ``you_are_host`` and ``your_seat``."""

    code: str
    practice: bool
    host: int | None
    you_are_host: bool
    your_seat: int | None     # this connection's seat, also while a takeover is pending
    seats: list[SeatInfo]
    spectators: int
    rules: JsonObject
    rules_resolved: JsonObject
    settings: RoomSettings
    next_deal_at: float | None  # epoch seconds: the next deal, or after a match the next match
    clock: Clock | None       # the seat being waited for against a clock
    chat: list[ChatLine]      # the last lines
    match_number: int
    record_available: bool
    history: list[MatchSummary]  # the room's finished matches, newest last
    reviewable: list[int]     # this match's deals a review may be asked of (their indices)
    # what a bot standing in for this connection's seat did while its person was away
    # (their own moves only: a discard too), until their own next move; [] for others
    stood_in: list[ActionJson]


@with_config(FORBID)
class View(WireView):
    """The protocol's ``view``: the engine's seat view plus the room."""

    room: RoomInfo


# -- room events (in a state frame's ``events``, beside the game's) -------------------


@with_config(FORBID)
class ChatEvent(ChatLine):
    """A chat line (text, system or reaction), as kept in ``view.room.chat``."""

    type: Literal["chat"]


@with_config(FORBID)
class SeatTaken(TypedDict):
    type: Literal["seat_taken"]
    seat: int
    name: str


@with_config(FORBID)
class SeatEvent(TypedDict):
    """Something happened to a seat: given back, a bot standing in for its away person,
    the person back, a pending person playing it from now on, a person's turn time ran
    out (the best bot played that move for them)."""

    type: SeatEventKind
    seat: int


@with_config(FORBID)
class HostChanged(TypedDict):
    type: Literal["host_changed"]
    seat: int | None


@with_config(FORBID)
class MatchStarted(TypedDict):
    type: Literal["match_started"]
    number: int


RoomEvent = ChatEvent | SeatTaken | SeatEvent | HostChanged | MatchStarted
Event = GameEventWire | RoomEvent


# -- frames ---------------------------------------------------------------------------


@with_config(FORBID)
class StateFrame(TypedDict):
    """After every change of the room: this connection's own view and what happened."""

    type: Literal["state"]
    version: int              # every change of the room
    game: int                 # changes of the match only: what an action names
    events: list[Event]       # what happened since the last state, as this connection may know it
    view: View


@with_config(FORBID)
class WelcomeFrame(TypedDict):
    type: Literal["welcome"]
    room: str
    seat: int | None
    version: int
    game: int


@with_config(FORBID)
class ErrorFrame(TypedDict):
    """A refusal, to the sender only: nothing changed."""

    type: Literal["error"]
    code: ErrorCodeWord
    message: str              # for the player to read (English)
    option: NotRequired[str]  # bad_rules: the option at fault
    reason: NotRequired[RefusalWord]  # why the rules refused an action, for any language
    params: NotRequired[dict[str, str | int]]  # what the reason names: n, card id, suit letter


@with_config(FORBID)
class HintFrame(TypedDict):
    """Practice rooms: what the strong bot would do now (for ``game``), and why."""

    type: Literal["hint"]
    game: int
    seat: int
    action: ActionJson
    key: str                  # the reason, an i18n key ("hint.bid_expected")
    params: JsonObject        # its parameters: card ids, suit letters, numbers


@with_config(FORBID)
class ReviewDecision(TypedDict):
    """One decision of the reviewed seat, judged by the strong bot."""

    index: int                # its position in the deal's actions
    phase: Phase              # auction, discard, lead or play
    trick: int | None         # the 1-based trick of a play
    chosen: ActionJson        # the action taken
    best: ActionJson          # the strong bot's choice
    chosen_points: float | None  # what the action taken was worth (expected points)
    best_points: float | None  # what the best was worth
    loss: float               # best_points - chosen_points (0: the best was chosen)
    loss_error: float | None  # the loss's standard error over the samples (null: unknown)
    samples: int              # the deals sampled
    hinted: bool              # practice: the hint at this decision was followed
    clear: bool               # a loss clear of the samples' noise: a mistake worth showing


@with_config(FORBID)
class Review(TypedDict):
    """A review of one seat's decisions in one finished deal (docs/bots.md)."""

    seat: int
    decisions: list[ReviewDecision]  # biggest losses first
    bidder: int | None
    contract: int | str | None  # the winning bid
    side_tricks: int | None   # what the bidder's side took (kitty trick included)
    double_dummy: int | None  # what it takes with perfect play (same counting)
    double_dummy_from_trick: int | None  # 1: from the first lead
    double_dummy_skipped: DoubleDummySkipped | None  # why none (null: there is; or no contract)
    points: float | None      # the seat's points in the deal
    total_loss: float         # the sum of the decisions' losses


@with_config(FORBID)
class ReviewFailed(TypedDict):
    """No review this time: asking again tries again."""

    error: str                # why, for the player
    busy: NotRequired[bool]   # the search workers were all busy


ReviewPayload = Review | ReviewFailed


@with_config(FORBID)
class ReviewFrame(TypedDict):
    """A person's review of their own decisions in a finished deal (asked for with
    ``review``): the strong bot's choices and what each was worth, biggest losses first,
    and the deal's double-dummy result (docs/bots.md)."""

    type: Literal["review"]
    match: int                # the room's match number
    deal: int                 # the deal's index in the match (void deals count)
    seat: int
    review: ReviewPayload     # a Review, or a ReviewFailed


@with_config(FORBID)
class PongFrame(TypedDict):
    type: Literal["pong"]


Frame = StateFrame | WelcomeFrame | ErrorFrame | HintFrame | ReviewFrame | PongFrame
frame_adapter: TypeAdapter[Frame] = TypeAdapter(Frame)  # the tests validate every frame


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def wire_text(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate (JSON's ``"\\ud800"``, which a
    client may send and an error may echo, e.g. as the rule option it names) becomes
    U+FFFD.  Every error the server sends, on a socket or over HTTP, goes through here."""
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


def error_frame(code: ErrorCode, message: str, option: str | None = None,
                reason: str | None = None,
                params: dict[str, str | int] | None = None) -> ErrorFrame:
    """An error frame: its texts may echo what a client sent (``wire_text``)."""
    frame: ErrorFrame = {"type": "error", "code": code, "message": wire_text(message)}
    if option is not None:
        frame["option"] = wire_text(option)
    if reason is not None:
        frame["reason"] = reason
        frame["params"] = params or {}
    return frame


# -- HTTP answers ---------------------------------------------------------------------


@with_config(FORBID)
class HttpError(TypedDict):
    code: ErrorCodeWord
    message: str              # for the player to read (English)
    option: NotRequired[str]
    params: NotRequired[dict[str, str | int]]  # bad_record: where it breaks (deal, action: 0-based)


@with_config(FORBID)
class HttpErrorBody(TypedDict):
    error: HttpError


@with_config(FORBID)
class CreatedRoom(TypedDict):
    room: str
    seat: int
    token: str
    url: str


@with_config(FORBID)
class JoinedRoom(TypedDict):
    seat: int
    token: str
    takeover: bool            # True: the seat is a bot's until the next deal starts


@with_config(FORBID)
class PublicRoom(TypedDict):
    """``GET /api/rooms/{code}``: lobby info for anyone with the link."""

    room: str
    phase: PhaseWord
    practice: bool
    version: int
    game: int
    host: int | None
    seats: list[SeatInfo]
    spectators: int
    rules: JsonObject
    rules_resolved: JsonObject
    match_number: int
    joinable: list[int]       # seats a join would get (free in the lobby, bot seats after)
