"""A room's runtime: what it knows only while it runs (``Runtime``: its connections,
timers, the bots and hints asked, the reviews made), and the server's settings it runs by
(``Timing``).  Neither is in the log: a restart forgets the runtime, and the room goes on
from its log (state.py) with a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.double_dummy import DoubleDummy
from app.rules import Action
from app.rules.view import WireMemo
from app.rules.wire import ActionJson

from .frames import HintFrame, ReviewPayload


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
