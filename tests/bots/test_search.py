"""The search bots' parts: samples agree with everything the seat knows and rebuild the
public deal exactly; the hard cap holds on the slowest positions; hints come with a reason
in three languages; a deal review lists the seat's decisions, biggest loss first."""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from bot_helpers import CLUB_TRICK_MOVES, NORSK, NORSK_HANDS, QUICK_STRONG, exact_match, hands_of
from hint_texts import hint_text, hint_texts

from app.bots import BOTS, HARD_CAP
from app.bots.candidates import discard_candidates, lead_candidates
from app.bots.hints import explain
from app.bots.review import ReviewError, review_deal
from app.bots.sampling import Knowledge
from app.bots.search import SearchBot
from app.bots.search_settings import SearchSettings
from app.rules import (
    AMERIKANER,
    Action,
    Bid,
    Discard,
    DiscardAny,
    Lead,
    Match,
    Play,
    RuleSet,
    SeatView,
)
from app.rules.cards import JOKER1, SUIT_MASKS, parse_card, suit_of
from app.rules.record import deal_to_record
from app.simulate import play_deal

EASY = BOTS["easy"]


def positions(rules: RuleSet, deals: int, seed: int) -> list[tuple[Match, int]]:
    """(a copy of the match, the seat to act) at every decision of easy bots' deals."""
    out = []
    rng = random.Random(seed)
    for i in range(deals):
        match = Match(rules, rng=random.Random(seed * 1000 + i))
        match.start_deal()
        while not match.finished:
            seat = match.turn
            assert seat is not None
            out.append((match.copy(), seat))
            match.apply(seat, EASY.choose(SeatView(match, seat), rng))
    return out


@pytest.mark.parametrize("rules", [
    RuleSet("standard", match="single_deal"),
    RuleSet("guide", players=3, show_kitty=True, match="single_deal"),
    RuleSet("norsk", players=5, jokers=2, match="single_deal"),
    RuleSet("standard", all_pass="minus_round", led_two_wins=True, jokers=1,
            match="single_deal"),
])
def test_samples_agree_with_what_the_seat_knows(rules: RuleSet) -> None:
    rng = random.Random(1)
    checked = 0
    for match, seat in positions(rules, 3, 7)[::3]:
        view = SeatView(match, seat)
        know = Knowledge(view)
        real = match.deals[-1]
        for _ in range(3):
            hands, pile = know.sample(rng)
            assert hands[seat] == view.hand
            assert [h.bit_count() for h in hands] == view.hand_counts
            everything = pile
            for h in hands:
                assert not everything & h
                everything |= h
            assert not everything & view.played
            for s in range(len(hands)):
                for suit in range(4):
                    if know.voids[s] >> suit & 1:
                        assert not hands[s] & SUIT_MASKS[suit]
            if view.called is not None and view.bidder is not None \
                    and everything >> view.called & 1 and seat != view.bidder:
                assert not hands[view.bidder] >> view.called & 1
                assert not pile >> view.called & 1
            state = know.state(hands, pile, rng)
            assert state is not None, "the engine refused a sample"
            # The rebuilt deal shows the seat exactly what the real one does.
            assert state.turn == real.turn and state.phase == real.phase
            assert state.tricks == real.tricks and state.trick_cards == real.trick_cards
            assert state.tricks_won == real.tricks_won and state.called == real.called
            assert state.legal_actions() == real.legal_actions() or \
                type(real.legal_actions()[0]) is DiscardAny
            checked += 1
    assert checked > 30


def test_jokers_and_led_suits_leave_no_false_voids() -> None:
    """A joker played to a suited lead shows a void in that suit; a card after a led
    joker shows nothing."""
    rules = RuleSet("standard", jokers=2, match="single_deal")
    for match, seat in positions(rules, 4, 3):
        know = Knowledge(SeatView(match, seat))
        for leader, cards, _ in match.deals[-1].tricks:
            if cards[0] >= JOKER1:
                continue
            suit = cards[0] // 13
            for i, c in enumerate(cards[1:], 1):
                showed_out = c >= JOKER1 or c // 13 != suit
                assert bool(know.voids[(leader + i) % 4] >> suit & 1) or not showed_out


