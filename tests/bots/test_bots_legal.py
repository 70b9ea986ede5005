"""Every bot, under every preset, 3/4/5 players and random option combinations, only ever
takes actions its seat's view allows, and every deal comes to an end; and a bot's choice
depends only on its view."""

from __future__ import annotations

import random

import pytest
from bot_helpers import QUICK, play_checked
from option_tables import PLAY_OPTIONS
from pydantic import JsonValue

from app.bots import (
    ALIASES,
    BEST_BOT,
    BOT_LEVELS,
    BOTS,
    DEFAULT_ROOM_BOT,
    Bot,
    choose_action,
    get_bot,
    level_name,
)
from app.bots.shapes import SHAPES, shape_rules
from app.rules import PRESET_NAMES, Match, RuleSet, RulesetError, SeatView
from app.rules.cards import cards_of

COMBOS_PER_CASE = 6  # option combinations per preset and table size
DEALS_PER_COMBO = 6


def random_rules(preset: str, players: int, rng: random.Random) -> RuleSet:
    """A valid rule set with random options, every option of tests/option_tables.py but
    the table's size and the match's length (invalid draws are drawn again)."""
    while True:
        options = {name: rng.choice(values) for name, values in PLAY_OPTIONS.items()
                   if rng.random() < 0.6}
        try:
            return RuleSet(preset, players=players, match="single_deal", **options)
        except RulesetError:
            continue


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bots_play_legally_under_random_options(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}-{players}")
    for _ in range(COMBOS_PER_CASE):
        rules = random_rules(preset, players, rng)
        for _ in range(DEALS_PER_COMBO):
            seat_bots = [rng.choice(("random", "easy")) for _ in range(players)]
            match = Match(rules, rng=random.Random(rng.getrandbits(32)))
            match.start_deal()
            play_checked(match, seat_bots, random.Random(rng.getrandbits(32)))
            assert match.deals[-1].outcome in ("played", "minus_round")


SEARCH_COMBOS = 2  # the search levels think longer: fewer deals, every seat searching


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_search_bots_play_legally_under_random_options(preset: str, players: int) -> None:
    rng = random.Random(f"search-{preset}-{players}")
    for _ in range(SEARCH_COMBOS):
        rules = random_rules(preset, players, rng)
        seat_bots = [rng.choice(("normal", "strong")) for _ in range(players)]
        match = Match(rules, rng=random.Random(rng.getrandbits(32)))
        match.start_deal()
        play_checked(match, seat_bots, random.Random(rng.getrandbits(32)), bots=QUICK)
        assert match.deals[-1].outcome in ("played", "minus_round")


@pytest.mark.parametrize("options", [
    {"no_callable": "redeal", "show_kitty": True},
    {"no_callable": "play_alone", "remove_twos": "all", "jokers": 0},
    {"all_pass": "minus_round", "jokers": 2, "led_two_wins": True},
    {"grand": True, "bidder_double": True, "amerikaner_points": 20},
])
def test_heuristic_table_under_house_rules(options: dict[str, JsonValue]) -> None:
    """Four heuristic seats (the bot meets itself in rooms) over many deals."""
    rules = RuleSet("standard", match="single_deal", **options)
    rng = random.Random(5)
    for deal in range(40):
        match = Match(rules, rng=random.Random(deal))
        match.start_deal()
        play_checked(match, ["heuristic"] * 4, rng)


def test_the_registry() -> None:
    assert BOT_LEVELS == ("random", "easy", "normal", "strong")
    assert set(BOTS) == {*BOT_LEVELS, "heuristic"}
    assert ALIASES == {"heuristic": "easy"}
    assert get_bot("heuristic") is BOTS["easy"] is get_bot("easy")
    assert level_name("heuristic") == "easy"
    assert BEST_BOT in BOT_LEVELS and DEFAULT_ROOM_BOT in BOT_LEVELS
    match = Match(RuleSet(), rng=random.Random(1))
    match.start_deal()
    seat = match.turn
    assert seat is not None
    view = SeatView(match, seat)
    assert choose_action("heuristic", view, random.Random(1)) in view.legal
    assert choose_action("easy", view, random.Random(1), deadline=None) in view.legal
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        choose_action("genius", view, random.Random(1))


NO_DEADLINE = float("inf")


@pytest.mark.slow  # 40 s of searches in all
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize(("name", "deals"), [("easy", 4), ("normal", 1), ("strong", 1)])
def test_bots_see_no_hidden_cards(name: str, deals: int, shape: str) -> None:
    """Moving the cards of the other hands around (the same number each) changes nothing a
    seat can see (the partner's seat is kept apart from the hands until it is revealed),
    so it must not change what the bot does with the same seed: in every shape."""
    rules = shape_rules(shape, match="single_deal")
    bot: Bot = QUICK[name]
    checked = 0
    for deal_seed in range(deals):
        match = Match(rules, rng=random.Random(deal_seed))
        match.start_deal()
        while not match.finished:
            seat = match.turn
            assert seat is not None
            view = SeatView(match, seat)
            # No wall-time stop: the quick levels stop after a count of samples, so the
            # same seed gives the same search on a busy machine as on a quiet one.
            action = bot.choose(view, random.Random(3), deadline=NO_DEADLINE)
            deal = match.deals[-1]
            saved = list(deal.hands)
            others = [s for s in range(len(saved)) if s != seat]
            pool = [c for s in others for c in cards_of(saved[s])]
            random.Random(checked).shuffle(pool)
            start = 0
            for s in others:
                count = saved[s].bit_count()
                deal.hands[s] = sum(1 << c for c in pool[start:start + count])
                start += count
            try:
                moved = bot.choose(SeatView(match, seat), random.Random(3), deadline=NO_DEADLINE)
            finally:
                deal.hands[:] = saved
            assert moved == action
            checked += 1
            match.apply(seat, action)
    assert checked > 10 * deals
