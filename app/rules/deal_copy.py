"""A deal's copy, written out slot by slot: ``DealState.copy`` (deal.py).

A room copies its current deal at every step, so the copy is written out as
``dataclasses`` writes its methods: the text of a function that assigns each slot in
turn, compiled once at import.  A loop of ``getattr`` and ``setattr`` over the slots
costs about eight times as much.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")

# The slots holding lists the deal edits: a copy gets its own (tests/rules checks that no
# other slot holds a list).
OWN_LISTS = ("calls", "hands", "trick_cards", "tricks", "tricks_won")


def write_slot_copy(cls: type[T], own_lists: tuple[str, ...]) -> Callable[[T], T]:
    """A function copying an instance of ``cls`` (a class with ``__slots__``) slot by slot:
    each slot of ``own_lists`` into a list of its own, every other slot shared."""
    lines = ["def copy(self):", "    other = new(cls)"]
    lines += [f"    other.{name} = list(self.{name})" if name in own_lists
              else f"    other.{name} = self.{name}" for name in vars(cls)["__slots__"]]
    lines.append("    return other")
    namespace: dict[str, object] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # our own text, made from the slots' names
    return cast(Callable[[T], T], namespace["copy"])
