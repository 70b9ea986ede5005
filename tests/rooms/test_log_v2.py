"""Rooms saved by the code of version 2 (log entries written as dicts with a kind ``k``,
before the log became typed records) load: ``fixtures/room-log-v2.json`` is a room's
whole log written by that code (fixtures/make_room_log_v2.py, run at commit dd6a186: a
match of three deals, a back to the lobby, new rules, a second match in its third deal;
chat, reactions, settings, seats left, taken, away and taken over, the host passed on)
and the room restored from it then.  Restoring it now gives the same room."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import orjson
from option_tables import ROOM_SETTINGS

from app.rooms.core.records import Checkpoint, record_of_data, record_of_json
from app.rooms.core.restore import replay
from app.rooms.core.room_core import RoomCore
from app.rooms.core.state import Timing, checkpoint_of
from app.rooms.server.chance import chance_of

FIXTURE = Path(__file__).parent / "fixtures" / "room-log-v2.json"


def saved() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def observed(core: RoomCore) -> dict[str, Any]:
    """The fixture's ``expected`` keys, read from a room loaded now."""
    state = core.state
    match = state.match
    assert match is not None
    return {
        "code": state.code,
        "seats": [s.to_data().model_dump() for s in state.seats],
        "host": state.host,
        "phase": str(match.phase),
        "turn": match.turn,
        "dealer": match.dealer,
        "totals": list(match.totals),
        "scored": [list(p) for p in match.scored],
        "deals": len(match.deals),
        "tricks_played": match.deal.tricks_played if match.deal else None,
        "game": state.game,
        "seq": state.seq,
        "version": core.version,
        "match_number": state.match_number,
        "recorded_match": state.recorded_match,
        "next_deal_at": state.next_deal_at,
        "settings": {name: getattr(state, name) for name in ROOM_SETTINGS},
        "chat": [dict(line) for line in state.chat],
        "history": [dict(h) for h in state.history],
        "rules": state.rules.to_json(),
    }


def test_a_room_saved_by_version_2_loads_as_it_was() -> None:
    data = saved()
    first = data["first_seq"]
    core = RoomCore.restore(data["entries"][first:], first, Timing(0, 0),
                            chance_of(random.Random(0)))
    expected = data["expected"]
    # a setting added since version 2 is at its default: the checkpoint record's
    expected["settings"] = {**{name: Checkpoint.model_fields[name].default
                               for name in ROOM_SETTINGS}, **expected["settings"]}
    assert observed(core) == expected




ADDING_A_FIELD = """\
A log record's JSON is no longer what version 2 wrote.

{kind!r} record, entry {index}:
  version 2 wrote: {old}
  written now:     {new}
  {change}

Rooms saved by older code must load, and a room that does not use a new field must
write exactly what older code wrote: the records refuse a key they do not know
(extra="forbid"), so older code, a server not yet upgraded in a rolling restart say,
reads no key it never wrote. To add a field to a record in app/rooms/core/records.py:
  1. give it a default: logs written before it lack the key and load with the default
     (test_a_room_saved_by_version_2_loads_as_it_was checks such a log);
  2. leave it out of the JSON while it has that default: in a ``sparse`` record (an
     action, settings) declare it ``X | None = None``; in another record exclude it in
     the record's ``to_json`` while it is at its default, as Checkpoint does for
     ``holders``;
  3. a room setting needs no test change: tests/option_tables.py reads the settings
     message, and tests/rooms/test_room_settings.py checks it is kept and replayed.
Do not edit fixtures/room-log-v2.json: it is what version 2 wrote."""


def written_differently(index: int, old: str, new: str) -> str:
    """The failure message for an entry that writes back differently: what changed and
    how to add a field so that it does not."""
    before, after = orjson.loads(old), orjson.loads(new)
    added = [k for k in after if k not in before]
    dropped = [k for k in before if k not in after]
    changed = [k for k in before if k in after and before[k] != after[k]]
    parts = [f"{what}: {', '.join(keys)}" for what, keys in (
        ("keys added", added), ("keys gone", dropped), ("values changed", changed)) if keys]
    change = "; ".join(parts) or "the same keys and values, in another order or spelling"
    return ADDING_A_FIELD.format(kind=before.get("k"), index=index, old=old, new=new,
                                 change=change)


def test_every_entry_reads_as_its_record_and_writes_back_byte_for_byte() -> None:
    """The records' derived JSON is the format version 2 wrote (orjson, as the SQLite
    store does), so a room saved now reads the same to any reader of version 2's. A new
    field breaks this unless it is left out at its default: the message says how."""
    entries = saved()["entries"]
    kinds = set()
    for index, entry in enumerate(entries):
        text = orjson.dumps(entry).decode()
        record = record_of_json(text)
        written = record.to_json()
        assert written == text, written_differently(index, text, written)
        kinds.add(record.k)
    assert kinds == {"room", "match", "deal", "act", "seat", "ready", "next_deal_at", "host",
                     "rules", "settings", "chat", "history", "recorded", "lobby"}


def test_each_stretch_of_the_log_replays_to_the_checkpoint_that_ends_it() -> None:
    """Folding ``evolve`` over the log from one checkpoint rebuilds the room the next
    checkpoint describes (the whole log, not only its last stretch, replays)."""
    entries = saved()["entries"]
    starts = [i for i, e in enumerate(entries) if e["k"] == "room"]
    assert len(starts) == 3
    for first, end in itertools.pairwise(starts):
        state = replay(entries[first:end], first, chance_of(random.Random(0)))
        assert state.seq == end
        rebuilt = checkpoint_of(state)
        # who held the seats of each finished match (issue 36) is noted as its summary
        # is logged: the code of version 2 did not write it in its checkpoints
        assert sorted(rebuilt.holders) == [h["number"] for h in state.history]
        assert all(len(seats) == len(h["players"]) for h, seats in zip(
            state.history, rebuilt.holders.values(), strict=True))
        assert rebuilt.model_copy(update={"holders": {}}) == record_of_data(entries[end])
