"""Rebuild a ``Match`` from its game record's deals: how a restarted server gets its
rooms back.

The deals are replayed through the engine with ``auto_redeal=False`` so that every deal,
void ones included, comes from the record and not from a new shuffle; the match's own
bookkeeping (totals, dealer rotation, the end) follows from the actions as it did live.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules import Match, RuleSet, parse_action
from app.rules.cards import mask_of_ids


class RestoreError(ValueError):
    """The stored deals do not replay (a bug or a damaged database)."""


def restore_match(rules: RuleSet, deals: Sequence[dict[str, Any]]) -> Match:
    """The match whose deals (record shape, ``deal_to_record``) are ``deals``."""
    if not deals:
        raise RestoreError("a match has at least one deal")
    match = Match(rules, first_dealer=int(deals[0]["dealer"]), auto_redeal=False)
    try:
        for i, raw in enumerate(deals):
            if match.dealer != raw["dealer"]:
                raise RestoreError(f"deal {i}: dealer {raw['dealer']}, expected {match.dealer}")
            hands = [mask_of_ids(hand) for hand in raw["hands"]]
            match.start_deal(hands=hands, kitty=mask_of_ids(raw["kitty"]))
            for entry in raw["actions"]:
                match.apply(int(entry["seat"]), parse_action(entry))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RestoreError):
            raise
        raise RestoreError(f"the stored match does not replay: {exc}") from exc
    match.auto_redeal = True
    deal = match.deal
    if deal is not None and deal.outcome == "void" and not match.finished:
        # the live server always deals again at once; do the same if that was not stored
        match.start_deal()
    return match
