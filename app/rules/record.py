"""Game records (``amerikaner-record/1``, docs/spec/GAME-RECORD.md): the public face.

A record holds the rules, the seats' names, every deal as dealt and every action in
order, so that a match can be replayed exactly.  This module writes a match as a record;
``replay.py`` checks and replays one (``replay_record`` is re-exported here).  Records are
plain JSON-ready dicts: reading and writing files is the caller's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import ids_of, mask_of_ids
from .deal import DealState
from .match import Match
from .replay import FORMAT, RecordError, error_line, replay_record
from .ruleset import RuleSet

__all__ = ["FORMAT", "RecordError", "deal_to_record", "error_line", "match_of_deal",
           "match_to_record", "replay_record"]


def deal_to_record(deal: DealState) -> dict[str, Any]:
    """One deal as dealt, with every action taken in it so far."""
    return {
        "dealer": deal.dealer,
        "hands": [ids_of(hand) for hand in deal.dealt],
        "kitty": ids_of(deal.kitty),
        "actions": [{"seat": seat, **action.to_json()} for seat, action in deal.actions],
    }


def match_of_deal(rules: RuleSet, deal: dict[str, Any]) -> Match:
    """A match around one deal of a record (``deal_to_record``'s shape), dealt as recorded
    and not played yet: the caller applies ``deal["actions"]`` as far as it needs.  Raises
    ``KeyError``, ``TypeError`` or ``ValueError`` for what is not such a deal."""
    match = Match(rules, first_dealer=int(deal["dealer"]), auto_redeal=False)
    match.start_deal(hands=[mask_of_ids(h) for h in deal["hands"]],
                     kitty=mask_of_ids(deal["kitty"]))
    return match


def match_to_record(match: Match, players: Sequence[str]) -> dict[str, Any]:
    """The record of ``match`` so far: finished or not, void deals and an unfinished last
    deal included.  ``players`` are the display names in seat order."""
    if len(players) != match.n:
        raise ValueError(f"a match of {match.n} seats needs {match.n} names, "
                         f"not {len(players)}")
    return {
        "format": FORMAT,
        "rules": match.rules.to_json(),
        "players": [str(name) for name in players],
        "deals": [deal_to_record(deal) for deal in match.deals],
    }
