"""What goes into a room and what comes out: inputs and effects, plain data.

An input is one thing that happened (a connection said something, a timer fired, a bot
or a hint came back from its thread, an HTTP join); ``RoomCore.handle`` answers with a
``Step``: first ``save`` (the log's new records and finished game records to write;
nothing else may happen unless that write succeeds), then ``effects`` in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired

from pydantic import JsonValue
from typing_extensions import TypedDict

from app.double_dummy import DoubleDummy
from app.rules import Action, Match, RuleSet
from app.rules.wire import ActionJson

from .frames import Frame, JoinedRoom, JsonObject, ReviewPayload
from .messages import Hello, RoomMessage
from .records import Record

# -- what the bots' threads hand back -------------------------------------------------


class HintPayload(TypedDict):
    """A practice hint: the strong bot's action and its reason (``app.bots.hints``)."""

    action: ActionJson
    key: str                        # the reason, an i18n key ("hint.bid_expected")
    params: dict[str, JsonValue]    # its parameters: card ids, suit letters, numbers
    samples: NotRequired[int]



# -- inputs ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect:
    """Connection ``conn`` said hello."""

    conn: int
    hello: Hello


@dataclass(frozen=True, slots=True)
class Disconnect:
    conn: int


@dataclass(frozen=True, slots=True)
class Received:
    """A bound connection's message."""

    conn: int
    message: RoomMessage


@dataclass(frozen=True, slots=True)
class Tick:
    """The time asked for by the last ``Wake`` has come (or later)."""


@dataclass(frozen=True, slots=True)
class BotMoved:
    """A bot's decision for ``seat`` at ``game``, checked by the rules on its own copy."""

    seat: int
    level: str
    game: int
    action: Action


@dataclass(frozen=True, slots=True)
class HintReady:
    """A hint's action with its reason (``app.bots.hints.Hint.to_json()``)."""

    seat: int
    game: int
    hint: HintPayload


@dataclass(frozen=True, slots=True)
class ReviewReady:
    """A deal's review for ``seat`` (``app.bots.review.Review.to_json()``)."""

    seat: int
    match: int
    deal: int
    review: ReviewPayload


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """``POST /api/rooms/{code}/join``."""

    name: str
    seat: int | None


Input = (Connect | Disconnect | Received | Tick | BotMoved | HintReady | ReviewReady
         | JoinRequest)

# -- effects --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Save:
    """Append ``entries`` to the room's log as entries ``first_seq``, ``first_seq + 1``...
    and keep these finished matches' records (docs/spec/GAME-RECORD.md), in one transaction."""

    first_seq: int
    entries: list[Record]
    records: list[tuple[int, JsonObject]]
    # The entries start with a checkpoint: the log before it may be forgotten (the room
    # says so as it checkpoints; the store does not look into the records).
    checkpoint: bool = False


@dataclass(frozen=True, slots=True)
class Send:
    """One frame to these connections."""

    to: tuple[int, ...]
    frame: Frame


@dataclass(frozen=True, slots=True)
class Close:
    conn: int
    code: int


@dataclass(frozen=True, slots=True)
class Think:
    """Ask bot ``level`` for ``seat``'s move on ``match`` (a private copy; off the loop),
    then hand it back as ``BotMoved``."""

    seat: int
    level: str
    game: int
    match: Match


@dataclass(frozen=True, slots=True)
class AskHint:
    """Practice: compute the best bot's action for ``seat`` (off the loop), then hand it
    back as ``HintReady``."""

    seat: int
    game: int
    match: Match


@dataclass(frozen=True, slots=True)
class AskReview:
    """Review ``seat``'s decisions in a finished deal (off the loop, on request), then
    hand it back as ``ReviewReady``."""

    seat: int
    match: int
    deal: int
    rules: RuleSet
    record: JsonObject        # the deal in the game record's shape
    double_dummy: DoubleDummy | None = None  # the deal's, when an earlier review found it


@dataclass(frozen=True, slots=True)
class AskEarlierReview:
    """As ``AskReview``, for deal ``deal`` of the room's earlier match ``match``, which
    the room no longer holds: the adapter reads the deal and its rules from the match's
    stored record (docs/spec/GAME-RECORD.md), adds ``hints`` (the practice hints this seat was given
    in it, by action index), and hands back ``ReviewReady`` (a failed one if the record is
    gone)."""

    seat: int
    match: int
    deal: int
    hints: dict[str, ActionJson]
    double_dummy: DoubleDummy | None = None


Effect = Send | Close | Think | AskHint | AskReview | AskEarlierReview


@dataclass(slots=True)
class Step:
    save: Save | None
    effects: list[Effect] = field(default_factory=list)
    wake_at: float | None = None      # call ``handle(Tick())`` at this time (None: never)
    reply: JoinedRoom | None = None   # the answer to an HTTP join
