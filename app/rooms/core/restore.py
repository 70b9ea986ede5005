"""A room rebuilt from its log: ``replay`` folds ``evolve`` (state.py) over the records
from the room's last checkpoint, then checks what the records themselves cannot say (a
checkpoint's fields against each other).  Whatever is wrong with a stored log, the room
is refused with a ``RestoreError``, never half restored.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.bot_levels import ALIASES, BOT_LEVELS
from app.rules import RuleSet

from .records import Checkpoint, Record, RestoreError, as_record
from .state import Chance, RoomState, fold, take_checkpoint
from .wire_enums import BotPace

BOT_PACES = frozenset(BotPace)
BOT_NAMES = frozenset((*BOT_LEVELS, *ALIASES))  # old logs name the easy bot heuristic


def from_checkpoint(data: Checkpoint, chance: Chance) -> RoomState:
    state = RoomState(data.code, RuleSet.shared(data.rules), data.practice,
                      data.grace_seconds, data.next_deal_pause, chance)
    take_checkpoint(state, data)
    return state


def replay(entries: Sequence[Record | object], first_seq: int, chance: Chance) -> RoomState:
    """The room whose log from its last checkpoint (record ``first_seq``) is ``entries``
    (records, or stored JSON objects, which are read as records first): the fold of
    ``evolve`` over them.  ``RestoreError`` if they are not a room's log, whatever is
    wrong with them."""
    records = [as_record(e) for e in entries]
    if not records or not isinstance(records[0], Checkpoint):
        raise RestoreError("the stored log does not start with a checkpoint")
    state: RoomState | None = None
    try:
        state = from_checkpoint(records[0], chance)
        state.seq = first_seq + 1
        _check_whole(state)  # the checkpoint, then what the records made of it
        fold(state, records[1:])
    except Exception as exc:
        # Stored data of any shape: whatever it makes fail is damage (the engine's
        # RulesetError and ActionError, a seat out of range, rules nested too deep...).
        at = first_seq if state is None else state.seq  # the record that did not apply
        k = records[at - first_seq].k if 0 <= at - first_seq < len(records) else "?"
        raise RestoreError(f"entry {at} ({k}): {type(exc).__name__}: {exc}"[:1000]) \
            from exc
    _check_whole(state)
    return state


def _check_whole(state: RoomState) -> None:
    """What the records themselves cannot say is right about a replayed room (a
    checkpoint's fields against each other): a room that breaks one of these would fail
    later, on a view or a bot's turn, not now."""
    seats, players = len(state.seats), state.rules.options.players
    found: list[str] = []
    if seats != players:
        found.append(f"{seats} seats for {players} players")
    if state.host is not None and not 0 <= state.host < seats:
        found.append(f"host {state.host}")
    if any(s.bot is not None and s.bot not in BOT_NAMES for s in state.seats):
        found.append("a seat's bot level is unknown")
    if state.bot_pace not in BOT_PACES:
        found.append(f"bot pace {state.bot_pace!r}")
    if min(state.game, state.match_number, state.recorded_match, state.grace_seconds,
           state.next_deal_pause, state.turn_seconds) < 0:
        found.append("a negative number")
    if state.recorded_match > state.match_number:
        found.append("the record of a match to come")
    if found:
        raise RestoreError(f"the stored room does not hold together: {', '.join(found)}")

