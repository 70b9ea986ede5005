"""The rooms protocol's closed sets of words and numbers, each declared once.

Messages (``messages.py``) and frames (``frames.py``) use these; docs/protocol.md, the
JSON Schema served at ``/api/protocol.schema.json`` and the client's
``app/static/js/protocol.js`` are generated from them (``python -m app.rooms.contract_gen``).
The members are ``str`` (or ``int``), so the wire shows their values unchanged.  The
game's own enums are ``app.rules.phases.Phase`` and ``app.rules.outcomes``.
"""

from __future__ import annotations

import typing
from enum import IntEnum, StrEnum
from typing import Final, Literal

from app.text import CHAT_MAX, NAME_MAX


class BotPace(StrEnum):
    """How quickly the room's bots move (``settings.bot_pace``)."""

    RELAXED = "relaxed"  # about 1.2 s a move
    NORMAL = "normal"    # about 0.7 s
    FAST = "fast"        # about 0.3 s


# A connected person's time per move, in seconds (``settings.turn_seconds``; 0: no limit).
TurnSeconds = Literal[0, 30, 60, 120]
TURN_SECONDS: Final[tuple[int, ...]] = typing.get_args(TurnSeconds)


class Reaction(StrEnum):
    """A quick reaction (the ``react`` message; a chat line of kind ``reaction``)."""

    NICE = "nice"
    OOPS = "oops"
    THANKS = "thanks"
    WOW = "wow"
    GG = "gg"


class ChatKind(StrEnum):
    """What a chat line is: a person's text, the table's own line, or a reaction's id."""

    TEXT = "text"
    SYSTEM = "system"
    REACTION = "reaction"


class SeatEventKind(StrEnum):
    """Something that happened to a seat (a ``SeatEvent``'s ``type``)."""

    SEAT_LEFT = "seat_left"    # a person gave the seat back
    STAND_IN = "stand_in"      # a bot plays for the seat's away person
    RETURNED = "returned"      # the away person is back
    TOOK_OVER = "took_over"    # a pending person plays the bot seat from now on
    TIMED_OUT = "timed_out"    # the turn time ran out: the best bot played that move


class TableLine(StrEnum):
    """What the table's own chat line says (a ``system`` line's ``text``; the client words
    it in the player's language, ``name`` is whom it is about)."""

    SEAT_TAKEN = "seat_taken"          # a person took a seat
    SEAT_LEFT = "seat_left"            # a person gave their seat back
    STAND_IN = "stand_in"              # a bot plays for an away person
    RETURNED = "returned"              # the away person is back
    TOOK_OVER = "took_over"            # a pending person plays the bot seat from now on
    TIMED_OUT = "timed_out"            # a turn's time ran out: a bot played that move
    HOST_CHANGED = "host_changed"      # the host role passed on
    STARTED_WITH_BOTS = "started_with_bots"  # the host started; bots play the empty seats
    NEW_MATCH = "new_match"            # a new match starts at this table (a rematch)
    BACK_TO_LOBBY = "back_to_lobby"    # the host took the table back to the lobby
    WAITING_FOR = "waiting_for"        # the turn waits for a dropped person to reconnect


class CountdownKind(StrEnum):
    """Which clock ``view.room.clock`` shows."""

    GRACE = "grace"  # a dropped person's grace
    TURN = "turn"    # a connected person's turn timer


