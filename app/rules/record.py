"""Game records (``amerikaner-record/1``, docs/spec/GAME-RECORD.md): the public face.

A record holds the rules, the seats' names, every deal as dealt and every action in
order, so that a match can be replayed exactly.  This module writes a match as a record;
``replay.py`` checks and replays one (``replay_record`` is re-exported here).  Records are
plain JSON-ready dicts: reading and writing files is the caller's business.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Required, cast

from pydantic import JsonValue
from typing_extensions import TypedDict

from .actions import Action, ActionJson, parse_action, taken_json
from .cards import ids_of, mask_of_ids
from .deal import DealState
from .match import Match
from .record_shape import FORMAT, RecordError
from .replay import error_line, replay_record
from .ruleset import RuleSet

__all__ = ["FORMAT", "RecordError", "deal_to_record", "error_line", "match_of_deal",
           "match_to_record", "recorded_actions", "replay_record"]


class RecordAction(ActionJson, total=False):
    """An action of a record's deal: who acted, and the action's own keys."""

    seat: Required[int]


class DealRecord(TypedDict):
    """A deal of a record: as dealt, with its actions in order."""

    dealer: int
    hands: list[list[str]]
    kitty: list[str]
    actions: list[RecordAction]


class MatchRecord(TypedDict):
    """A game record (``amerikaner-record/1``)."""

    format: str
    rules: dict[str, JsonValue]
    players: list[str]
    deals: list[DealRecord]


def deal_to_record(deal: DealState) -> dict[str, JsonValue]:
    """One deal as dealt, with every action taken in it so far (a ``DealRecord``, handed
    out as the JSON object that the rooms keep and send)."""
    return cast("dict[str, JsonValue]", _deal_record(deal))


def _deal_record(deal: DealState) -> DealRecord:
    return {
        "dealer": deal.dealer,
        "hands": [ids_of(hand) for hand in deal.dealt],
        "kitty": ids_of(deal.kitty),
        "actions": [{"seat": seat, **taken_json(action)} for seat, action in deal.actions],
    }


def match_of_deal(rules: RuleSet, deal: Mapping[str, object]) -> Match:
    """A match around one deal of a record (``deal_to_record``'s shape), dealt as recorded
    and not played yet: the caller applies ``recorded_actions(deal)`` as far as it needs.
    Raises ``KeyError``, ``TypeError`` or ``ValueError`` for what is not such a deal."""
    match = Match(rules, first_dealer=_int(deal["dealer"]), auto_redeal=False)
    match.start_deal(hands=[mask_of_ids(_list(h)) for h in _list(deal["hands"])],
                     kitty=mask_of_ids(_list(deal["kitty"])))
    return match


def recorded_actions(deal: Mapping[str, object]) -> Iterator[tuple[int, Action]]:
    """The (seat, action) pairs of a record's deal, in order; ``KeyError``, ``TypeError``
    or ``ValueError`` (``ActionError`` is one) for what is not such a deal's action."""
    for raw in _list(deal["actions"]):
        if not isinstance(raw, dict):
            raise TypeError(f"an action is an object, not {type(raw).__name__}")
        yield _int(raw["seat"]), parse_action(raw)


def _int(value: object) -> int:
    """``int(value)`` for what a record may hold (``TypeError`` for a list, object, null)."""
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"a number is expected, not {type(value).__name__}")


def _list(value: object) -> list[object]:
    if isinstance(value, list):
        return value
    raise TypeError(f"a list is expected, not {type(value).__name__}")


def match_to_record(match: Match, players: Sequence[str]) -> dict[str, JsonValue]:
    """The record of ``match`` so far: finished or not, void deals and an unfinished last
    deal included.  ``players`` are the display names in seat order."""
    if len(players) != match.n:
        raise ValueError(f"a match of {match.n} seats needs {match.n} names, "
                         f"not {len(players)}")
    record: MatchRecord = {
        "format": FORMAT,
        "rules": match.rules.to_json(),
        "players": [str(name) for name in players],
        "deals": [_deal_record(deal) for deal in match.deals],
    }
    return cast("dict[str, JsonValue]", record)  # a MatchRecord, as the rooms keep it
