"""A long, valid game record for the upload tests and benchmarks: as many deals as fit in
a byte budget (and a count of deals and actions), played by the random bot.  A 1 MiB
record holds about 860 deals and 33,000 actions."""

from __future__ import annotations

import json
import random

from pydantic import JsonValue

from app.bots import choose_action
from app.rules import Match, RuleSet, SeatView
from app.rules.record import FORMAT, deal_to_record

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def long_record(max_bytes: int, seed: int = 0, max_deals: int = 10_000,
                max_actions: int = 1_000_000) -> bytes:
    """The compact JSON of a ``standard`` match whose deals are each played out by the
    random bot, with as many whole deals as keep it within ``max_bytes``, ``max_deals``
    deals and ``max_actions`` actions."""
    rules = {"preset": "standard", "match": "deals:1000"}
    match = Match(RuleSet.from_json(rules), rng=random.Random(seed), auto_redeal=False)
    rng = random.Random(seed + 1)
    head = {"format": FORMAT, "rules": rules, "players": PLAYERS, "deals": []}
    size = len(json.dumps(head, separators=(",", ":")).encode())
    actions = 0
    kept: list[dict[str, JsonValue]] = []
    while not match.finished and len(kept) < max_deals:
        match.start_deal()
        seat = match.turn
        while seat is not None:
            match.apply(seat, choose_action("random", SeatView(match, seat), rng))
            seat = match.turn
        deal = deal_to_record(match.deals[-1])
        more = len(json.dumps(deal, separators=(",", ":")).encode()) + 1  # and a comma
        if size + more > max_bytes or actions + len(match.deals[-1].actions) > max_actions:
            break
        size += more
        actions += len(match.deals[-1].actions)
        kept.append(deal)
    return json.dumps({**head, "deals": kept}, separators=(",", ":")).encode()
