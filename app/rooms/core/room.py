"""``RoomCore``: one room as a pure state machine.

``handle(input, now)`` is the only entry point.  It applies the input to the room's
lasting state (``RoomState``, which logs every change) and its runtime state (who is
connected, timers), settles what follows (``settle.py``: the host, the next deal,
takeovers, bots, hints), and returns a ``Step``: the log entries to save, then the
frames to send, bots and hints to ask for, and when to be woken.  A refusal raises
``RoomError`` before anything changed.

Two numbers count changes: ``version`` every change of the room (connections, chat,
seats...), ``game`` only the match's (``RoomState.game``): actions name ``game``, so
nothing but the match can make an action stale.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.bots import BEST_BOT
from app.rules import Action, Event, Match, RuleSet
from app.rules.deal import DealState
from app.rules.view import WireMemo

from . import flow, lobby, reviews, settle, views
from .effects import (
    AskHint,
    BotMoved,
    Connect,
    Disconnect,
    Effect,
    HintReady,
    Input,
    JoinRequest,
    Received,
    ReviewReady,
    Save,
    Send,
    Step,
    Think,
    Tick,
)
from .errors import RoomError
from .frames import ChatKind, HintFrame, JoinedRoom, RoomEvent, SeatEventKind
from .messages import (
    ActionMessage,
    Again,
    BackToLobby,
    ChatIn,
    Hello,
    Leave,
    React,
    Ready,
    Rematch,
    ReviewAsk,
    RoomMessage,
    RulesMessage,
    SeatBot,
    SettingsMessage,
    Start,
)
from .seats import Seat
from .state import Entry, RoomState


@dataclass(slots=True)
class Conn:
    """A bound connection: its seat (``None`` for a spectator)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class Timing:
    """Server settings the room runs by."""

    bot_delay: float        # seconds a bot "thinks" before acting (jittered)
    host_grace: float       # a disconnected host keeps the role this long (a reload)


# Happenings of one step, in order: a room event, or game events with the deal they
# happened in (whose bidder may hear more of them).
Happening = RoomEvent | tuple[DealState | None, list[Event]]


