"""The match's flow: people's and bots' game actions on the ``game`` number, ready between
deals, the rematch; and what follows from any change and what time brings (``settle``
after every input, ``tick`` when the room's wake-up time has come, ``next_wake``).

Every game action goes through the engine (``evolve`` -> ``Match.apply``), which checks
the turn and the rules and raises before changing anything; this module adds what the
engine cannot know: the game number the sender saw, and who plays a seat now (the person,
their bot while they are away, a bot until a takeover).

Settling: the host role passes on after its grace; a void deal is dealt again; a finished
deal sets the next deal's time; a finished match keeps its record and its summary; a new
deal lets pending people take their seats; a disconnected person whose turn it is gets a
grace period, a connected one the turn timer (if the host set one); a bot whose turn it
is gets a time to move (the room's pace), is asked at once and its move is shown at that
time, however long it searched; a practice player whose turn it is gets a hint.
A bot standing in for an away person passes in the auction: it never commits them.
Nothing runs while no person is connected: bots do not play to an empty room.
"""

from __future__ import annotations

from app.bot_levels import ADVISOR_BOT, DEFAULT_SEAT_BOT
from app.rules import PASS, Action, ActionError, Phase, parse_action
from app.rules.cards import ids_of
from app.rules.outcomes import Outcome
from app.rules.record import match_to_record

from .effects import AskHint, Think
from .errors import RoomError
from .lobby import require_host, require_lobby
from .records import (
    BackInLobby,
    Dealt,
    HistoryAdded,
    HostSet,
    MatchBegun,
    NextDealAt,
    ReadySet,
    Recorded,
    SeatSet,
)
from .state import Draft, controller

PACE = {"relaxed": 1.2, "normal": 0.7, "fast": 0.3}  # seconds a bot move takes, on average


def play(d: Draft, seat: int | None, game: int, raw: object) -> None:
    """A person's game action, answering ``game``."""
    if seat is None:
        raise RoomError("not_seated", "spectators cannot play")
    state = d.state
    match = state.match
    if match is None:
        raise RoomError("wrong_phase", "the match has not started")
    try:
        action = parse_action(raw)  # a malformed action is refused as such, stale or not
    except ActionError as exc:
        raise RoomError(exc.code, str(exc)) from None
    if game != state.game:
        raise RoomError("stale_game", f"the game is at {state.game}, not {game}: look at "
                        "the new state and try again", 409)
    if state.seats[seat].takeover:
        raise RoomError("not_your_turn", "a bot plays this seat until the next deal")
    try:
        d.act(seat, action)
    except ActionError as exc:
        raise RoomError(exc.code, str(exc)) from None


def bot_moved(d: Draft, seat: int, level: str, game: int, action: Action) -> None:
    """A bot's action, decided on a copy at ``game``: applied only if nothing changed
    since and the bot still plays the seat; otherwise it is asked again."""
    rt, state = d.rt, d.state
    if rt.thinking == game:
        rt.thinking = None
    match = state.match
    stands_in = controller(state, seat) == level or rt.timed_out == game
    if match is None or game != state.game or match.turn != seat or not stands_in:
        return
    plan = rt.bot_plan
    if plan is not None and plan[0] == game and plan[1] > d.now and rt.timed_out != game:
        rt.bot_move = (game, seat, level, action)  # settle shows it at the planned time
        return
    # The rules accepted this action on the bot's copy at this game (the adapter checks).
    d.act(seat, action)


def deal(d: Draft) -> None:
    """The next deal, shuffled now."""
    state = d.state
    assert state.match is not None
    hands, kitty = state.chance.deal(state.rules)
    d.record(Dealt(dealer=state.match.dealer, hands=[ids_of(h) for h in hands],
                   kitty=ids_of(kitty)))


def ready(d: Draft, seat: int | None) -> None:
    if seat is None:
        raise RoomError("not_seated", "spectators are always ready")
    state = d.state
    if state.match is None or state.match.phase != Phase.DEAL_OVER:
        raise RoomError("wrong_phase", "ready is for between deals")
    if not state.seats[seat].ready:
        d.record(ReadySet(seat=seat))
    connected = d.rt.connected_seats()
    if all(s.ready for s in state.seats if s.human and s.index in connected):
        deal(d)


