"""The store's mirror of a room's seats (app/clubs/seat_mirror.py) folds the room's log
as the room does: who held each seat as a match ended, a takeover pending (a bot in a
person's seat until the next deal) counting for nobody, new rules cutting or adding
seats; a log that does not start with a checkpoint tells nothing."""

from __future__ import annotations

from app.clubs.seat_mirror import SeatHolder, SeatMirror, fold
from app.rooms.core.records import Checkpoint, HistoryAdded, RulesSet, SeatData, SeatSet


def checkpoint(seats: list[SeatData]) -> Checkpoint:
    return Checkpoint(code="abcde", practice=False, rules={"preset": "standard"},
                      seats=seats, host=0, grace_seconds=0, next_deal_pause=0,
                      match_number=0, recorded_match=0, game=0)


def ended(number: int, seats: int = 4) -> HistoryAdded:
    return HistoryAdded(match={"number": number, "players": ["x"] * seats,
                               "score_sheet": [[0] * seats], "totals": [0] * seats,
                               "winners": []})


def test_the_holders_of_a_match_follow_the_log() -> None:
    start = checkpoint([SeatData(name="Ann", token_hash="a"), SeatData(bot="easy"),
                        SeatData(name="Cy", token_hash="c", away=True),
                        SeatData(name="Di", token_hash="d", bot="easy")])  # pending
    seats, done = fold(None, [start, ended(1)])
    assert [f.holders for f in done] == [("a", None, "c", None)]
    assert [f.bots for f in done] == [(None, "easy", None, "easy")]
    took = SeatSet(seat=3, data=SeatData(name="Di", token_hash="d"))  # takes the seat
    seats, done = fold(seats, [took, ended(2)])
    assert done[0].holders == ("a", None, "c", "d")
    seats, _ = fold(seats, [RulesSet(rules={"preset": "standard", "players": 3})])
    assert seats is not None and len(seats) == 3
    seats, done = fold(seats, [RulesSet(rules={"preset": "fullstokk", "players": 5}),
                               ended(3, 5)])
    assert done[0].holders == ("a", None, "c", None, None)
    assert seats is not None and seats[4] == SeatHolder(None, seats[4].bot) and seats[4].bot


def test_a_log_without_its_checkpoint_tells_nothing() -> None:
    mirror = SeatMirror()
    assert mirror.ahead("abcde", [ended(1)]) == (None, [])
    mirror.loaded("abcde", [checkpoint([SeatData(name="Ann", token_hash="a")] * 4)])
    _, done = mirror.ahead("abcde", [ended(1)])
    assert done[0].holders == ("a",) * 4 and len(mirror) == 1
    mirror.forget("abcde")
    assert len(mirror) == 0