class RoomCore:
    def __init__(self, state: RoomState, timing: Timing, rng: random.Random) -> None:
        self.state = state
        self.timing = timing
        self.rng = rng                      # bot delays' jitter
        self.version = state.seq
        self.conns: dict[int, Conn] = {}
        self.grace: dict[int, float] = {}   # seat -> when its away bot steps in
        self.host_gone_since: float | None = None
        self.bot_plan: tuple[int, float] | None = None  # (game, due) of the next bot move
        self.thinking: int | None = None    # the game a bot is thinking about
        # a bot's move decided before its planned time: (game, seat, level, action)
        self.bot_move: tuple[int, int, str, Action] | None = None
        self.turn_clock: tuple[int, float] | None = None  # (game, until): the turn timer
        self.timed_out: int | None = None   # the game at which a person's time ran out
        self.hint: HintFrame | None = None  # practice: the hint for the current game
        self.hint_asked: int | None = None
        self.reviews = reviews.ReviewCache()  # finished deals' reviews, asked for
        self.wire_memo = WireMemo()           # hands and tricks on the wire, for the views
        # the step in progress
        self._happened: list[Happening] = []
        self._effects: list[Effect] = []
        self._records: list[tuple[int, dict[str, Any]]] = []
        self._changed = False
        self._welcomed: list[int] = []
        self.now = 0.0                      # the time of the input being handled

    # -- making rooms -----------------------------------------------------------------

    @classmethod
    def create(cls, code: str, rules: RuleSet, practice: bool, name: str, grace_seconds: int,
               next_deal_pause: int, timing: Timing, rng: random.Random,
               bot_level: str | None = None,
               bot_pace: str | None = None) -> tuple[RoomCore, str, Save]:
        """A new room with its creator in seat 0 as the host: ``(room, token, save)``;
        ``bot_level`` and ``bot_pace`` set the other seats' bots (a practice table)."""
        state = RoomState(code, rules, practice, grace_seconds, next_deal_pause, rng)
        host = Seat(0)
        token = host.claim(name)
        state.seats[0] = host
        if bot_level is not None:
            for seat in state.seats[1:]:
                seat.bot = bot_level
        if bot_pace is not None:
            state.bot_pace = bot_pace
        state.checkpoint()
        entries = state.take_pending()
        return cls(state, timing, rng), token, Save(0, entries, [])

    @classmethod
    def restore(cls, entries: list[Entry], first_seq: int, timing: Timing,
                rng: random.Random) -> RoomCore:
        """A room loaded from its log (``RestoreError`` if it does not replay)."""
        return cls(RoomState.replay(entries, first_seq, rng), timing, rng)

    # -- questions --------------------------------------------------------------------

    @property
    def code(self) -> str:
        return self.state.code

    @property
    def match(self) -> Match | None:
        return self.state.match

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns.values() if c.seat is not None}

    def humans_connected(self) -> bool:
        return any(c.seat is not None for c in self.conns.values())

    def spectator_count(self) -> int:
        return sum(1 for c in self.conns.values() if c.seat is None)

    def controller(self, seat: int) -> str | None:
        """The bot level playing ``seat`` now, ``None`` when its person does."""
        s = self.state.seats[seat]
        if s.bot is not None:
            return s.bot
        return BEST_BOT if s.away else None

    def playing_seat(self, conn: Conn) -> int | None:
        """The seat whose cards a connection may see (not a pending takeover's)."""
        seat = conn.seat
        if seat is None or self.state.seats[seat].takeover:
            return None
        return seat

    def seat_for_token(self, token: str) -> Seat | None:
        return next((s for s in self.state.seats if s.holds(token)), None)

    def conns_of_seat(self, seat: int) -> tuple[int, ...]:
        return tuple(i for i, c in self.conns.items() if c.seat == seat)

    # -- the one entry point ----------------------------------------------------------

    def handle(self, event: Input, now: float) -> Step:
        """Apply one input; the step to carry out.  ``RoomError``: refused, nothing
        changed."""
        self._happened = []
        self._effects = []
        self._records = []
        self._changed = False
        self._welcomed = []
        self.now = now
        reply: JoinedRoom | None = None
        # keyword patterns: a positional one looks ``__match_args__`` up by a new
        # string each time, which the attribute cache keeps (memory.py)
        match event:
            case Received(conn=conn, message=message):
                self._received(conn, message, now)
            case Tick():
                settle.tick(self, now)
            case BotMoved(seat=seat, level=level, game=game, action=action):
                flow.bot_moved(self, seat, level, game, action)
            case Connect(conn=conn, hello=hello):
                self._connect(conn, hello)
            case Disconnect(conn=conn):
                if self.conns.pop(conn, None) is not None:
                    self._changed = True
            case HintReady(seat=seat, game=game, hint=hint):
                self._hint_ready(seat, game, hint)
            case ReviewReady(seat=seat, match=match_number, deal=deal, review=review):
                reviews.ready(self, seat, match_number, deal, review)
            case JoinRequest(name=name, seat=seat):
                reply = lobby.join(self, name, seat)
        settle.settle(self, now)
        entries = self.state.take_pending()
        if entries:
            self._changed = True
        if self._changed:
            self.version += 1
            self._effects.extend(views.state_sends(self, self._happened))
            self._resend_hint()
        save = None
        if entries or self._records:
            save = Save(self.state.seq - len(entries), entries, self._records)
        step = Step(save, self._effects, settle.next_wake(self), reply)
        # an idle room keeps nothing of its last step (its frames can be kilobytes)
        self._happened, self._effects, self._records, self._welcomed = [], [], [], []
        return step

    # -- what handlers use ------------------------------------------------------------

    def happened(self, item: Happening) -> None:
        self._happened.append(item)

    def say(self, seat: int | None, name: str, text: str, kind: ChatKind) -> None:
        """A chat line (a person's, a reaction, or the table's own), heard by everyone."""
        at = round(self.now, 3)
        self.state.add_chat({"seat": seat, "name": name, "text": text, "at": at,
                             "kind": kind})
        self.happened({"type": "chat", "seat": seat, "name": name, "text": text, "at": at,
                       "kind": kind})

    def announce(self, kind: SeatEventKind, seat: int) -> None:
        """Something happened to ``seat``: an event, and a system line in the chat."""
        self.happened({"type": kind, "seat": seat})
        s = self.state.seats[seat]
        self.say(None, s.name or s.player_name, kind, "system")

    def emit(self, effect: Effect) -> None:
        self._effects.append(effect)

    def keep_record(self, match_number: int, record: dict[str, Any]) -> None:
        self._records.append((match_number, record))

    def touch(self) -> None:
        """Something only the runtime state shows changed (a new version, new views)."""
        self._changed = True

    def game_events(self, events: list[Event], deal: DealState | None) -> None:
        if events:
            self._happened.append((deal, events))

    # -- handlers ---------------------------------------------------------------------

    def _received(self, conn: int, message: RoomMessage, now: float) -> None:
        c = self.conns.get(conn)
        if c is None:
            raise RoomError("hello_required", "say hello first")
        seat = c.seat
        match message:
            case ActionMessage(game=game, action=action):
                flow.play(self, seat, game, action)
            case Ready():
                flow.ready(self, seat)
            case ChatIn(text=text):
                lobby.chat(self, seat, text)
            case React(reaction=reaction):
                lobby.react(self, seat, reaction)
            case Start():
                flow.start(self, seat)
            case RulesMessage(rules=rules):
                lobby.set_rules(self, seat, rules)
            case SeatBot(seat=target, level=level):
                lobby.seat_bot(self, seat, target, level)
            case SettingsMessage():
                lobby.settings(self, seat, message.model_dump(exclude={"type"},
                                                              exclude_none=True), now)
            case ReviewAsk():
                reviews.ask(self, seat)
            case Rematch():
                flow.rematch(self, seat)
            case Again():
                flow.again(self, seat)
            case BackToLobby():
                flow.back_to_lobby(self, seat)
            case Leave():
                lobby.leave(self, seat)
            case _:  # pragma: no cover - the parser admits nothing else
                raise RoomError("unknown_type", "unknown message")

    def _connect(self, conn: int, hello: Hello) -> None:
        if hello.token is not None and hello.spectate:
            raise RoomError("bad_message", "hello: either a token or spectate, not both")
        if hello.token is not None:
            seat = self.seat_for_token(hello.token)
            if seat is None:
                raise RoomError("bad_token", "this token holds no seat in this room")
            self.conns[conn] = Conn(seat.index)
            self.grace.pop(seat.index, None)
            if seat.away:
                seat = seat.copy(away=False)
                self.state.set_seat(seat)
                self.announce("returned", seat.index)
        elif hello.spectate:
            if self.state.practice:
                raise RoomError("private_room", "a practice table cannot be watched")
            self.conns[conn] = Conn(None)
        else:
            raise RoomError("bad_message", "hello: give your token, or spectate: true")
        self._changed = True
        self._welcomed.append(conn)
        self.emit(Send((conn,), {"type": "welcome", "room": self.code,
                                 "seat": self.conns[conn].seat, "version": self.version + 1,
                                 "game": self.state.game}))

    def _hint_ready(self, seat: int, game: int, hint: dict[str, Any]) -> None:
        if game != self.state.game:
            return  # the table moved on: the hint answers an old question
        frame: HintFrame = {"type": "hint", "game": game, "seat": seat,
                            "action": hint["action"], "key": hint["key"],
                            "params": hint["params"]}
        self.hint = frame
        conns = self.conns_of_seat(seat)
        if conns:  # (kept for a connection that comes back: ``_resend_hint``)
            self.emit(Send(conns, frame))

    def _resend_hint(self) -> None:
        """A connection that just said hello gets the current hint after its state."""
        hint = self.hint
        if hint is None or hint["game"] != self.state.game:
            return
        for conn in self._welcomed:
            if self.conns[conn].seat == hint["seat"]:
                self.emit(Send((conn,), hint))

    def ask_bot(self, seat: int, level: str) -> None:
        match = self.state.match
        assert match is not None
        self.thinking = self.state.game
        self.emit(Think(seat, level, self.state.game, match.copy()))

    def ask_hint(self, seat: int) -> None:
        match = self.state.match
        assert match is not None
        self.hint_asked = self.state.game
        self.emit(AskHint(seat, self.state.game, match.copy()))
