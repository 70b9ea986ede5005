"""The shapes of the rules the bots are measured and tested in (issue 25): table sizes,
house rules and the presets without a kitty, each a rule set's options on top of a preset
(``standard`` unless it names one).  Where the hidden information or the auction differ,
a bot's strength may differ: benchmarks/bots.py ``--shapes`` reports each, and
tests/bots/test_bots_legal.py checks the bots see no hidden card in each."""

from __future__ import annotations

from pydantic import JsonValue

from app.rules import RuleSet

SHAPES: dict[str, dict[str, JsonValue]] = {
    "standard": {},
    "3 players": {"players": 3},
    "5 players": {"players": 5},
    "jokers": {"jokers": 2},
    "grand": {"grand": True},
    "led two wins": {"led_two_wins": True},
    "minus round": {"all_pass": "minus_round"},
    "bidder double": {"bidder_double": True},
    "norsk": {"preset": "norsk"},
    "fullstokk": {"preset": "fullstokk"},
}


def shape_rules(name: str, **changes: JsonValue) -> RuleSet:
    """The rule set of shape ``name`` (``KeyError`` for an unknown one), with ``changes``."""
    options = {**SHAPES[name], **changes}
    preset = str(options.pop("preset", "standard"))
    return RuleSet(preset, **options)