def rematch(d: Draft, seat: int | None) -> None:
    require_host(d.state, seat)
    match = d.state.match
    if match is None or not match.finished:
        raise RoomError("wrong_phase", "a rematch is for after the match")
    new_match(d)


def again(d: Draft, seat: int | None) -> None:
    """"Play again": when every connected person has said it, the next match starts."""
    if seat is None:
        raise RoomError("not_seated", "spectators cannot start a match")
    state = d.state
    if state.match is None or not state.match.finished:
        raise RoomError("wrong_phase", "play again is for after the match")
    if not state.seats[seat].again:
        d.record(SeatSet(seat=seat, data=state.seats[seat].copy(again=True).to_data()))
    connected = d.rt.connected_seats()
    if all(s.again for s in state.seats if s.human and s.index in connected):
        new_match(d)


def back_to_lobby(d: Draft, seat: int | None) -> None:
    """The host takes the table back to the lobby, to change rules, seats and bots."""
    require_host(d.state, seat)
    match = d.state.match
    if match is None or not match.finished:
        raise RoomError("wrong_phase", "back to the lobby is for after the match")
    d.record(BackInLobby())


def new_match(d: Draft) -> None:
    """A new match under the room's rules (the first, or a rematch): a checkpoint of the
    room, then the match and its first deal."""
    state = d.state
    state.checkpoint()
    d.record(MatchBegun(dealer=state.chance.below(len(state.seats))))
    d.happen({"type": "match_started", "number": state.match_number})
    deal(d)


def start(d: Draft, seat: int | None) -> None:
    require_host(d.state, seat)
    require_lobby(d.state)
    for s in d.state.seats:
        if not s.human and s.bot is None:
            d.record(SeatSet(seat=s.index, data=s.copy(bot=DEFAULT_SEAT_BOT).to_data()))
    new_match(d)


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
        deal(d)  # the live table always deals again at once
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
            "winners": list(match.winners)}))
    current = match.deal
    if (phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER) and current
            and not current.action_count):
        for seat in state.seats:
            if seat.takeover:  # a new deal: the pending person plays from now on
                d.record(SeatSet(seat=seat.index,
                                 data=seat.copy(bot=None, away=False).to_data()))
                d.announce("took_over", seat.index)
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
            rt.grace.setdefault(turn, now + state.grace_seconds)
            return False
        if state.turn_seconds and (rt.turn_clock is None or rt.turn_clock[0] != game):
            rt.turn_clock = (game, now + state.turn_seconds)
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
            return True
    if rt.thinking != game:
        ask_bot(d, turn, level)  # at once: the search runs while the delay passes
    return False


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
    if match.phase == Phase.DEAL_OVER:
        at = state.next_deal_at
        if at is not None and at <= now:
            deal(d)
        return
    for seat_index, deadline in list(rt.grace.items()):
        if deadline <= now and match.turn == seat_index:
            del rt.grace[seat_index]
            d.record(SeatSet(seat=seat_index,
                             data=state.seats[seat_index].copy(away=True).to_data()))
            d.announce("stand_in", seat_index)
    clock = rt.turn_clock
    turn = match.turn
    if (clock is not None and clock[0] == state.game and clock[1] <= now and turn is not None
            and controller(state, turn) is None and rt.thinking != state.game):
        # The person's time ran out: the best bot plays this one move for them.
        rt.timed_out = state.game
        d.announce("timed_out", turn)
        ask_bot(d, turn, ADVISOR_BOT)


def next_wake(d: Draft) -> float | None:
    """When ``tick`` has something to do, or ``None``."""
    state, rt = d.state, d.rt
    times: list[float] = []
    if rt.host_gone_since is not None and rt.humans_connected():
        times.append(rt.host_gone_since + d.timing.host_grace)
    match = state.match
    if match is not None and rt.humans_connected():
        if match.phase == Phase.DEAL_OVER and state.next_deal_at is not None:
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
                d.say(None, state.seats[seat].name or "", "host_changed", "system")
            return