class ErrorCode(StrEnum):
    """Every stable ``code`` of an error frame or an HTTP error body."""

    BAD_JSON = "bad_json"  # the frame is not JSON
    BAD_MESSAGE = "bad_message"  # not an object; wrong, unknown or missing fields
    UNKNOWN_TYPE = "unknown_type"  # ``type`` is not one of the client messages
    TOO_LARGE = "too_large"  # the message (or HTTP body) is too large
    RATE_LIMITED = "rate_limited"  # too many messages (or rooms); this one was dropped
    HELLO_REQUIRED = "hello_required"  # a message before ``hello`` (then closed, 4400)
    BAD_TOKEN = "bad_token"  # ``hello`` with an unknown token (then closed, 4401)
    ALREADY_HELLO = "already_hello"  # a second ``hello``
    NOT_SEATED = "not_seated"  # spectators cannot do this (act, chat, ready)
    NOT_HOST = "not_host"  # host-only command
    STALE_GAME = "stale_game"  # the action names a ``game`` that is not the current one
    UNAVAILABLE = "unavailable"  # the server could not do it now: nothing changed; try again
    ROOM_DAMAGED = "room_damaged"  # the room's saved state does not load
    NOT_YOUR_TURN = "not_your_turn"  # not this seat's turn (or a bot plays it this deal)
    WRONG_PHASE = "wrong_phase"  # not now
    ILLEGAL_ACTION = "illegal_action"  # against the rules
    BAD_ACTION = "bad_action"  # not an action: unknown keys, wrong types, unknown card
    ILLEGAL_BID = "illegal_bid"  # against the rules of the auction
    ILLEGAL_DISCARD = "illegal_discard"  # against the rules of the discard
    ILLEGAL_LEAD = "illegal_lead"  # the bidder's first lead and call break section 6
    ILLEGAL_PLAY = "illegal_play"  # against the rules of play ("you must follow hearts")
    MATCH_OVER = "match_over"  # the match has ended
    BAD_RULES = "bad_rules"  # the rule set does not work (``option`` names the option)
    SEATS_TAKEN = "seats_taken"  # the new rules have fewer seats than people seated past them
    BAD_SEAT = "bad_seat"  # no such seat, or the seat is not empty
    SEAT_TAKEN = "seat_taken"  # the seat asked for is not free
    NO_FREE_SEAT = "no_free_seat"  # no seat to join
    BAD_LEVEL = "bad_level"  # unknown bot level
    BAD_NAME = "bad_name"  # a name that is empty, too long or unprintable
    NAME_TAKEN = "name_taken"  # somebody at the table has this name
    BAD_CHAT = "bad_chat"  # a chat line that is empty, too long or unprintable
    HOST_CANNOT_LEAVE = "host_cannot_leave"  # the host cannot give the seat back
    ROOM_NOT_FOUND = "room_not_found"  # no room has this code (a WebSocket is then closed, 4404)
    PRIVATE_ROOM = "private_room"  # a practice table: nobody joins or watches it (4403)
    TOO_MANY_CONNECTIONS = "too_many_connections"  # this seat has too many open connections (4409)
    TOO_MANY_ROOMS = "too_many_rooms"  # this client holds too many open rooms
    BAD_REQUEST = "bad_request"  # HTTP: the body is not JSON or not of the right shape
    UNAUTHORIZED = "unauthorized"  # HTTP: no valid seat token for the record
    MATCH_NOT_OVER = "match_not_over"  # HTTP: no match of the room has finished yet
    NO_RECORD = "no_record"  # no finished match of that number (HTTP: its record; a review)
    BAD_RECORD = "bad_record"  # HTTP: the uploaded file is not a game record that replays
    TOO_MUCH_WORK = "too_much_work"  # HTTP: the uploaded record holds too many deals or actions
    NO_DEAL = "no_deal"  # a review or a replay: no finished, played deal of that number
    NOT_YOUR_MATCH = "not_your_match"  # a review of an earlier match: you did not play that seat
    DEAL_NOT_OVER = "deal_not_over"  # HTTP: that deal is still being played: no replay yet
    NO_PLAYER = "no_player"  # HTTP: no valid player key (Authorization: Bearer K)
    CLUB_NOT_FOUND = "club_not_found"  # HTTP: no such club, or you are not a member
    BAD_INVITE = "bad_invite"  # HTTP: a wrong or replaced club invite
    NOT_CLUB_HOST = "not_club_host"  # HTTP: only the club's host can do this
    BAD_DEVICE_CODE = "bad_device_code"  # HTTP: a device code wrong, used or out of time
    NO_SEASON = "no_season"  # HTTP: the club has no season of that number
    NOT_FOUND = "not_found"  # HTTP: unknown path
    METHOD_NOT_ALLOWED = "method_not_allowed"  # HTTP: the path does not take this method
    HTTP_ERROR = "http_error"  # HTTP: any other refusal of the web framework


class CloseCode(IntEnum):
    """Why the server closed a WebSocket; after one of ``FINAL_CLOSE_CODES`` a client does
    not come back with the same hello, after any other it reconnects."""

    GOING_AWAY = 1001       # the server is shutting down
    POLICY = 1008           # refused before the upgrade (a foreign Origin)
    TOO_BIG = 1009          # a frame over the frame limit
    FAILED = 1011           # the server failed on this connection
    SERVICE_RESTART = 1012  # the process stops: reconnect (another serves the room at once)
    TRY_AGAIN = 1013        # the room is being reloaded, or the store does not answer
    NO_HELLO = 4400         # the first message was not a valid ``hello``
    BAD_TOKEN = 4401        # unknown token (or the seat was given back)
    PRIVATE = 4403          # a practice room: no spectators
    NO_ROOM = 4404          # unknown room
    TOO_SLOW = 4408         # the send queue overflowed (come back: the full view follows)
    CROWDED = 4409          # too many connections for this seat
    FLOOD = 4429            # flooding past the rate limit


# The same hello would be refused again (or would flood again): the client stops.
FINAL_CLOSE_CODES: Final = (CloseCode.NO_HELLO, CloseCode.BAD_TOKEN, CloseCode.PRIVATE,
                            CloseCode.NO_ROOM, CloseCode.CROWDED, CloseCode.FLOOD)


# Numbers a client needs to shape its input (the server refuses anything beyond them).
# Some are defined by the layer that enforces them (app/text.py for names and chat); the
# others are the value of record here, and tests/test_contract.py checks that the
# servers' own settings (the chat kept, the byte limits) agree with them.
GRACE_SECONDS_MAX: Final = 600
NEXT_DEAL_PAUSE_MAX: Final = 300
TOKEN_MAX: Final = 100
BOT_LEVEL_MAX: Final = 32
LIMITS: Final[dict[str, int]] = {
    "NAME_MAX": NAME_MAX,                        # characters in a player's name
    "CHAT_MAX": CHAT_MAX,                        # characters in a chat line
    "CHAT_KEEP": 50,                             # chat lines ``view.room.chat`` keeps
    "GRACE_SECONDS_MAX": GRACE_SECONDS_MAX,      # the largest ``settings.grace_seconds``
    "NEXT_DEAL_PAUSE_MAX": NEXT_DEAL_PAUSE_MAX,  # the largest ``settings.next_deal_pause``
    "TOKEN_MAX": TOKEN_MAX,                      # characters in a seat token
    "BOT_LEVEL_MAX": BOT_LEVEL_MAX,              # characters in a bot level's name
    "MESSAGE_BYTES_MAX": 4096,                   # bytes in one client message (the default)
    "FRAME_BYTES_MAX": 64 * 1024,                # bytes in one WebSocket frame
    "BODY_BYTES_MAX": 16 * 1024,                 # bytes in one HTTP request body
    "RECORD_BYTES_MAX": 1024 * 1024,             # bytes in a game record sent to be replayed
    "RECORD_DEALS_MAX": 500,                     # deals in a game record sent to be replayed
    "RECORD_ACTIONS_MAX": 20_000,                # actions in all its deals together
}
