"""What a process remembers of rooms other processes hold (app/rooms/store/lease_cache.py):
a refusal until its holder's heartbeat ends, never longer than the bound, forgotten when
the room is let go; past refusals do not pile up."""

from __future__ import annotations

from app.rooms.store.lease_cache import HeldElsewhere


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_refusal_holds_until_the_holders_heartbeat_ends_or_it_lets_go() -> None:
    clock = Clock()
    held = HeldElsewhere(longest=3.0, clock=clock)
    held.refused("abcde", 2.0)
    held.refused("fghij", 60.0)  # a holder with a longer lease: our own bound
    held.refused("klmno", None)  # let go meanwhile: nothing to remember
    held.refused("pqrst", -0.5)  # its holder is dead already
    assert "abcde" in held and "fghij" in held
    assert "klmno" not in held and "pqrst" not in held
    clock.now += 1.99
    assert "abcde" in held
    clock.now += 0.02
    assert "abcde" not in held and "fghij" in held
    held.forget(["fghij", "zzzzz"])
    assert "fghij" not in held and len(held) == 0


def test_past_refusals_do_not_pile_up() -> None:
    clock = Clock()
    held = HeldElsewhere(longest=3.0, clock=clock)
    for i in range(10_000):
        held.refused(f"r{i}", 1.0)
        clock.now += 0.01
    assert len(held) <= 2 * 128  # about the last second's, not all of them
    held.clear()
    assert len(held) == 0
