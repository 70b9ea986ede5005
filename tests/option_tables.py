"""The one table of rule options and the one table of room settings that the tests read,
both derived from the code's own declarations, so that a new option or setting is tried
by every test that reads them without a change to any test:

- ``RULE_OPTIONS``: every option of ``app.rules.ruleset.Options`` (docs/spec/RULES.md section 1)
  with the values the tests try (test_ruleset.py accepts each, the random playthroughs of
  tests/rules/test_properties.py and tests/bots/test_bots_legal.py draw from them,
  tests/bots/test_scoring_options.py scores each value alone, tests/test_texts.py wants
  each option's name and help and each named value's label);
- ``ROOM_SETTINGS``: every setting a host changes, the fields of the ``settings`` message
  (``app.rooms.core.messages.SettingsMessage``), with the values the tests try
  (tests/rooms/test_room_settings.py changes each and checks the room keeps it; the room
  core's property test sends them; ``core_table.summary`` compares them after a replay).

A field whose type lists its values (a ``Literal``, ``bool`` or an enum) gets them from
its type. A field of an open type (a number in a range, a string of a pattern) has its
values chosen in ``CHOSEN_RULE_VALUES`` / ``CHOSEN_SETTING_VALUES``: importing this
module fails, naming the field and this file, until they are written there.

Imported as a top-level module, like ``shared_helpers``: pytest puts tests/ on
``sys.path`` for tests/conftest.py, whichever test folder runs."""

from __future__ import annotations

import enum
import types
import typing
from typing import Any

from pydantic import BaseModel

from app.rooms.core.messages import SettingsMessage
from app.rules.ruleset import Options

# Rule options of an open type: values every preset with 4 players accepts (the bid range
# of the standard preset is 7 to 13), besides the default.
CHOSEN_RULE_VALUES: dict[str, tuple[Any, ...]] = {
    "min_bid": (6, 8),
    "max_bid": (10, 13),
    "amerikaner_points": (1, 20, 52, 100),
    "target": (1, 30, 52, 200),
    "match": ("target", "single_deal", "deals:1", "deals:12"),
}
# Room settings of an open type (seconds): none, and a value in range.
CHOSEN_SETTING_VALUES: dict[str, tuple[Any, ...]] = {
    "grace_seconds": (0, 20),
    "next_deal_pause": (0, 5),
}

# What sets the size and length of a random playthrough: a test of play draws these
# itself (they decide how long it runs), and every other option from RULE_OPTIONS.
PLAY_SHAPE = frozenset({"players", "match", "target"})
# Options whose valid values depend on the deck (the bid range): a random rule set draws
# them within its deck (test_properties.py) or is drawn again when they do not fit.
DECK_BOUND = frozenset({"min_bid", "max_bid"})


class UnlistedField(TypeError):
    """A declared field with neither values of its own type nor chosen ones here."""


def listed_values(annotation: Any) -> tuple[Any, ...] | None:
    """The values a type annotation lists (``Literal`` arguments, both booleans, an enum's
    values), ``None`` left out; ``None`` when it lists none (``int``, ``str``...)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return listed_values(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        return typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in typing.get_args(annotation) if a is not type(None)]
        found = [listed_values(a) for a in parts]
        if any(values is None for values in found):
            return None
        return tuple(v for values in found if values is not None for v in values)
    if annotation is bool:
        return (False, True)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(member.value for member in annotation)
    return None


def table_of(model: type[BaseModel], chosen: dict[str, tuple[Any, ...]],
             skip: frozenset[str] = frozenset()) -> dict[str, tuple[Any, ...]]:
    """Every field of ``model`` but ``skip`` with its values: listed by its type, else
    ``chosen``; ``UnlistedField`` for a field with neither."""
    table: dict[str, tuple[Any, ...]] = {}
    for name, field in model.model_fields.items():
        if name in skip:
            continue
        values = chosen.get(name) or listed_values(field.annotation)
        if not values:
            raise UnlistedField(
                f"{model.__name__}.{name} has a type that does not list its values: choose "
                f"the values the tests should try in tests/option_tables.py "
                f"(CHOSEN_RULE_VALUES or CHOSEN_SETTING_VALUES)")
        table[name] = values
    stale = set(chosen) - set(model.model_fields)
    if stale:
        raise UnlistedField(f"tests/option_tables.py chooses values for {sorted(stale)}, "
                            f"which {model.__name__} does not declare")
    return table


RULE_OPTIONS: dict[str, tuple[Any, ...]] = table_of(Options, CHOSEN_RULE_VALUES)
ROOM_SETTINGS: dict[str, tuple[Any, ...]] = table_of(SettingsMessage, CHOSEN_SETTING_VALUES,
                                                     skip=frozenset({"type"}))
# The options a random playthrough draws from this table (all but its shape).
PLAY_OPTIONS: dict[str, tuple[Any, ...]] = {
    name: values for name, values in RULE_OPTIONS.items() if name not in PLAY_SHAPE}


def setting_messages() -> list[dict[str, Any]]:
    """A host's ``settings`` message for each value of each setting."""
    return [{"type": "settings", name: value}
            for name, values in ROOM_SETTINGS.items() for value in values]
