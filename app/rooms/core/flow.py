"""The match flow of a room: people's and bots' game actions on the ``game`` number,
ready between deals, the rematch.

Every game action goes through the engine (``RoomState.act`` -> ``Match.apply``), which
checks the turn and the rules and raises before changing anything; this module adds what
the engine cannot know: the game number the sender saw, and who plays a seat now (the
person, their bot while they are away, a bot until a takeover).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.bots import BEST_BOT
from app.rules import Action, ActionError, Phase, parse_action

from .errors import RoomError
from .lobby import require_host, require_lobby

if TYPE_CHECKING:
    from .room import RoomCore


def play(room: RoomCore, seat: int | None, game: int, raw: dict[str, Any]) -> None:
    """A person's game action, answering ``game``."""
    if seat is None:
        raise RoomError("not_seated", "spectators cannot play")
    state = room.state
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
    deal = match.deal
    try:
        events = state.act(seat, action)
    except ActionError as exc:
        raise RoomError(exc.code, str(exc)) from None
    room.game_events(events, deal)


def bot_moved(room: RoomCore, seat: int, level: str, game: int, action: Action) -> None:
    """A bot's action, decided on a copy at ``game``: applied only if nothing changed
    since and the bot still plays the seat; otherwise it is asked again."""
    if room.thinking == game:
        room.thinking = None
    state = room.state
    match = state.match
    stands_in = room.controller(seat) == level or room.timed_out == game
    if match is None or game != state.game or match.turn != seat or not stands_in:
        return
    plan = room.bot_plan
    if plan is not None and plan[0] == game and plan[1] > room.now and room.timed_out != game:
        room.bot_move = (game, seat, level, action)  # settle shows it at the planned time
        return
    deal = match.deal
    # The rules accepted this action on the bot's copy at this game (the adapter checks).
    room.game_events(state.act(seat, action), deal)


def ready(room: RoomCore, seat: int | None) -> None:
    if seat is None:
        raise RoomError("not_seated", "spectators are always ready")
    state = room.state
    if state.match is None or state.match.phase != Phase.DEAL_OVER:
        raise RoomError("wrong_phase", "ready is for between deals")
    if not state.seats[seat].ready:
        state.set_ready(seat)
    connected = room.connected_seats()
    if all(s.ready for s in state.seats if s.human and s.index in connected):
        room.game_events(state.deal(), None)


def rematch(room: RoomCore, seat: int | None) -> None:
    require_host(room, seat)
    match = room.state.match
    if match is None or not match.finished:
        raise RoomError("wrong_phase", "a rematch is for after the match")
    new_match(room)


def again(room: RoomCore, seat: int | None) -> None:
    """"Play again": when every connected person has said it, the next match starts."""
    if seat is None:
        raise RoomError("not_seated", "spectators cannot start a match")
    state = room.state
    if state.match is None or not state.match.finished:
        raise RoomError("wrong_phase", "play again is for after the match")
    if not state.seats[seat].again:
        state.set_seat(state.seats[seat].copy(again=True))
    connected = room.connected_seats()
    if all(s.again for s in state.seats if s.human and s.index in connected):
        new_match(room)


def back_to_lobby(room: RoomCore, seat: int | None) -> None:
    """The host takes the table back to the lobby, to change rules, seats and bots."""
    require_host(room, seat)
    match = room.state.match
    if match is None or not match.finished:
        raise RoomError("wrong_phase", "back to the lobby is for after the match")
    room.state.back_to_lobby()


def new_match(room: RoomCore) -> None:
    """A new match under the room's rules (the first, or a rematch): a checkpoint of the
    room, then the match and its first deal."""
    state = room.state
    state.checkpoint()
    state.new_match(state.rng.randrange(len(state.seats)))
    room.happened({"type": "match_started", "number": state.match_number})
    room.game_events(state.deal(), None)


def start(room: RoomCore, seat: int | None) -> None:
    require_host(room, seat)
    require_lobby(room)
    state = room.state
    for s in state.seats:
        if not s.human and s.bot is None:
            state.set_seat(s.copy(bot=BEST_BOT))
    new_match(room)
