"""``RoomCore``: one room as the server holds it in memory: its state (what the log
rebuilds), its runtime (connections, clocks, bots asked) and the server's timing; made
new (``create``, its first save) or loaded from its log (``restore``).

Each input goes to ``decide`` (room.py) with the room's three parts, which returns the
step (its records, its effects) without changing the room's state; once the records are
saved, the runner folds ``evolve`` over them (``fold``, state.py) and carries out the
effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules import Match, RuleSet

from . import lobby, views
from .effects import Save
from .records import Record, RestoreError, Seat
from .restore import replay
from .state import (
    Chance,
    Conn,
    RoomState,
    Runtime,
    Timing,
    checkpoint_of,
    controller,
    evolve,
)


class RoomCore:
    """One room as the server holds it: its state, runtime and timing (``decide``'s
    three parts)."""

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
        first = checkpoint_of(state)
        evolve(state, first)
        return cls(state, timing), token, Save(0, [first], [], checkpoint=True)

    @classmethod
    def restore(cls, entries: Sequence[Record | object], first_seq: int, timing: Timing,
                chance: Chance, code: str | None = None) -> RoomCore:
        """A room loaded from its log, stored as room ``code`` if given.  ``RestoreError``
        if it does not replay, is another room, or cannot be shown: every view is built
        once here, so that a damaged room fails now, answering ``room_damaged``, rather
        than on its first visitor."""
        core = cls(replay(entries, first_seq, chance), timing)
        state = core.state
        if code is not None and state.code != code:
            raise RestoreError(f"the stored log is room {state.code!r}'s")
        try:
            views.show_all(state)
        except Exception as exc:  # stored data of any shape: see ``replay``
            raise RestoreError(f"the stored room cannot be shown: {type(exc).__name__}: "
                               f"{exc}"[:1000]) from exc
        return core

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

    def controller(self, seat: int) -> str | None:
        """The bot level playing ``seat`` now, ``None`` when its person does."""
        return controller(self.state, seat)

    def seat_for_token(self, token: str) -> Seat | None:
        return lobby.seat_for_token(self.state, token)
