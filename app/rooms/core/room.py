"""``decide``: one room's answer to one input, and ``RoomCore``, the room as the server
holds it.

``decide(state, runtime, timing, input, now)`` applies the input (flow.py: the match;
lobby.py: the room around it; reviews.py), settles what follows (``flow.settle``: the
host, the next deal, takeovers, bots, hints), and returns a ``Step``: the records to
save (each already applied to the state by ``evolve``, state.py), then the frames to
send (views.py), bots and hints to ask for, and when to be woken.  A refusal raises
``RoomError`` before anything changed.

Two numbers count changes: ``version`` every change of the room (connections, chat,
seats...), ``game`` only the match's (``RoomState.game``): actions name ``game``, so
nothing but the match can make an action stale.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules import Match, RuleSet

from . import flow, lobby, reviews, views
from .effects import (
    BotMoved,
    Connect,
    Disconnect,
    HintPayload,
    HintReady,
    Input,
    JoinRequest,
    Received,
    ReviewReady,
    Save,
    Send,
    Step,
    Tick,
)
from .errors import RoomError
from .frames import HintFrame, JoinedRoom
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
from .records import Record, SeatSet
from .seats import Seat
from .state import Chance, Conn, Draft, RoomState, Runtime, Timing, controller, replay

__all__ = ["Conn", "RoomCore", "Timing", "decide"]


def decide(state: RoomState, rt: Runtime, timing: Timing, event: Input, now: float) -> Step:
    """Apply one input; the step to carry out.  ``RoomError``: refused, nothing
    changed."""
    d = Draft(state, rt, timing, now)
    reply: JoinedRoom | None = None
    match event:
        case Received(conn=conn, message=message):
            _received(d, conn, message)
        case Tick():
            flow.tick(d)
        case BotMoved(seat=seat, level=level, game=game, action=action):
            flow.bot_moved(d, seat, level, game, action)
        case Connect(conn=conn, hello=hello):
            _connect(d, conn, hello)
        case Disconnect(conn=conn):
            if rt.conns.pop(conn, None) is not None:
                d.changed = True
        case HintReady(seat=seat, game=game, hint=hint):
            _hint_ready(d, seat, game, hint)
        case ReviewReady(seat=seat, match=match_number, deal=deal, review=review):
            reviews.ready(d, seat, match_number, deal, review)
        case JoinRequest(name=name, seat=seat):
            reply = lobby.join(d, name, seat)
    flow.settle(d)
    entries = state.take_pending()
    if d.changed or entries:
        rt.version += 1
        d.effects.extend(views.state_sends(state, rt, d.happened))
        _resend_hint(d)
    save = None
    if entries or d.kept:
        save = Save(state.seq - len(entries), entries, d.kept)
    return Step(save, d.effects, flow.next_wake(d), reply)


def _received(d: Draft, conn: int, message: RoomMessage) -> None:
    c = d.rt.conns.get(conn)
    if c is None:
        raise RoomError("hello_required", "say hello first")
    seat = c.seat
    match message:
        case ActionMessage(game=game, action=action):
            flow.play(d, seat, game, action)
        case Ready():
            flow.ready(d, seat)
        case ChatIn(text=text):
            lobby.chat(d, seat, text)
        case React(reaction=reaction):
            lobby.react(d, seat, reaction)
        case Start():
            flow.start(d, seat)
        case RulesMessage(rules=rules):
            lobby.set_rules(d, seat, rules)
        case SeatBot(seat=target, level=level):
            lobby.seat_bot(d, seat, target, level)
        case SettingsMessage():
            lobby.settings(d, seat, message)
        case ReviewAsk():
            reviews.ask(d, seat)
        case Rematch():
            flow.rematch(d, seat)
        case Again():
            flow.again(d, seat)
        case BackToLobby():
            flow.back_to_lobby(d, seat)
        case Leave():
            lobby.leave(d, seat)
        case _:  # pragma: no cover - the parser admits nothing else
            raise RoomError("unknown_type", "unknown message")


def _connect(d: Draft, conn: int, hello: Hello) -> None:
    state, rt = d.state, d.rt
    if hello.token is not None and hello.spectate:
        raise RoomError("bad_message", "hello: either a token or spectate, not both")
    if hello.token is not None:
        seat = seat_for_token(state, hello.token)
        if seat is None:
            raise RoomError("bad_token", "this token holds no seat in this room")
        rt.conns[conn] = Conn(seat.index)
        rt.grace.pop(seat.index, None)
        if seat.away:
            d.record(SeatSet(seat=seat.index, data=seat.copy(away=False).to_data()))
            d.announce("returned", seat.index)
    elif hello.spectate:
        if state.practice:
            raise RoomError("private_room", "a practice table cannot be watched")
        rt.conns[conn] = Conn(None)
    else:
        raise RoomError("bad_message", "hello: give your token, or spectate: true")
    d.changed = True
    d.welcomed.append(conn)
    d.emit(Send((conn,), {"type": "welcome", "room": state.code,
                          "seat": rt.conns[conn].seat, "version": rt.version + 1,
                          "game": state.game}))


def _hint_ready(d: Draft, seat: int, game: int, hint: HintPayload) -> None:
    if game != d.state.game:
        return  # the table moved on: the hint answers an old question
    frame: HintFrame = {"type": "hint", "game": game, "seat": seat,
                        "action": dict(hint["action"]), "key": hint["key"],
                        "params": hint["params"]}
    d.rt.hint = frame
    conns = d.rt.conns_of_seat(seat)
    if conns:  # (kept for a connection that comes back: ``_resend_hint``)
        d.emit(Send(conns, frame))


def _resend_hint(d: Draft) -> None:
    """A connection that just said hello gets the current hint after its state."""
    hint = d.rt.hint
    if hint is None or hint["game"] != d.state.game:
        return
    for conn in d.welcomed:
        if d.rt.conns[conn].seat == hint["seat"]:
            d.emit(Send((conn,), hint))


def seat_for_token(state: RoomState, token: str) -> Seat | None:
    return next((s for s in state.seats if s.holds(token)), None)


class RoomCore:
    """One room as the server holds it: its state and runtime, and ``handle`` (which is
    ``decide``)."""

    __slots__ = ("rt", "state", "timing")

    def __init__(self, state: RoomState, timing: Timing) -> None:
        self.state = state
        self.rt = Runtime(version=state.seq)
        self.timing = timing

    # -- making rooms -----------------------------------------------------------------

    @classmethod
    def create(cls, code: str, rules: RuleSet, practice: bool, name: str, grace_seconds: int,
               next_deal_pause: int, timing: Timing, chance: Chance,
               bot_level: str | None = None,
               bot_pace: str | None = None) -> tuple[RoomCore, str, Save]:
        """A new room with its creator in seat 0 as the host: ``(room, token, save)``;
        ``bot_level`` and ``bot_pace`` set the other seats' bots (a practice table)."""
        state = RoomState(code, rules, practice, grace_seconds, next_deal_pause, chance)
        token = chance.token()
        state.seats[0] = Seat(0).claimed(name, token)
        if bot_level is not None:
            state.seats[1:] = [s.copy(bot=bot_level) for s in state.seats[1:]]
        if bot_pace is not None:
            state.bot_pace = bot_pace
        state.checkpoint()
        entries = state.take_pending()
        return cls(state, timing), token, Save(0, entries, [])

    @classmethod
    def restore(cls, entries: Sequence[Record | object], first_seq: int, timing: Timing,
                chance: Chance) -> RoomCore:
        """A room loaded from its log (``RestoreError`` if it does not replay)."""
        return cls(replay(entries, first_seq, chance), timing)

    # -- questions --------------------------------------------------------------------

    @property
    def code(self) -> str:
        return self.state.code

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def version(self) -> int:
        return self.rt.version

    @property
    def conns(self) -> dict[int, Conn]:
        return self.rt.conns

    def connected_seats(self) -> set[int]:
        return self.rt.connected_seats()

    def humans_connected(self) -> bool:
        return self.rt.humans_connected()

    def spectator_count(self) -> int:
        return self.rt.spectator_count()

    def controller(self, seat: int) -> str | None:
        """The bot level playing ``seat`` now, ``None`` when its person does."""
        return controller(self.state, seat)

    def seat_for_token(self, token: str) -> Seat | None:
        return seat_for_token(self.state, token)

    def conns_of_seat(self, seat: int) -> tuple[int, ...]:
        return self.rt.conns_of_seat(seat)

    # -- the one entry point ----------------------------------------------------------

    def handle(self, event: Input, now: float) -> Step:
        """Apply one input; the step to carry out.  ``RoomError``: refused, nothing
        changed."""
        return decide(self.state, self.rt, self.timing, event, now)
