"""``decide``: one room's answer to one input (``RoomCore``, room_core.py, holds the room
it decides for).

``decide(state, runtime, timing, input, now)`` reads the room and returns a ``Step``: the
records to save, then the frames to send (views.py), bots and hints to ask for, and when
to be woken.  It never changes ``state``: the step is worked out on a fork of it
(``Draft``, state.py), where each record is applied by ``evolve`` as it is made so that
the rest of the step sees it (a game action here; flow.py: the match's course, start to
rematch; lobby.py: the room around it and who connects; reviews.py: hints and reviews;
then ``settle``, what follows).  The room's owner saves the records and folds ``evolve``
over them (``fold``, state.py), the same fold that rebuilds a room from its log.  The
runtime (connections, timers, bots asked: what a restart forgets anyway) is updated in
place.  A refusal raises ``RoomError``: the state is as it was wherever it comes, and the
handlers refuse before they touch the runtime (tests/rooms/test_core_decider.py checks
both).

Every game action goes through the engine (``evolve`` -> ``Match.apply``), which checks
the turn and the rules and raises before changing the fork; this module adds what the
engine cannot know: the game number the sender saw, and who plays a seat now (the person,
their bot while they are away, a bot until a takeover).

Settling, after every input: the host role passes on after its grace; a void deal is
dealt again; a finished deal sets the next deal's time; a finished match keeps its record
and its summary; a new deal lets pending people take their seats; a disconnected person
whose turn it is gets a grace period, a connected one the turn timer (if the host set
one); a bot whose turn it is gets a time to move (the room's pace), is asked at once and
its move is shown at that time, however long it searched; a practice player whose turn
it is gets a hint.  A bot standing in for an away person passes in the auction: it never
commits them.  Nothing runs while no person is connected: bots do not play to an empty
room.  ``tick`` does what time brings when the room's wake-up time (``next_wake``) comes.

Two numbers count changes: ``version`` every change of the room (connections, chat,
seats...), ``game`` only the match's (``RoomState.game``): actions name ``game``, so
nothing but the match can make an action stale.
"""

from __future__ import annotations

from typing import cast

from app.bot_levels import ADVISOR_BOT
from app.rules import PASS, Action, ActionError, Phase, parse_action
from app.rules.outcomes import Outcome
from app.rules.record import match_to_record
from app.rules.wire import ActionJson