def slowest_positions() -> list[tuple[Match, int]]:
    """Three players with a kitty: a 16-card hand at the opening lead and at the first
    card of a defender; and a bid with a full hand."""
    rules = RuleSet("standard", players=3, match="single_deal")
    out = []
    for match, seat in positions(rules, 2, 11):
        deal = match.deals[-1]
        if deal.phase == "lead" or (deal.phase == "play" and deal.tricks_played == 0) \
                or (deal.phase == "auction" and not deal.calls):
            out.append((match, seat))
    return out


def test_the_cap_holds_on_the_slowest_positions() -> None:
    """The deadline holds on the most expensive decisions (the search stops within 0.1 s
    of CPU time after it); the default cap is one second."""
    assert HARD_CAP == 1.0
    bot = SearchBot("strong", SearchSettings(budget=60.0, samples=10_000, exact=4, exact_now=5,
                                             search_auction=True))
    cases = slowest_positions()
    assert len(cases) >= 4
    for match, seat in cases:
        view = SeatView(match, seat)
        # The work done after the deadline is counted in this thread's CPU time: a busy
        # machine stretches wall time (the deadline then comes after less work), never
        # the CPU time a search spends, so the bound holds on any machine.
        start, cpu = time.monotonic(), time.thread_time()
        action = bot.choose(view, random.Random(2), deadline=start + 0.15)
        spent = time.thread_time() - cpu
        assert spent < 0.15 + 0.1, (match.deals[-1].phase, spent)
        if isinstance(action, Discard):
            assert not view.discard_allowed(action.cards)
        else:
            assert action in view.legal


def test_hints_give_a_legal_action_and_a_reason_in_three_languages() -> None:
    texts = hint_texts()
    assert set(texts) == {"en", "nb", "fr"}
    assert texts["en"].keys() == texts["nb"].keys() == texts["fr"].keys()
    rules = RuleSet("standard", match="single_deal")
    kinds = set()
    for match, seat in positions(rules, 2, 5)[::2]:
        view = SeatView(match, seat)
        hint = explain(view, random.Random(1), bot=QUICK_STRONG)
        if isinstance(hint.action, Discard):
            assert not view.discard_allowed(hint.action.cards)
        else:
            assert hint.action in view.legal
        assert hint.key in texts["en"], hint.key
        for lang in texts:
            text = hint_text(hint, lang)
            assert "{" not in text, (hint.key, text)
        json.dumps(hint.to_json())
        kinds.add(type(hint.action))
    assert {Bid, Play} <= kinds


def test_norwegian_hints_use_the_games_words() -> None:
    nb = hint_texts()["nb"]
    assert "rop" in nb["hint.call_highest_missing"]
    assert "kalle" not in " ".join(nb.values())
    assert "stikk" in nb["hint.bid_expected"] and "trumf" in nb["hint.bid_expected"]
    fr = hint_texts()["fr"]
    assert "pli" in fr["hint.bid_expected"] and "appelez" in fr["hint.call_highest_missing"]


def test_a_deal_review_lists_the_seats_decisions_biggest_loss_first() -> None:
    rules = RuleSet("standard", match="single_deal")
    match = play_deal(rules, [EASY] * 4, 5)
    deal = match.deals[-1]
    assert deal.bidder is not None
    record: dict[str, Any] = deal_to_record(deal)
    seat = deal.bidder
    review = review_deal(rules, record, seat, random.Random(1), time.monotonic() + 3.0)
    data: dict[str, Any] = review.to_json()
    json.dumps(data)
    mine = [i for i, a in enumerate(record["actions"]) if a["seat"] == seat]
    assert {d["index"] for d in data["decisions"]} <= set(mine)
    assert len(data["decisions"]) >= 5
    losses = [d["loss"] for d in data["decisions"]]
    assert losses == sorted(losses, reverse=True) and min(losses) >= 0
    assert data["bidder"] == seat and data["points"] == deal.points[seat]  # type: ignore[index]
    assert data["side_tricks"] is not None
    if data["double_dummy"] is not None:
        assert 0 <= data["double_dummy"] <= rules.shape.side_tricks


def test_a_review_needs_a_finished_deal() -> None:
    rules = RuleSet("standard", match="single_deal")
    match = play_deal(rules, [EASY] * 4, 6)
    record: dict[str, Any] = deal_to_record(match.deals[-1])
    record["actions"] = record["actions"][:-3]
    with pytest.raises(ReviewError, match="not finished"):
        review_deal(rules, record, 0, random.Random(1), time.monotonic() + 1.0)


