"""The match's course: start, the deals, ready between deals, the rematch, "play again",
back to the lobby; and a bot's move, decided on a copy of the match and applied only if
the table has not moved on since (``settle``, in room.py, says when a bot is asked).
"""

from __future__ import annotations

from app.bot_levels import DEFAULT_SEAT_BOT
from app.rules import Action, Phase
from app.rules.cards import ids_of

from .errors import RoomError
from .lobby import require_host, require_lobby
from .records import (
    BackInLobby,
    Dealt,
    MatchBegun,
    NextDealAt,
    ReadySet,
    SeatSet,
)
from .state import Draft, controller
from .wire_enums import ChatKind, ErrorCode, TableLine

REMATCH_SECONDS = 5  # the countdown before a new match at a table of several people


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
        raise RoomError(ErrorCode.NOT_SEATED, "spectators are always ready")
    state = d.state
    if state.match is None or state.match.phase != Phase.DEAL_OVER:
        raise RoomError(ErrorCode.WRONG_PHASE, "ready is for between deals")
    if not state.seats[seat].ready:
        d.record(ReadySet(seat=seat))
    connected = d.rt.connected_seats()
    if all(s.ready for s in state.seats if s.human and s.index in connected):
        deal(d)


def rematch(d: Draft, seat: int | None) -> None:
    require_host(d.state, seat)
    match = d.state.match
    if match is None or not match.finished:
        raise RoomError(ErrorCode.WRONG_PHASE, "a rematch is for after the match")
    if d.state.next_deal_at is not None:
        raise RoomError(ErrorCode.WRONG_PHASE, "the new match starts in a moment")
    _new_match_soon(d, seat)


def again(d: Draft, seat: int | None) -> None:
    """"Play again": when every connected person has said it, the next match starts."""
    if seat is None:
        raise RoomError(ErrorCode.NOT_SEATED, "spectators cannot start a match")
    state = d.state
    if state.match is None or not state.match.finished:
        raise RoomError(ErrorCode.WRONG_PHASE, "play again is for after the match")
    if not state.seats[seat].again:
        d.record(SeatSet(seat=seat, data=state.seats[seat].copy(again=True).to_data()))
    connected = d.rt.connected_seats()
    if (state.next_deal_at is None
            and all(s.again for s in state.seats if s.human and s.index in connected)):
        _new_match_soon(d, seat)


def back_to_lobby(d: Draft, seat: int | None) -> None:
    """The host takes the table back to the lobby, to change rules, seats and bots."""
    require_host(d.state, seat)
    match = d.state.match
    if match is None or not match.finished:
        raise RoomError(ErrorCode.WRONG_PHASE, "back to the lobby is for after the match")
    d.record(BackInLobby())
    _tell(d, seat, TableLine.BACK_TO_LOBBY)


def _new_match_soon(d: Draft, seat: int | None) -> None:
    """The next match: after a countdown every screen shows (and a line in the chat), so
    that nobody finds a new auction without warning; at once when nobody else is there."""
    state = d.state
    connected = d.rt.connected_seats()
    if not any(s.human and s.index != seat and s.index in connected for s in state.seats):
        new_match(d)
        return
    d.record(NextDealAt(at=d.now + REMATCH_SECONDS))
    _tell(d, seat, TableLine.NEW_MATCH)


def new_match(d: Draft) -> None:
    """A new match under the room's rules (the first, or a rematch): a checkpoint of the
    room, then the match and its first deal."""
    state = d.state
    d.checkpoint()
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
    if any(not s.human for s in d.state.seats):
        _tell(d, seat, TableLine.STARTED_WITH_BOTS)


def _tell(d: Draft, seat: int | None, line: TableLine) -> None:
    """The table's chat line about what ``seat``'s person just did."""
    name = "" if seat is None else d.state.seats[seat].name or ""
    d.say(None, name, line, ChatKind.SYSTEM)
