"""What follows from any change, and what time brings: ``settle`` runs at the end of every
input, ``tick`` when the room's wake-up time has come, ``next_wake`` says when that is.

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

from typing import TYPE_CHECKING

from app.rules import PASS, Phase
from app.rules.record import match_to_record

from .seats import Seat

if TYPE_CHECKING:
    from .room import RoomCore

TIMEOUT_BOT = "strong"  # plays a move whose person's time ran out: the best there is
PACE = {"relaxed": 1.2, "normal": 0.7, "fast": 0.3}  # seconds a bot move takes, on average


def settle(room: RoomCore, now: float) -> None:
    _pass_host(room, now)
    while _settle_match(room, now):
        pass  # a stand-in passed: settle the position that follows


def _settle_match(room: RoomCore, now: float) -> bool:
    """Settle the match; ``True`` when a move was made here and the new position needs
    settling too."""
    state = room.state
    match = state.match
    if match is None:
        return False
    deal = match.deal
    if deal is not None and deal.outcome == "void" and not match.finished:
        room.game_events(state.deal(), None)  # the live table always deals again at once
    phase = match.phase
    if phase == Phase.DEAL_OVER and state.next_deal_at is None:
        state.set_next_deal_at(now + state.next_deal_pause)
    if match.finished and state.recorded_match != state.match_number:
        names = player_names(state.seats)
        room.keep_record(state.match_number, match_to_record(match, names))
        state.set_recorded(state.match_number)
        state.add_history({"number": state.match_number, "players": names,
                           "score_sheet": [list(p) for p in match.scored],
                           "totals": list(match.totals), "winners": list(match.winners)})
    deal = match.deal
    if phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER) and deal and not deal.action_count:
        for seat in state.seats:
            if seat.takeover:  # a new deal: the pending person plays from now on
                state.set_seat(seat.copy(bot=None, away=False))
                room.announce("took_over", seat.index)
    turn = match.turn
    for seat_index in list(room.grace):
        if seat_index != turn:
            del room.grace[seat_index]
    if turn is None or not room.humans_connected():
        return False
    game = state.game
    level = room.controller(turn)
    if level is None:
        if turn not in room.connected_seats():
            room.grace.setdefault(turn, now + state.grace_seconds)
            return False
        if state.turn_seconds and (room.turn_clock is None or room.turn_clock[0] != game):
            room.turn_clock = (game, now + state.turn_seconds)
        if state.practice and room.hint_asked != game:
            room.ask_hint(turn)
        return False
    if room.bot_plan is None or room.bot_plan[0] != game:
        delay = PACE.get(state.bot_pace, 0.7) * room.timing.bot_delay
        room.bot_plan = (game, now + delay * room.rng.uniform(0.7, 1.3))
    due = room.bot_plan[1] <= now
    seat = state.seats[turn]
    if seat.away and seat.bot is None and match.phase == Phase.AUCTION:
        if not due:
            return False
        # A bot standing in for a person never commits them to a contract.
        room.game_events(state.act(turn, PASS), deal)
        return True
    held = room.bot_move
    if held is not None and held[0] == game:
        # Decided while the pace's delay ran: shown at the planned time, so how long the
        # search took (no time at all for a forced card) shows nowhere.
        if not due:
            return False
        room.bot_move = None
        if held[1] == turn and held[2] == level:
            room.game_events(state.act(turn, held[3]), deal)
            return True
    if room.thinking != game:
        room.ask_bot(turn, level)  # at once: the search runs while the delay passes
    return False


def tick(room: RoomCore, now: float) -> None:
    """Do what is due (``settle`` follows, as after every input)."""
    state = room.state
    match = state.match
    if match is None or not room.humans_connected():
        return
    if match.phase == Phase.DEAL_OVER:
        at = state.next_deal_at
        if at is not None and at <= now:
            room.game_events(state.deal(), None)
        return
    for seat_index, deadline in list(room.grace.items()):
        if deadline <= now and match.turn == seat_index:
            del room.grace[seat_index]
            state.set_seat(state.seats[seat_index].copy(away=True))
            room.announce("stand_in", seat_index)
    clock = room.turn_clock
    turn = match.turn
    if (clock is not None and clock[0] == state.game and clock[1] <= now and turn is not None
            and room.controller(turn) is None and room.thinking != state.game):
        # The person's time ran out: the best bot plays this one move for them.
        room.timed_out = state.game
        room.announce("timed_out", turn)
        room.ask_bot(turn, TIMEOUT_BOT)


def next_wake(room: RoomCore) -> float | None:
    """When ``tick`` has something to do, or ``None``."""
    times: list[float] = []
    if room.host_gone_since is not None and room.humans_connected():
        times.append(room.host_gone_since + room.timing.host_grace)
    state = room.state
    match = state.match
    if match is not None and room.humans_connected():
        if match.phase == Phase.DEAL_OVER and state.next_deal_at is not None:
            times.append(state.next_deal_at)
        times.extend(room.grace.values())
        plan = room.bot_plan
        if plan is not None and plan[0] == state.game and room.thinking != state.game:
            times.append(plan[1])
        clock = room.turn_clock
        if clock is not None and clock[0] == state.game and room.thinking != state.game:
            times.append(clock[1])
    return min(times) if times else None


def player_names(seats: list[Seat]) -> list[str]:
    return [s.player_name for s in seats]


def _pass_host(room: RoomCore, now: float) -> None:
    """The host role goes to the next connected person when the host has been gone for
    ``host_grace`` seconds (at once if the host's seat is no longer a person's)."""
    state = room.state
    connected = room.connected_seats()
    host = state.host
    if host is not None and host in connected:
        room.host_gone_since = None
        return
    if host is not None and state.seats[host].human:
        if room.host_gone_since is None:
            room.host_gone_since = now
        if now - room.host_gone_since < room.timing.host_grace:
            return
    room.host_gone_since = None
    n = len(state.seats)
    start = 0 if host is None else host
    for i in range(1, n + 1):
        seat = (start + i) % n
        if seat in connected and state.seats[seat].human:
            if seat != host:
                state.set_host(seat)
                room.happened({"type": "host_changed", "seat": seat})
                room.say(None, state.seats[seat].name or "", "host_changed", "system")
            return
