"""Helpers for the game-record tests (``match_to_record``, ``replay_record``,
docs/spec/GAME-RECORD.md): the spec's worked example and records changed from it, random
matches between random bots and their records, and the result line's error.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from app.bots import choose_action
from app.rules import AMERIKANER, Match, RuleSet, SeatView
from app.rules.record import match_to_record, replay_record

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "spec" / "examples"
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]

# Rule sets for random matches: every preset, 3 and 5 seats, and each option that changes
# what a record may hold (voids, minus rounds, grand, jokers, alone, match ends).
RULE_VARIANTS: list[dict[str, Any]] = [
    {"preset": "standard", "target": 20},
    {"preset": "guide", "target": 20},
    {"preset": "norsk", "target": 20},
    {"preset": "fullstokk", "target": 20},
    {"preset": "standard", "players": 3, "match": "deals:4"},
    {"preset": "guide", "players": 5, "match": "deals:4"},
    {"preset": "norsk", "players": 5, "jokers": 2, "match": "deals:4"},
    {"preset": "standard", "all_pass": "minus_round", "match": "deals:5"},
    {"preset": "guide", "all_pass": "redeal_next_dealer", "grand": True, "match": "deals:4"},
    {"preset": "fullstokk", "jokers": 1, "led_two_wins": True, "match": "deals:4"},
    {"preset": "standard", "grand": True, "show_kitty": True, "bidder_double": True,
     "match": "deals:4"},
    {"preset": "standard", "kitty": 0, "no_callable": "play_alone", "amerikaner_points": 30,
     "match": "single_deal"},
]


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return data


def play_match(options: dict[str, Any], seed: int, max_actions: int | None = None) -> Match:
    """A match between random bots (auto-redeal on, as a room plays), stopped after
    ``max_actions`` actions when given."""
    rng = random.Random(seed)
    m = Match(RuleSet.from_json(options), rng=rng)
    m.start_deal()
    done = 0
    while not m.finished and (max_actions is None or done < max_actions):
        seat = m.turn
        if seat is None:  # a scored deal is over: a room deals the next one
            m.start_deal()
            continue
        legal = m.legal_actions()
        if AMERIKANER in legal and rng.random() < 0.03:
            # The random bot bids Amerikaner only when nothing else is left to bid.
            m.apply(seat, AMERIKANER)
        else:
            m.apply(seat, choose_action("random", SeatView(m, seat), rng))
        done += 1
        assert done < 20000, "the match does not end"
    return m


def record_of(m: Match) -> dict[str, Any]:
    """The record as a file would hold it (through JSON, so nothing Python-only slips in)."""
    data: dict[str, Any] = json.loads(json.dumps(match_to_record(m, NAMES[:m.n])))
    return data


def error_at(data: object) -> tuple[int | None, int | None]:
    result = replay_record(data)
    assert result["ok"] is False, result
    error = result["error"]
    assert set(error) == {"deal", "action", "message"}
    assert isinstance(error["message"], str) and error["message"]
    return error["deal"], error["action"]


def message(data: object) -> str:
    result = replay_record(data)
    assert result["ok"] is False, result
    text: str = result["error"]["message"]
    return text


# -- what the result line says ---------------------------------------------------------


def made8() -> dict[str, Any]:
    return example("seed000-made-8")


def with_actions(data: dict[str, Any], count: int) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out["deals"][0]["actions"] = out["deals"][0]["actions"][:count]
    return out


def all_pass(dealer: int = 0) -> list[dict[str, Any]]:
    return [{"seat": (dealer + 1 + k) % 4, "bid": "pass"} for k in range(4)]


# -- broken records: where they break --------------------------------------------------


def changed(path: list[Any], value: Any) -> dict[str, Any]:
    """The made-8 example with the value at ``path`` replaced (``...``: deleted)."""
    data = made8()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


def deal0(key: str, value: Any) -> dict[str, Any]:
    return changed(["deals", 0, key], value)


def action_at(index: int, action: object) -> dict[str, Any]:
    return changed(["deals", 0, "actions", index], action)
