"""Helpers for the bot tests: playing deals with bots while checking every action, and
setting up exact deals."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from app.bots import BOTS, Bot
from app.bots.search import SearchBot
from app.bots.search_settings import SearchSettings
from app.rules import PASS, Action, Bid, DealState, Discard, Lead, Match, Play, RuleSet, SeatView
from app.rules.cards import mask_of_ids, parse_card
from app.rules.phases import Phase

# The search levels with a few samples and no time limit to speak of: the same code paths
# as in play (sampling, rollouts, the exact endgame, every phase), fast and reproducible.
QUICK_NORMAL = SearchBot("normal", SearchSettings(budget=30.0, samples=2, exact=3, exact_now=4,
                                                  search_auction=False))
QUICK_STRONG = SearchBot("strong", SearchSettings(budget=30.0, samples=2, exact=3, exact_now=4,
                                                  search_auction=True, bid_bonus=0.3))
QUICK: dict[str, Bot] = {**BOTS, "normal": QUICK_NORMAL, "strong": QUICK_STRONG}

class Ticking:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def play_checked(match: Match, seat_bots: list[str], rng: random.Random,
                 max_actions: int = 5000, bots: dict[str, Bot] | None = None) -> int:
    """Play ``match`` to its end with these bots (from ``bots``, default the registry),
    asserting that every action is one the seat's view allows; return the number of
    actions."""
    bots = BOTS if bots is None else bots
    done = 0
    while not match.finished:
        seat = match.turn
        assert seat is not None
        view = SeatView(match, seat)
        action = bots[seat_bots[seat]].choose(view, rng)
        if isinstance(action, Discard):
            why = view.discard_allowed(action.cards)
            assert why == "", f"{seat_bots[seat]} discarded against the rules: {why}"
        else:
            assert action in view.legal, (
                f"{seat_bots[seat]} chose {action!r}, not among {view.legal!r}")
        match.apply(seat, action)
        done += 1
        assert done < max_actions, "the match does not end"
    return done


def hands_of(*hands: str) -> list[int]:
    """Hand masks from card ids written like ``"AS KS 2H"``."""
    return [mask_of_ids(h.split()) for h in hands]


def exact_match(rules: RuleSet, hands: list[int], kitty: str = "",
                dealer: int = 0) -> Match:
    """A match whose first deal is exactly these hands and kitty."""
    match = Match(rules, rng=random.Random(0), first_dealer=dealer)
    match.start_deal(hands=hands, kitty=mask_of_ids(kitty.split()))
    return match


# A norsk deal with a clear club trick for the bidder (seat 0): after these moves a
# defender's 8C is winning, seat 0 holds AC KC QC and only seat 1 (clubs 2-4) is to come.
NORSK = RuleSet("norsk")
NORSK_HANDS = hands_of("AS KS QS 5S 4S 3S AH KH AD KD AC KC QC",
                       "2S 6S 7S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C",
                       "JS 8S 6H 7H 8H 9H 5D 6D 7D 8D 5C 6C 7C",
                       "TS 9S TH JH QH 9D TD JD QD 8C 9C TC JC")
CLUB_TRICK_MOVES: list[tuple[int, Action]] = [
    (0, Bid(7)), (1, PASS), (2, PASS), (3, PASS), (0, Lead(parse_card("3S"), parse_card("JS"))),
    (1, Play(parse_card("2S"))), (2, Play(parse_card("JS"))), (3, Play(parse_card("9S"))),
    (2, Play(parse_card("5C"))), (3, Play(parse_card("8C")))]


DEALS = 12  # deals a run of ``decisions`` plays


def decisions(rules: RuleSet, rng: random.Random,
              level: Callable[[int, Phase], str]) -> Iterator[tuple[DealState, int, SeatView]]:
    """Play DEALS deals, each seat by ``level(seat, phase)``; yield every decision
    (the deal, the seat, its view) before it is made."""
    for _ in range(DEALS):
        match = Match(rules, rng=random.Random(rng.getrandbits(32)))
        match.start_deal()
        while not match.finished:
            deal = match.deals[-1]
            seat = deal.turn
            assert seat is not None
            view = SeatView(match, seat)
            yield deal, seat, view
            match.apply(seat, BOTS[level(seat, deal.phase)].choose(view, rng))