def test_a_hint_to_take_a_trick_cheaply() -> None:
    match = exact_match(NORSK, NORSK_HANDS, dealer=3)
    for seat, action in CLUB_TRICK_MOVES:
        match.apply(seat, action)
    hint = explain(SeatView(match, 0), random.Random(0), bot=QUICK_STRONG)
    assert hint.action in (Play(parse_card("QC")), Play(parse_card("KC")), Play(parse_card("AC")))
    assert hint.key == "hint.play_take_trick"
    assert hint_text(hint, "en").startswith("Play the ")


def test_a_hint_to_bid_amerikaner_and_hint_keys_fit_the_action() -> None:
    hands = hands_of("AS KS QS JS TS 9S AH KH AD KD AC KC",
                     "8S 7S 6S 5S QH JH TH QD JD TD QC JC",
                     "4S 3S 2S 9H 8H 7H 9D 8D 7D TC 9C 8C",
                     "6H 5H 4H 3H 2H 6D 5D 4D 3D 2D 7C 6C")
    match = exact_match(RuleSet("standard"), hands, kitty="5C 4C 3C 2C", dealer=3)
    hint = explain(SeatView(match, 0), random.Random(0), bot=QUICK_STRONG)
    assert hint.action == AMERIKANER and hint.key == "hint.bid_amerikaner"
    prefixes = {Bid: ("hint.bid", "hint.pass", "hint.only"), Discard: ("hint.discard",),
                Lead: ("hint.call", "hint.lead", "hint.only"),
                Play: ("hint.play", "hint.only")}
    for match, seat in positions(RuleSet("guide", players=3, match="single_deal"), 1, 9):
        hint = explain(SeatView(match, seat), random.Random(1), bot=QUICK_STRONG)
        assert hint.key.startswith(prefixes[type(hint.action)]), (hint.action, hint.key)


# Up to 40 samples, no time limit to speak of: the Amerikaner search's verdict is steady.
AMERIKANER_SEARCH = SearchBot("strong", SearchSettings(budget=30.0, samples=40, exact=3,
                                                       exact_now=4, search_auction=True,
                                                       relative=True))


@pytest.mark.parametrize(("hand", "bids_amerikaner"), [
    # One loser (5C): the kitty's cards and the discard mend it two times in three.
    ("AS KS QS JS TS 9S 8S AH KH QH AD 5C", True),
    # Three losers: the kitty rarely mends them all.
    ("AS KS QS JS TS 9S 8S AH KH 5D 4C 3C", False),
])
def test_amerikaner_is_searched_like_the_other_bids(hand: str, bids_amerikaner: bool) -> None:
    deck = RuleSet("standard").shape.deck
    mine = hands_of(hand)[0]
    rest = [c for c in range(64) if deck >> c & 1 and not mine >> c & 1]
    random.Random(3).shuffle(rest)
    hands = [mine] + [sum(1 << c for c in rest[12 * i:12 * i + 12]) for i in range(3)]
    match = Match(RuleSet("standard", match="single_deal"), rng=random.Random(0),
                  first_dealer=3)
    match.start_deal(hands=hands, kitty=sum(1 << c for c in rest[36:]))
    view = SeatView(match, 0)
    assert EASY.choose(view, random.Random(0)) != AMERIKANER  # not a sure hand
    # No wall-clock deadline: every one of the 40 samples, however busy the machine.
    estimate = AMERIKANER_SEARCH.estimate(view, random.Random(5), deadline=math.inf)
    assert (estimate.best == AMERIKANER) is bids_amerikaner, estimate.points
    assert AMERIKANER in estimate.points and estimate.samples == 40  # priced, not skipped


def test_a_decision_where_the_card_does_not_matter_stops_early() -> None:
    # ``settle``: after that many samples, a decision whose candidates all scored the
    # same in every sample stops with the heuristic's choice; any other goes on.
    settings = SearchSettings(budget=1e9, samples=10, exact=4, exact_now=5,
                              search_auction=True, relative=True, settle=3)
    bot = SearchBot("settled", settings)
    settled = searched = 0
    for match, seat in positions(RuleSet("standard", match="single_deal"), 3, 7):
        view = SeatView(match, seat)
        if view.phase != "play" or len(view.legal) < 2:
            continue
        est = bot.estimate(view, random.Random(1), time.monotonic() + 60)
        if est.samples == 0:
            continue  # one candidate: nothing searched
        alike = all(v == est.per_sample[est.fallback] for v in est.per_sample.values())
        if est.samples == 3:
            assert alike and est.best == est.fallback
            settled += 1
        else:
            assert est.samples == 10 and not all(
                v[:3] == est.per_sample[est.fallback][:3] for v in est.per_sample.values())
            searched += 1
        if settled and searched >= 2:
            break
    assert settled and searched


