"""A room's state, and ``evolve``: the one way a record of its log changes it.

The lasting state (``RoomState``: what the log rebuilds) and the runtime state
(``Runtime``: connections and timers, which a restart forgets) are what ``decide``
(room.py) reads.  ``decide`` never changes the ``RoomState`` it is given: ``Draft``, one
step being decided, works on a fork of it (``RoomState.fork``), on which each record it
makes is applied by ``evolve`` at once, so that the rest of the step sees it; it returns
the records, and the room's owner folds ``evolve`` over them on its own state (``fold``)
once they are saved.  A refusal, even after a record, leaves the room as it was: only the
fork saw the record.

A room is the fold of ``evolve`` over its log from its last checkpoint (``replay``,
restore.py); a live room takes the same way, so a room rebuilt from its log is by
construction the room that wrote it.  ``evolve`` changes the state it is given (the
engine's ``Match`` is mutable: copying it for every card would cost more than the rest of
a move), which is why a step forks once rather than copying at every record.

``game`` counts the match's records (``match``, ``deal``, ``act``): the number actions
name.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from app.bot_levels import DEFAULT_SEAT_BOT
from app.double_dummy import DoubleDummy
from app.rules import Action, Event, Match, RuleSet
from app.rules.cards import mask_of_ids
from app.rules.deal import DealState
from app.rules.view import WireMemo
from app.rules.wire import ActionJson

from .effects import Effect
from .frames import (
    ChatLine,
    HintFrame,
    JsonObject,
    MatchSummary,
    ReviewPayload,
    RoomEvent,
)
from .host_settings import ROOM_SETTINGS
from .records import (
    GAME_KINDS,
    Acted,
    BackInLobby,
    Chatted,
    Checkpoint,
    Dealt,
    HistoryAdded,
    HostSet,
    MatchBegun,
    NextDealAt,
    ReadySet,
    Record,
    Recorded,
    RestoreError,
    RulesSet,
    Seat,
    SeatSet,
    SettingsSet,
)
from .wire_enums import ChatKind, SeatEventKind, TableLine

CHAT_KEEP = 50
HISTORY_KEEP = 10


@dataclass(frozen=True, slots=True)
class Chance:
    """What a room draws from outside (the server's secure source; a seeded one in
    tests): the core makes no random choice of its own."""

    token: Callable[[], str]                           # a new seat token (128 bits)
    deal: Callable[[RuleSet], tuple[list[int], int]]   # a shuffled deal: hands, kitty
    match: Callable[[RuleSet, int], Match]             # a match and its first dealer
    below: Callable[[int], int]                        # a uniform choice in range(n)
    between: Callable[[float, float], float]           # a uniform float (a bot's delay)


@dataclass(frozen=True, slots=True)
class Timing:
    """Server settings the room runs by."""

    bot_delay: float        # seconds a bot "thinks" before acting (jittered)
    host_grace: float       # a disconnected host keeps the role this long (a reload)
    # real seconds one second of a room's turn time lasts (1; the browser tests run a
    # turn's time out sooner with less)
    turn_time_scale: float = 1.0


@dataclass(slots=True)
class Conn:
    """A bound connection: its seat (``None`` for a spectator)."""

    seat: int | None


DealKey = tuple[int, int]  # match number, deal index
ReviewKey = tuple[int, int, int]  # match number, deal index, seat


@dataclass(slots=True)
class Runtime:
    """What a room knows only while it runs: connections, timers, asked bots and hints,
    reviews made (a restart forgets it all, and the room goes on from its log)."""

    version: int                                     # every change of the room
    conns: dict[int, Conn] = field(default_factory=dict)
    grace: dict[int, float] = field(default_factory=dict)  # seat -> when its bot steps in
    host_gone_since: float | None = None
    bot_plan: tuple[int, float] | None = None        # (game, due) of the next bot move
    thinking: int | None = None                      # the game a bot is thinking about
    # a bot's move decided before its planned time: (game, seat, level, action)
    bot_move: tuple[int, int, str, Action] | None = None
    turn_clock: tuple[int, float] | None = None      # (game, until): the turn timer
    timed_out: int | None = None     # the game at which a person's time ran out
    hint: HintFrame | None = None    # practice: the hint for the current game
    hint_asked: int | None = None
    # practice: the hints of the last matches' deals, (match, deal) -> {action index:
    # action}, so that a review never calls a followed hint a mistake
    hinted: dict[DealKey, dict[int, ActionJson]] = field(default_factory=dict)
    reviews: dict[ReviewKey, ReviewPayload] = field(default_factory=dict)  # made, kept
    reviews_asked: set[ReviewKey] = field(default_factory=set)
    # the deals' double dummies the reviews found: the same for every seat's review
    double_dummies: dict[DealKey, DoubleDummy] = field(default_factory=dict)
    wire_memo: WireMemo = field(default_factory=WireMemo)  # hands and tricks on the wire
    # seat -> what the bot standing in for its away person did, from its stand-in until
    # that person's own next move: shown to them when they are back (issue 39)
    stood_in: dict[int, list[ActionJson]] = field(default_factory=dict)

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns.values() if c.seat is not None}

    def humans_connected(self) -> bool:
        return any(c.seat is not None for c in self.conns.values())

    def spectator_count(self) -> int:
        return sum(1 for c in self.conns.values() if c.seat is None)

    def conns_of_seat(self, seat: int) -> tuple[int, ...]:
        return tuple(i for i, c in self.conns.items() if c.seat == seat)


# Happenings of one step, in order: a room event, or game events with the deal they
# happened in (whose bidder may hear more of them).
Happening = RoomEvent | tuple[DealState | None, list[Event]]


class RoomState:
    """Seats, rules, settings, chat and the match of one room, and its log position."""

    def __init__(self, code: str, rules: RuleSet, practice: bool, grace_seconds: int,
                 next_deal_pause: int, chance: Chance) -> None:
        self.code = code
        self.rules = rules
        self.practice = practice
        self.seats = [Seat(i, bot=DEFAULT_SEAT_BOT) for i in range(rules.options.players)]
        self.host: int | None = 0
        self.grace_seconds = grace_seconds
        self.next_deal_pause = next_deal_pause
        self.turn_seconds = 0
        self.bot_pace = "normal"
        self.spectator_chat = True
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_KEEP)
        self.history: deque[MatchSummary] = deque(maxlen=HISTORY_KEEP)
        # by number of a match of ``history``: the token hash of the person who held each
        # seat when it ended (``None``: nobody's, a bot played it), who alone may review
        # that seat's decisions in it (reviews.py); not on the wire
        self.holders: dict[int, list[str | None]] = {}
        self.match: Match | None = None
        self.match_number = 0
        self.recorded_match = 0          # the last match whose record is stored
        self.next_deal_at: float | None = None
        self.chance = chance
        self.seq = 0                     # records in the log so far (the next one's number)
        self.game = 0                    # records of the match so far

    def fork(self) -> RoomState:
        """A copy that ``evolve`` may change without changing this one (what ``decide``
        works on): what records change in place (the lists of seats, the chat, the
        history, the holders, the match's current deal) is copied; the rest is shared, as
        nothing changes it in place (seats, frozen; chat lines, summaries, finished deals,
        the rule set)."""
        other = RoomState.__new__(RoomState)
        other.__dict__.update(self.__dict__)
        other.seats = list(self.seats)
        other.chat = self.chat.copy()
        other.history = self.history.copy()
        other.holders = dict(self.holders)
        if self.match is not None:
            other.match = self.match.copy()
        return other


def controller(state: RoomState, seat: int) -> str | None:
    """The bot level playing ``seat`` now, ``None`` when its person does."""
    s = state.seats[seat]
    if s.bot is not None:
        return s.bot
    return DEFAULT_SEAT_BOT if s.away else None


class Draft:
    """One step being decided: a fork of the room (``state``: the room as this step has
    made it so far), the records it made (each applied to the fork by ``evolve`` as it is
    made), what happened, the effects so far.  The room it was made from is never
    changed."""

    __slots__ = (
        "changed",
        "effects",
        "happened",
        "kept",
        "now",
        "records",
        "rt",
        "state",
        "timing",
        "welcomed",
    )

    def __init__(self, state: RoomState, rt: Runtime, timing: Timing, now: float) -> None:
        self.state = state.fork()
        self.rt = rt
        self.timing = timing
        self.now = now
        self.records: list[Record] = []
        self.happened: list[Happening] = []
        self.effects: list[Effect] = []
        self.kept: list[tuple[int, JsonObject]] = []  # finished matches' game records
        self.changed = False        # something only the runtime shows changed
        self.welcomed: list[int] = []

    def record(self, record: Record, deal: DealState | None = None,
               action: Action | None = None) -> None:
        """Make ``record`` and ``evolve`` the fork by it; its game events happened in
        ``deal`` (``action``: an ``Acted`` record's, when the caller has it: not parsed
        back from the record).  The engine raises (and nothing is recorded) if a game
        action is not allowed."""
        events = evolve(self.state, record, action)
        self.records.append(record)
        if events:
            self.happened.append((deal, events))

    def checkpoint(self) -> None:
        """Record the whole room but its match (which is then ``None``): the log before
        this record is no longer needed."""
        state = self.state
        state.match = None
        # This step's earlier records (a seat's "again" before the match it starts) are
        # in the checkpoint: dropped, so that the save starts with it and the store moves
        # its checkpoint here (a checkpoint after other records would not replay).
        state.seq -= len(self.records)
        self.records = []
        self.record(checkpoint_of(state))

    def act(self, seat: int, action: Action) -> None:
        """Record a game action and evolve the fork by it (the engine raises, and nothing
        is recorded, if the rules refuse it)."""
        match = self.state.match
        assert match is not None
        self.record(Acted.of(seat, action), match.deal, action)

    def happen(self, item: Happening) -> None:
        self.happened.append(item)

    def emit(self, effect: Effect) -> None:
        self.effects.append(effect)

    def say(self, seat: int | None, name: str, text: str, kind: ChatKind) -> None:
        """A chat line (a person's, a reaction, or the table's own), heard by everyone."""
        at = round(self.now, 3)
        self.record(Chatted(seat=seat, name=name, text=text, at=at, kind=kind))
        self.happen({"type": "chat", "seat": seat, "name": name, "text": text, "at": at,
                     "kind": kind})

    def announce(self, kind: SeatEventKind, seat: int) -> None:
        """Something happened to ``seat``: an event, and a system line in the chat."""
        self.happen({"type": kind, "seat": seat})
        s = self.state.seats[seat]
        self.say(None, s.name or s.player_name, TableLine(kind), ChatKind.SYSTEM)


def checkpoint_of(state: RoomState) -> Checkpoint:
    return Checkpoint(
        code=state.code, practice=state.practice, rules=state.rules.to_json(),
        seats=[s.to_data() for s in state.seats], host=state.host,
        chat=list(state.chat), history=list(state.history), holders=dict(state.holders),
        match_number=state.match_number, recorded_match=state.recorded_match,
        game=state.game, **{name: getattr(state, name) for name in ROOM_SETTINGS})


def take_checkpoint(state: RoomState, data: Checkpoint) -> None:
    """``state`` as checkpoint ``data`` has it, whatever it was (a step's records before
    its checkpoint are dropped from its save: the checkpoint holds what they did)."""
    state.code = data.code
    state.rules = RuleSet.shared(data.rules)
    state.practice = data.practice
    state.grace_seconds = data.grace_seconds
    state.next_deal_pause = data.next_deal_pause
    state.seats = [Seat.from_data(i, s) for i, s in enumerate(data.seats)]
    state.host = data.host
    for name in ROOM_SETTINGS:
        setattr(state, name, getattr(data, name))
    state.chat = deque(data.chat, maxlen=CHAT_KEEP)
    state.history = deque(data.history, maxlen=HISTORY_KEEP)
    state.holders = dict(data.holders)
    state.match = None
    state.match_number = data.match_number
    state.recorded_match = data.recorded_match
    state.next_deal_at = None
    state.game = data.game


def fold(state: RoomState, records: Iterable[Record]) -> RoomState:
    """``state`` after ``records``: ``evolve`` by each in turn (in place, as ``evolve``)."""
    for record in records:
        evolve(state, record)
    return state


def evolve(state: RoomState, record: Record, action: Action | None = None) -> list[Event]:
    """``state`` after ``record``, changed in place (see the module); the game events it
    made.  ``action``: an ``Acted`` record's action, when the caller has it."""
    events: list[Event] = []
    match record:
        case Acted(seat=seat):
            assert state.match is not None, "an action outside a match"
            events = list(state.match.apply(seat, action or record.action))
        case Dealt(dealer=dealer, hands=hands, kitty=kitty):
            match = state.match
            if match is None or match.dealer != dealer:
                raise RestoreError(f"a deal by seat {dealer} out of turn")
            events = match.start_deal([mask_of_ids(h) for h in hands], mask_of_ids(kitty))
            state.seats[:] = [s.copy(ready=False) if s.ready else s for s in state.seats]
            state.next_deal_at = None
        case SeatSet(seat=index, data=data):
            scored = None if state.match is None else len(state.match.scored)
            state.seats[index] = Seat.from_data(index, data).after(state.seats[index],
                                                                   scored)
        case ReadySet(seat=index):
            state.seats[index] = state.seats[index].copy(ready=True)
        case NextDealAt(at=at):
            state.next_deal_at = at
        case Chatted():
            state.chat.append(record.line)
        case MatchBegun(dealer=dealer):
            state.match = state.chance.match(state.rules, dealer)
            state.match_number += 1
            # everyone seated now plays from the first deal
            state.seats[:] = [s.copy(again=False, from_deal=0) for s in state.seats]
        case HostSet(seat=host):
            state.host = host
        case RulesSet(rules=raw):
            rules = RuleSet.shared(raw)
            n = rules.options.players
            seats = state.seats[:n]
            seats.extend(Seat(i, bot=DEFAULT_SEAT_BOT) for i in range(len(seats), n))
            state.seats = seats
            state.rules = rules
        case SettingsSet():
            _settings(state, record)
        case Recorded(match=number):
            state.recorded_match = number
        case HistoryAdded(match=summary):
            state.history.append(summary)
            _note_holders(state, summary["number"])
        case BackInLobby():
            state.match = None
            state.seats[:] = [s.copy(again=False, ready=False) for s in state.seats]
            state.next_deal_at = None
        case Checkpoint():
            take_checkpoint(state, record)
    state.seq += 1
    if isinstance(record, GAME_KINDS):
        state.game += 1
    return events


def _note_holders(state: RoomState, number: int) -> None:
    """Who held each seat as match ``number`` ended (its summary is logged then): the
    person of the seat, unless a bot stood in for a takeover still pending (that person
    played none of it); only the matches ``history`` keeps."""
    state.holders[number] = [None if s.takeover else s.token_hash for s in state.seats]
    kept = {h["number"] for h in state.history}
    for old in [n for n in state.holders if n not in kept]:
        del state.holders[old]


def _settings(state: RoomState, record: SettingsSet) -> None:
    for name in ROOM_SETTINGS:  # the record holds the settings changed, None the others
        value = getattr(record, name)
        if value is not None:
            setattr(state, name, value)