from . import flow, lobby, reviews, views
from .effects import (
    AskHint,
    BotMoved,
    Connect,
    Disconnect,
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
from .frames import JoinedRoom
from .messages import (
    ActionMessage,
    Again,
    BackToLobby,
    ChatIn,
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
from .records import (
    Checkpoint,
    HistoryAdded,
    HostSet,
    NextDealAt,
    Recorded,
    SeatSet,
)
from .state import Draft, RoomState, Runtime, Timing, controller
from .wire_enums import ChatKind, ErrorCode, SeatEventKind, TableLine

__all__ = ["decide", "next_wake", "settle"]

PACE = {"relaxed": 1.2, "normal": 0.7, "fast": 0.3}  # seconds a bot move takes, on average


def decide(state: RoomState, rt: Runtime, timing: Timing, event: Input, now: float) -> Step:
    """The step that answers ``event``: the records to save (for the caller to fold
    ``evolve`` over once saved: ``fold``) and the effects.  ``state`` is read, never
    changed; ``rt``, the room's runtime, is updated.  ``RoomError``: refused, and
    neither changed."""
    d = Draft(state, rt, timing, now)
    reply: JoinedRoom | None = None
    match event:
        case Received(conn=conn, message=message):
            _received(d, conn, message)
        case Tick():
            tick(d)
        case BotMoved(seat=seat, level=level, game=game, action=action):
            flow.bot_moved(d, seat, level, game, action)
        case Connect(conn=conn, hello=hello):
            lobby.connect(d, conn, hello)
        case Disconnect(conn=conn):
            if rt.conns.pop(conn, None) is not None:
                d.changed = True
        case HintReady(seat=seat, game=game, hint=hint):
            reviews.hint_ready(d, seat, game, hint)
        case ReviewReady(seat=seat, match=match_number, deal=deal, review=review):
            reviews.ready(d, seat, match_number, deal, review)
        case JoinRequest(name=name, seat=seat):
            reply = lobby.join(d, name, seat)
    settle(d)
    entries = d.records
    if d.changed or entries:
        rt.version += 1
        d.effects.extend(views.state_sends(d.state, rt, d.happened))
        _resend_hint(d)
    save = None
    if entries or d.kept:
        save = Save(d.state.seq - len(entries), entries, d.kept,
                    checkpoint=bool(entries) and isinstance(entries[0], Checkpoint))
    return Step(save, d.effects, next_wake(d), reply)


def _received(d: Draft, conn: int, message: RoomMessage) -> None:
    c = d.rt.conns.get(conn)
    if c is None:
        raise RoomError(ErrorCode.HELLO_REQUIRED, "say hello first")
    seat = c.seat
    match message:
        case ActionMessage(game=game, action=action):
            play(d, seat, game, action)
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
        case ReviewAsk(deal=deal, match=match_number):
            reviews.ask(d, seat, deal, match_number)
        case Rematch():
            flow.rematch(d, seat)
        case Again():
            flow.again(d, seat)
        case BackToLobby():
            flow.back_to_lobby(d, seat)
        case Leave():
            lobby.leave(d, seat)
        case _:  # pragma: no cover - the parser admits nothing else
            raise RoomError(ErrorCode.UNKNOWN_TYPE, "unknown message")


def play(d: Draft, seat: int | None, game: int, raw: object) -> None:
    """A person's game action, answering ``game``."""
    if seat is None:
        raise RoomError(ErrorCode.NOT_SEATED, "spectators cannot play")
    state = d.state
    match = state.match
    if match is None:
        raise RoomError(ErrorCode.WRONG_PHASE, "the match has not started")
    try:
        action = parse_action(raw)  # a malformed action is refused as such, stale or not
    except ActionError as exc:
        raise RoomError(ErrorCode(exc.code), str(exc), reason=exc.reason,
                        params=exc.params) from None
    if game != state.game:
        raise RoomError(ErrorCode.STALE_GAME, f"the game is at {state.game}, not {game}: look at "
                        "the new state and try again", 409)
    if state.seats[seat].takeover:
        raise RoomError(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat until the next deal")
    try:
        d.act(seat, action)
    except ActionError as exc:
        raise RoomError(ErrorCode(exc.code), str(exc), reason=exc.reason,
                        params=exc.params) from None
    # Their own move: they have seen what the stand-in did for them.
    d.rt.stood_in.pop(seat, None)


def _resend_hint(d: Draft) -> None:
    """A connection that just said hello gets the current hint after its state."""
    hint = d.rt.hint
    if hint is None or hint["game"] != d.state.game:
        return
    for conn in d.welcomed:
        if d.rt.conns[conn].seat == hint["seat"]:
            d.emit(Send((conn,), hint))


# -- settling -------------------------------------------------------------------------


def settle(d: Draft) -> None:
    _pass_host(d)
    while _settle_match(d):
        pass  # a stand-in passed: settle the position that follows


def _settle_match(d: Draft) -> bool:
    """Settle the match; ``True`` when a move was made here and the new position needs
    settling too."""
    state, rt, now = d.state, d.rt, d.now
    match = state.match
    if match is None:
        return False
    current = match.deal
    if current is not None and current.outcome == Outcome.VOID and not match.finished:
        flow.deal(d)  # the live table always deals again at once
    phase = match.phase
    if phase == Phase.DEAL_OVER and state.next_deal_at is None:
        d.record(NextDealAt(at=now + state.next_deal_pause))
    if match.finished and state.recorded_match != state.match_number:
        names = [s.player_name for s in state.seats]
        d.kept.append((state.match_number, match_to_record(match, names)))
        d.record(Recorded(match=state.match_number))
        d.record(HistoryAdded(match={
            "number": state.match_number, "players": names,
            "score_sheet": [list(p) for p in match.scored], "totals": list(match.totals),
            "winners": list(match.winners), "reviewable": views.reviewable(match),
            "from_deal": [s.from_deal for s in state.seats]}))
    current = match.deal
    if (phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER) and current
            and not current.action_count):
        for seat in state.seats:
            if seat.takeover:  # a new deal: the pending person plays from now on
                d.record(SeatSet(seat=seat.index,
                                 data=seat.copy(bot=None, away=False).to_data()))
                d.announce(SeatEventKind.TOOK_OVER, seat.index)
    turn = match.turn
    for seat_index in list(rt.grace):
        if seat_index != turn:
            del rt.grace[seat_index]
    if turn is None or not rt.humans_connected():
        return False
    game = state.game
    level = controller(state, turn)
    if level is None:
        if turn not in rt.connected_seats():
            if turn not in rt.grace:  # the wait starts: named in the chat, once
                rt.grace[turn] = now + state.grace_seconds
                d.say(None, state.seats[turn].name or "", TableLine.WAITING_FOR,
                      ChatKind.SYSTEM)
            return False
        if state.turn_seconds and (rt.turn_clock is None or rt.turn_clock[0] != game):
            rt.turn_clock = (game, now + state.turn_seconds * d.timing.turn_time_scale)
        if state.practice and rt.hint_asked != game:
            rt.hint_asked = game
            d.emit(AskHint(turn, game, match.copy()))
        return False
    if rt.bot_plan is None or rt.bot_plan[0] != game:
        delay = PACE.get(state.bot_pace, 0.7) * d.timing.bot_delay
        rt.bot_plan = (game, now + delay * state.chance.between(0.7, 1.3))
    due = rt.bot_plan[1] <= now
    seat = state.seats[turn]
    if seat.away and seat.bot is None and match.phase == Phase.AUCTION:
        if not due:
            return False
        # A bot standing in for a person never commits them to a contract.
        d.act(turn, PASS)
        _stood_in(d, turn, PASS)
        return True
    held = rt.bot_move
    if held is not None and held[0] == game:
        # Decided while the pace's delay ran: shown at the planned time, so how long the
        # search took (no time at all for a forced card) shows nowhere.
        if not due:
            return False
        rt.bot_move = None
        if held[1] == turn and held[2] == level:
            d.act(turn, held[3])
            if seat.away and seat.bot is None:
                _stood_in(d, turn, held[3])
            return True
    if rt.thinking != game:
        ask_bot(d, turn, level)  # at once: the search runs while the delay passes
    return False


def _stood_in(d: Draft, seat: int, action: Action) -> None:
    """Remember what a stand-in did for an away person, to tell them when they are back
    (only their own seat's view carries it: a discard is theirs alone to know)."""
    d.rt.stood_in.setdefault(seat, []).append(cast(ActionJson, action.to_json()))


def ask_bot(d: Draft, seat: int, level: str) -> None:
    match = d.state.match
    assert match is not None
    d.rt.thinking = d.state.game
    d.emit(Think(seat, level, d.state.game, match.copy()))


def tick(d: Draft) -> None:
    """Do what is due (``settle`` follows, as after every input)."""
    state, rt, now = d.state, d.rt, d.now
    match = state.match
    if match is None or not rt.humans_connected():
        return
    if match.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER):
        at = state.next_deal_at  # the next deal, or a new match's countdown
        if at is not None and at <= now:
            if match.phase == Phase.DEAL_OVER:
                flow.deal(d)
            else:
                flow.new_match(d)
        return
    for seat_index, deadline in list(rt.grace.items()):
        if deadline <= now and match.turn == seat_index:
            del rt.grace[seat_index]
            d.record(SeatSet(seat=seat_index,
                             data=state.seats[seat_index].copy(away=True).to_data()))
            d.announce(SeatEventKind.STAND_IN, seat_index)
            d.rt.stood_in[seat_index] = []  # a new absence: only its moves are told
    clock = rt.turn_clock
    turn = match.turn
    if (clock is not None and clock[0] == state.game and clock[1] <= now and turn is not None
            and controller(state, turn) is None and rt.thinking != state.game):
        # The person's time ran out: the best bot plays this one move for them.
        rt.timed_out = state.game
        d.announce(SeatEventKind.TIMED_OUT, turn)
        ask_bot(d, turn, ADVISOR_BOT)


def next_wake(d: Draft) -> float | None:
    """When ``tick`` has something to do, or ``None``."""
    state, rt = d.state, d.rt
    times: list[float] = []
    if rt.host_gone_since is not None and rt.humans_connected():
        times.append(rt.host_gone_since + d.timing.host_grace)
    match = state.match
    if match is not None and rt.humans_connected():
        if (match.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER)
                and state.next_deal_at is not None):
            times.append(state.next_deal_at)
        times.extend(rt.grace.values())
        plan = rt.bot_plan
        if plan is not None and plan[0] == state.game and rt.thinking != state.game:
            times.append(plan[1])
        clock = rt.turn_clock
        if clock is not None and clock[0] == state.game and rt.thinking != state.game:
            times.append(clock[1])
    return min(times) if times else None


def _pass_host(d: Draft) -> None:
    """The host role goes to the next connected person when the host has been gone for
    ``host_grace`` seconds (at once if the host's seat is no longer a person's)."""
    state, rt, now = d.state, d.rt, d.now
    connected = rt.connected_seats()
    host = state.host
    if host is not None and host in connected:
        rt.host_gone_since = None
        return
    if host is not None and state.seats[host].human:
        if rt.host_gone_since is None:
            rt.host_gone_since = now
        if now - rt.host_gone_since < d.timing.host_grace:
            return
    rt.host_gone_since = None
    n = len(state.seats)
    first = 0 if host is None else host
    for i in range(1, n + 1):
        seat = (first + i) % n
        if seat in connected and state.seats[seat].human:
            if seat != host:
                d.record(HostSet(seat=seat))
                d.happen({"type": "host_changed", "seat": seat})
                d.say(None, state.seats[seat].name or "", TableLine.HOST_CHANGED, ChatKind.SYSTEM)
            return