def easy_at(phase: str) -> Iterator[tuple[SeatView, Action]]:
    """The views of 40 standard positions at ``phase``, each with ``easy``'s choice."""
    for match, seat in positions(RuleSet("standard", match="single_deal"), 40, 11):
        view = SeatView(match, seat)
        if view.phase == phase:
            yield view, EASY.choose(view, random.Random(1))


def test_wide_leads_compare_every_suit_and_a_high_lead_calling_the_next_card() -> None:
    # ``wide_leads``: the first lead and call try every suit the bidder holds, and a high
    # lead calling the second highest live card; by default only the three best suits.
    widened = False
    for view, fallback in easy_at("lead"):
        narrow = lead_candidates(view, fallback)
        wide = lead_candidates(view, fallback, wide=True)
        assert set(narrow) <= set(wide) <= set(view.legal)
        assert suits(wide) == suits(view.legal)
        widened = widened or len(suits(wide)) > len(suits(narrow))
    assert widened


def test_more_discards_a_trump_compare_more_kitty_discards() -> None:
    # ``discards_per_trump``: per trump suit the bidder's kitty discard compares that
    # many of the best discards that keep it; each allowed, none twice, easy's first.
    widened = 0
    for view, fallback in easy_at("discard"):
        one = discard_candidates(view, fallback)
        two = discard_candidates(view, fallback, per_trump=2)
        assert one[0] == two[0] == fallback
        assert set(one) <= set(two) and len(set(two)) == len(two)
        for action in two:
            assert isinstance(action, Discard) and not view.discard_allowed(action.cards)
        widened += len(two) > len(one)
    assert widened


def suits(leads: Sequence[Action]) -> set[int]:
    """The suits of the first leads among ``leads``."""
    return {suit_of(a.card) for a in leads if isinstance(a, Lead)}


def test_a_partner_without_search_plays_easys_card_and_the_others_still_search() -> None:
    """``search_partner`` off: the partner's trick play is ``easy``'s, unsearched; the
    bidder's and the defenders' trick play is searched as before."""
    settings = replace(QUICK_STRONG.settings, search_partner=False)
    bot = SearchBot("strong+partner=easy", settings)
    partner_turns = searched = 0
    for match, seat in positions(RuleSet("standard", match="single_deal"), 6, 11):
        view = SeatView(match, seat)
        if len(view.legal) < 2 or not isinstance(view.legal[0], Play):
            continue
        estimate = bot.estimate(view, random.Random(1))
        if view.partner == seat:
            partner_turns += 1
            assert estimate.samples == 0
            assert estimate.best == EASY.choose(view, random.Random(1))
        elif estimate.samples:
            searched += 1
    assert partner_turns and searched


def test_without_jumps_a_bid_is_the_lowest_number_or_none() -> None:
    """``jumps`` off: of the numbers, only the lowest legal one is priced (and so bid),
    as ``easy`` raises; with it on, the search prices every legal number."""
    quick = replace(QUICK_STRONG.settings, budget=1e9, samples=6)
    plain, jumpless = SearchBot("q", quick), SearchBot("q+jumps=0", replace(quick, jumps=False))
    auctions = 0
    for match, seat in positions(RuleSet("standard", match="single_deal"), 4, 5):
        view = SeatView(match, seat)
        numbers = [a for a in view.legal if isinstance(a, Bid) and isinstance(a.value, int)]
        if view.phase != "auction" or len(numbers) < 2:
            continue
        priced = [a for a in plain.estimate(view, random.Random(1), math.inf).points
                  if a in numbers]
        if not priced:
            continue  # a sure hand or a hopeless one: easy's choice, no search
        estimate = jumpless.estimate(view, random.Random(1), math.inf)
        assert [a for a in estimate.points if a in numbers] == numbers[:1]
        assert estimate.best not in numbers[1:]
        assert priced == numbers
        auctions += 1
    assert auctions
