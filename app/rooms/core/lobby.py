"""Room commands around the game: joining and leaving seats, the host's choices before
the start (rules, bot levels), settings, chat, and the start itself.

Each command checks who may do it and when, and raises ``RoomError`` before changing
anything; then it changes the room by records (``Draft.record``).  A seat's token comes
from the room's ``Chance``; only its hash is kept.
"""

from __future__ import annotations

from app.bot_levels import BOT_LEVELS, DEFAULT_SEAT_BOT, BotLevel, level_name
from app.rules import RuleSet, RulesetError
from app.text import TextError, clean_chat, clean_name, name_key

from .effects import Send
from .errors import RoomError
from .frames import JoinedRoom
from .messages import Hello, SettingsMessage
from .records import NextDealAt, RulesSet, Seat, SeatSet, SettingsSet
from .state import Conn, Draft, RoomState
from .wire_enums import ChatKind, ErrorCode, SeatEventKind, TableLine


def checked_name(raw: str) -> str:
    """A name as players may choose it (app/text.py): not empty, no control or invisible
    characters, not a bot's."""
    try:
        return clean_name(raw)
    except TextError as exc:
        raise RoomError(ErrorCode(exc.code), exc.message, 400) from None


def require_free_name(state: RoomState, name: str) -> None:
    """Names are unique within a room (compared as people read them)."""
    key = name_key(name)
    for seat in state.seats:
        if seat.name is not None and name_key(seat.name) == key:
            raise RoomError(ErrorCode.NAME_TAKEN, f"{seat.name} is already at this table: choose "
                            "another name", 409)


def checked_rules(raw: object) -> RuleSet:
    try:
        return RuleSet.shared(raw)
    except RulesetError as exc:
        raise RoomError(ErrorCode.BAD_RULES, str(exc), 400, option=exc.option) from None


def checked_level(level: str) -> BotLevel:
    """A bot level as players may pick it (``heuristic``, the old name, is ``easy``)."""
    try:
        return level_name(level)
    except ValueError:
        raise RoomError(ErrorCode.BAD_LEVEL, f"unknown bot {level!r}; one of "
                        f"{', '.join(BOT_LEVELS)}") from None


def require_host(state: RoomState, seat: int | None) -> None:
    if seat is None or seat != state.host:
        raise RoomError(ErrorCode.NOT_HOST, "only the host can do that", 403)


def require_lobby(state: RoomState) -> None:
    if state.match is not None:
        raise RoomError(ErrorCode.WRONG_PHASE, "the match has started", 409)


def joinable_seats(state: RoomState) -> list[int]:
    if state.practice:
        return []
    if state.match is None:
        return [s.index for s in state.seats if not s.human]
    return [s.index for s in state.seats if s.bot is not None and not s.human]


def join(d: Draft, name: str, seat: int | None) -> JoinedRoom:
    """Seat a person.  In the lobby a free seat; after the start a bot seat, which the
    person plays from the next deal on (``takeover``)."""
    name = checked_name(name)
    state = d.state
    if state.practice:
        raise RoomError(ErrorCode.PRIVATE_ROOM, "this is a private practice table", 403)
    require_free_name(state, name)
    free = joinable_seats(state)
    if seat is not None:
        if seat >= len(state.seats):
            raise RoomError(ErrorCode.BAD_SEAT,
                            f"this room has seats 0 to {len(state.seats) - 1}", 409)
        if seat not in free:
            raise RoomError(ErrorCode.SEAT_TAKEN, f"seat {seat} is not free", 409)
    elif not free:
        raise RoomError(ErrorCode.NO_FREE_SEAT, "every seat is taken", 409)
    else:
        seat = free[0]
    token = state.chance.token()
    s = state.seats[seat].claimed(name, token)
    if state.match is None:
        s = s.copy(bot=None)
    d.record(SeatSet(seat=seat, data=s.to_data()))
    d.happen({"type": "seat_taken", "seat": seat, "name": name})
    d.say(None, name, TableLine.SEAT_TAKEN, ChatKind.SYSTEM)
    return {"seat": seat, "token": token, "takeover": s.takeover}


