"""Rule sets: the options of docs/spec/RULES.md section 1, the presets of section 2, the deck shapes
of section 3.1, and the rejection of rule sets that cannot work."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import cards, ids, rules, whole_deck
from option_tables import PLAY_OPTIONS, PLAY_SHAPE, RULE_OPTIONS, listed_values

from app.rules import OPTION_NAMES, PRESET_NAMES, RuleSet, RulesetError
from app.rules.ruleset import PRESETS, Options

# preset -> players -> (hand size, removed twos, min bid, max bid): the numbers of section 2
# worked out by hand for 3 and 5 players (the 4-player ones are the table's).
PRESET_SHAPES: dict[str, dict[int, tuple[int, str, int, int]]] = {
    "standard": {3: (16, "", 9, 17), 4: (12, "", 7, 13), 5: (9, "2C 2D 2H", 5, 10)},
    "guide": {3: (16, "", 8, 16), 4: (12, "", 6, 12), 5: (9, "2C 2D 2H", 5, 9)},
    "norsk": {3: (17, "2C", 9, 16), 4: (13, "", 7, 12), 5: (10, "2C 2D", 5, 9)},
    "fullstokk": {3: (17, "2C", 9, 17), 4: (13, "", 7, 13), 5: (10, "2C 2D", 5, 10)},
}
PRESET_OPTIONS = {
    "standard": {"kitty": 4, "kitty_trick": True, "no_callable": "play_alone",
                 "first_bidder": "left_of_dealer"},
    "guide": {"kitty": 4, "kitty_trick": False, "no_callable": "redeal",
              "first_bidder": "left_of_dealer"},
    "norsk": {"kitty": 0, "kitty_trick": False, "no_callable": "redeal",
              "first_bidder": "left_of_dealer"},
    "fullstokk": {"kitty": 0, "kitty_trick": False, "no_callable": "redeal",
                  "first_bidder": "dealer"},
}
ALL_PRESETS_SHARE = {
    "players": 4, "jokers": 0, "remove_twos": "as_needed", "amerikaner": True,
    "amerikaner_points": 52, "all_pass": "redeal_same_dealer", "target": 52,
    "match": "target", "show_kitty": False, "grand": False, "led_two_wins": False,
    "bidder_double": False,
}


def test_the_preset_names() -> None:
    assert set(PRESET_NAMES) == set(PRESET_OPTIONS)
    assert RuleSet().preset == "standard" == RuleSet.from_json(None).preset
    assert RuleSet.from_json({}).resolved() == RuleSet().resolved()


@pytest.mark.parametrize("preset", list(PRESET_OPTIONS))
def test_preset_options(preset: str) -> None:
    resolved = rules(preset=preset).resolved()
    for option, value in {**PRESET_OPTIONS[preset], **ALL_PRESETS_SHARE}.items():
        assert resolved[option] == value, option


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("preset", list(PRESET_SHAPES))
def test_preset_shapes_for_3_4_5_players(preset: str, players: int) -> None:
    hand, removed, low, high = PRESET_SHAPES[preset][players]
    rs = rules(preset=preset, players=players)
    assert rs.shape.hand_size == hand
    assert ids(rs.shape.removed) == ids(cards(removed))
    assert (rs.shape.min_bid, rs.shape.max_bid) == (low, high)
    assert rs.resolved()["min_bid"] == low and rs.resolved()["max_bid"] == high
    assert rs.resolved()["hand_size"] == hand
    assert rs.shape.deck == whole_deck(rs) & ~rs.shape.removed
    assert hand * players + rs.options.kitty == rs.shape.deck.bit_count()


@pytest.mark.parametrize(("options", "hand", "removed"), [
    ({"players": 3, "kitty": 0}, 17, "2C"),                  # RULES 3.1 examples
    ({"players": 5, "kitty": 0}, 10, "2C 2D"),
    ({"players": 4, "kitty": 4}, 12, ""),
    ({"players": 4, "kitty": 0, "jokers": 2}, 13, "2C 2D"),
    ({"players": 4, "kitty": 0, "jokers": 1}, 13, "2C"),
    ({"players": 3, "kitty": 4, "jokers": 1}, 16, "2C"),
    ({"players": 5, "kitty": 4, "jokers": 2}, 10, ""),
    ({"players": 4, "kitty": 0, "remove_twos": "all"}, 12, "2C 2D 2H 2S"),
    ({"players": 4, "kitty": 4, "remove_twos": "all"}, 11, "2C 2D 2H 2S"),
    ({"players": 3, "kitty": 0, "remove_twos": "all"}, 16, "2C 2D 2H 2S"),
    ({"players": 5, "kitty": 0, "jokers": 2, "remove_twos": "all"}, 10, "2C 2D 2H 2S"),
])
def test_removed_twos(options: dict[str, Any], hand: int, removed: str) -> None:
    rs = rules(**options)
    assert rs.shape.hand_size == hand
    assert ids(rs.shape.removed) == ids(cards(removed))
    assert rs.resolved()["removed"] == len(removed.split())
    jokers = options.get("jokers", 0)
    assert rs.shape.deck.bit_count() == 52 + jokers - len(removed.split())


@pytest.mark.parametrize(("options", "low", "high"), [
    ({"preset": "standard", "kitty_trick": False}, 6, 12),   # T = 12
    ({"preset": "guide", "kitty_trick": True}, 7, 13),       # T = 13
    ({"preset": "guide", "kitty": 0}, 7, 13),                # 13 cards
    ({"preset": "standard", "kitty": 0}, 7, 13),             # no kitty: no kitty trick
    ({"preset": "norsk", "jokers": 2}, 7, 12),
    ({"preset": "standard", "min_bid": 8}, 8, 13),
    ({"preset": "standard", "max_bid": 10}, 7, 10),
    ({"preset": "norsk", "max_bid": 13}, 7, 13),
    ({"preset": "guide", "min_bid": 1, "max_bid": 1}, 1, 1),
    ({"preset": "standard", "min_bid": 13}, 13, 13),
])
def test_bid_range_follows_the_deck_unless_given(options: dict[str, Any], low: int,
                                                 high: int) -> None:
    rs = rules(**options)
    assert (rs.shape.min_bid, rs.shape.max_bid) == (low, high)


def test_the_option_table_covers_every_option_with_its_values() -> None:
    """tests/option_tables.py's table is the engine's declaration: each option with values
    of its own type, each value accepted (below), and the defaults among them where the
    type lists its values."""
    assert list(RULE_OPTIONS) == list(OPTION_NAMES)
    for option, values in RULE_OPTIONS.items():
        assert len(values) >= 2 and len(set(values)) == len(values), option
        listed = listed_values(Options.model_fields[option].annotation)
        assert listed is None or set(values) == set(listed), option
    assert set(PLAY_OPTIONS) == set(OPTION_NAMES) - PLAY_SHAPE


def test_every_option_is_in_the_presets_table() -> None:
    """Every option is either one the presets set (section 2) or one they share: a new
    option needs its preset value written in PRESET_OPTIONS or ALL_PRESETS_SHARE above,
    unless it is an option of this project's own that no preset sets, off in every preset
    (at ``Options``' default): then the rules of every preset play as before without it,
    which this test checks instead of a line to write."""
    set_by_a_preset = {name for values in PRESETS.values() for name in values}
    for preset, options in PRESET_OPTIONS.items():
        missing = set(OPTION_NAMES) - {*options, *ALL_PRESETS_SHARE, "min_bid", "max_bid"}
        own = {name for name in missing if name not in set_by_a_preset}
        resolved = RuleSet(preset).resolved()
        for name in own:
            assert resolved[name] == Options.model_fields[name].default, (preset, name)
        missing -= own
        assert not missing, (f"{preset}: write the value of {sorted(missing)} under the "
                             "presets in ALL_PRESETS_SHARE (or PRESET_OPTIONS) above")


@pytest.mark.parametrize(("option", "value"),
                         [(o, v) for o, values in RULE_OPTIONS.items() for v in values])
def test_every_option_value_is_accepted_and_kept(option: str, value: Any) -> None:
    base: dict[str, Any] = {"preset": "standard"}
    if option == "remove_twos" and value == "all":
        base["players"] = 4  # 48 or 44 cards: divides by 4
    rs = rules(**base, **{option: value})
    assert rs.resolved()[option] == value
    assert getattr(rs.options, option) == value
    assert RuleSet.from_json(rs.to_json()) == rs


def test_match_limits() -> None:
    assert rules(match="target").deals_limit is None
    assert rules(match="single_deal").deals_limit == 1
    assert rules(match="deals:7").deals_limit == 7


def test_json_round_trip_and_changes() -> None:
    rs = rules(preset="guide", target=30, show_kitty=True)
    assert rs.to_json() == {"preset": "guide", "target": 30, "show_kitty": True}
    assert RuleSet.from_json(rs.to_json()) == rs
    assert rs == rules(preset="guide", kitty=4, target=30, show_kitty=True)  # same options
    assert rs != rules(preset="guide", target=31, show_kitty=True)
    switched = rs.with_changes({"preset": "norsk"})
    assert switched.preset == "norsk" and switched.options.target == 30
    assert switched.options.kitty == 0 and switched.options.show_kitty
    assert rs.options.kitty == 4  # the original is unchanged


BAD_RULES: list[Any] = [
    ("colour", {"colour": "red"}),
    ("preset", {"preset": "bridge"}),
    ("preset", {"preset": 3}),
    ("players", {"players": 6}),
    ("players", {"players": 2}),
    ("players", {"players": "4"}),
    ("players", {"players": True}),
    ("kitty", {"kitty": 3}),
    ("kitty", {"kitty": "4"}),
    ("jokers", {"jokers": 3}),
    ("jokers", {"jokers": -1}),
    ("remove_twos", {"remove_twos": "some"}),
    ("kitty_trick", {"kitty_trick": 1}),
    ("amerikaner", {"amerikaner": "yes"}),
    ("show_kitty", {"show_kitty": 0}),
    ("grand", {"grand": None}),
    ("led_two_wins", {"led_two_wins": "true"}),
    ("bidder_double", {"bidder_double": 1}),
    ("first_bidder", {"first_bidder": "right_of_dealer"}),
    ("all_pass", {"all_pass": "replay"}),
    ("no_callable", {"no_callable": "ignore"}),
    ("min_bid", {"min_bid": "7"}),
    ("min_bid", {"min_bid": True}),
    ("min_bid", {"min_bid": 7.0}),
    ("max_bid", {"max_bid": "13"}),
    ("max_bid", {"max_bid": False}),
    ("target", {"target": "52"}),
    ("target", {"target": True}),
    ("target", {"target": 0}),
    ("amerikaner_points", {"amerikaner_points": True}),
    ("amerikaner_points", {"amerikaner_points": "52"}),
    ("amerikaner_points", {"amerikaner_points": 52.0}),
    ("min_bid", {"min_bid": 0}),
    ("min_bid", {"min_bid": -3}),
    ("min_bid", {"min_bid": 10, "max_bid": 9}),
    ("min_bid", {"min_bid": 14}),                          # above the derived max (13)
    ("max_bid", {"max_bid": 14}),                          # standard 4p: T = 13
    ("max_bid", {"preset": "guide", "max_bid": 13}),       # guide: T = 12
    ("max_bid", {"preset": "norsk", "max_bid": 14}),
    ("max_bid", {"players": 5, "max_bid": 11}),            # 9 cards + kitty trick
    ("max_bid", {"max_bid": 3}),                           # below the derived min (7)
    ("match", {"match": "deals:0"}),
    ("match", {"match": "forever"}),
    ("match", {"match": "deals:"}),
    ("match", {"match": "deals:-2"}),
    ("match", {"match": 3}),
    ("match", {"match": "single_deal\n"}),
    ("match", {"match": "deals:1001"}),
    ("match", {"match": "deals:" + "9" * 5000}),
    ("match", {"match": " target"}),
    ("remove_twos", {"remove_twos": "all", "players": 5, "kitty": 0}),
    ("remove_twos", {"remove_twos": "all", "players": 3, "kitty": 4}),
    ("remove_twos", {"remove_twos": "all", "players": 4, "jokers": 1}),
]
# Strict types (docs/spec/GAME-RECORD.md: "not "7", 7.0 or true"): these slip through today.
STRICT_TYPE_BUGS = [
    ("jokers", {"jokers": True}),
    ("jokers", {"jokers": False}),
    ("kitty", {"kitty": False}),
    ("players", {"players": 4.0}),
    ("kitty", {"kitty": 4.0}),
]


@pytest.mark.parametrize(("option", "data"), [
    *BAD_RULES,
    *(pytest.param(o, d) for o, d in STRICT_TYPE_BUGS),
])
def test_a_rule_set_that_cannot_work_is_rejected_naming_the_option(
        option: str, data: dict[str, Any]) -> None:
    with pytest.raises(RulesetError) as caught:
        RuleSet.from_json(data)
    assert caught.value.option == option
    assert caught.value.code == "bad_rules"
    assert str(caught.value).startswith(f"{option}: ") and caught.value.message


@pytest.mark.parametrize("option", list(RULE_OPTIONS))
def test_every_option_refuses_a_value_of_no_type_of_its_own(option: str) -> None:
    with pytest.raises(RulesetError) as caught:
        RuleSet.from_json({option: ["a list"]})
    assert caught.value.option == option


@pytest.mark.parametrize("data", [[1], "standard", 4])
def test_rules_must_be_an_object(data: object) -> None:
    with pytest.raises(RulesetError) as caught:
        RuleSet.from_json(data)
    assert caught.value.option == "rules"