def leave(d: Draft, seat: int | None) -> None:
    """Give the seat back: in the lobby, or after the match (the seat goes to a bot)."""
    if seat is None:
        raise RoomError(ErrorCode.NOT_SEATED, "you have no seat to leave")
    state = d.state
    match = state.match
    if match is not None and not match.finished:
        raise RoomError(ErrorCode.WRONG_PHASE, "you can leave in the lobby or after the match", 409)
    if seat == state.host:
        raise RoomError(ErrorCode.HOST_CANNOT_LEAVE, "the host cannot give the seat back")
    name = state.seats[seat].name or ""
    d.record(SeatSet(seat=seat, data=Seat(seat, bot=DEFAULT_SEAT_BOT).to_data()))
    for conn in d.rt.conns.values():
        if conn.seat == seat:  # the person keeps watching
            conn.seat = None
    d.happen({"type": SeatEventKind.SEAT_LEFT, "seat": seat})
    d.say(None, name, TableLine.SEAT_LEFT, ChatKind.SYSTEM)


def set_rules(d: Draft, seat: int | None, raw: object) -> None:
    require_host(d.state, seat)
    require_lobby(d.state)
    rules = checked_rules(raw)
    n = rules.options.players
    cut = [s for s in d.state.seats[n:] if s.human]
    if cut:
        raise RoomError(ErrorCode.SEATS_TAKEN,
                        f"seat {cut[0].index} is taken: {n} players do not fit")
    d.record(RulesSet(rules=rules.to_json()))


def seat_bot(d: Draft, seat: int | None, target: int, level: str) -> None:
    require_host(d.state, seat)
    require_lobby(d.state)
    state = d.state
    if target >= len(state.seats) or state.seats[target].human:
        raise RoomError(ErrorCode.BAD_SEAT, f"seat {target} is not an empty seat")
    d.record(SeatSet(seat=target,
                     data=state.seats[target].copy(bot=checked_level(level)).to_data()))


def settings(d: Draft, seat: int | None, message: SettingsMessage) -> None:
    """The host changes these settings (only the ones given)."""
    require_host(d.state, seat)
    changes = SettingsSet.model_validate(message.model_dump(exclude={"type"}))
    if changes == SettingsSet():
        raise RoomError(ErrorCode.BAD_MESSAGE, "settings: name at least one setting")
    state = d.state
    d.record(changes)
    if changes.grace_seconds is not None or changes.turn_seconds is not None:
        d.rt.grace.clear()
        d.rt.turn_clock = None
    pause = changes.next_deal_pause
    if pause is not None and state.next_deal_at is not None:
        d.record(NextDealAt(at=d.now + pause))


def speaker(state: RoomState, seat: int | None) -> str:
    """Who a chat line is from: a seated person, or a spectator when the host allows."""
    if seat is None:
        if not state.spectator_chat:
            raise RoomError(ErrorCode.NOT_SEATED, "the host has turned spectators' chat off")
        return "Spectator"
    return state.seats[seat].name or f"Seat {seat + 1}"


def chat(d: Draft, seat: int | None, text: str) -> None:
    name = speaker(d.state, seat)
    try:
        text = clean_chat(text)
    except TextError as exc:
        raise RoomError(ErrorCode(exc.code), exc.message) from None
    d.say(seat, name, text, ChatKind.TEXT)


def react(d: Draft, seat: int | None, reaction: str) -> None:
    d.say(seat, speaker(d.state, seat), reaction, ChatKind.REACTION)


def connect(d: Draft, conn: int, hello: Hello) -> None:
    state, rt = d.state, d.rt
    if hello.token is not None and hello.spectate:
        raise RoomError(ErrorCode.BAD_MESSAGE, "hello: either a token or spectate, not both")
    if hello.token is not None:
        seat = seat_for_token(state, hello.token)
        if seat is None:
            raise RoomError(ErrorCode.BAD_TOKEN, "this token holds no seat in this room")
        rt.conns[conn] = Conn(seat.index)
        rt.grace.pop(seat.index, None)
        if seat.away:
            d.record(SeatSet(seat=seat.index, data=seat.copy(away=False).to_data()))
            d.announce(SeatEventKind.RETURNED, seat.index)
    elif hello.spectate:
        if state.practice:
            raise RoomError(ErrorCode.PRIVATE_ROOM, "a practice table cannot be watched")
        rt.conns[conn] = Conn(None)
    else:
        raise RoomError(ErrorCode.BAD_MESSAGE, "hello: give your token, or spectate: true")
    d.changed = True
    d.welcomed.append(conn)
    d.emit(Send((conn,), {"type": "welcome", "room": state.code,
                          "seat": rt.conns[conn].seat, "version": rt.version + 1,
                          "game": state.game}))


def seat_for_token(state: RoomState, token: str) -> Seat | None:
    return next((s for s in state.seats if s.holds(token)), None)
