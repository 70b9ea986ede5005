"""Every world the search samples (app/bots/sampling.py) fits what its seat knows: over
random positions of every shape (random deals played some random legal moves by `easy`
and `random`, seen from each seat), each sampled deal gives every hand its size, holds
no card played or seen, puts no card of a suit with a seat that showed out of it, and,
while the called card has not shown, keeps it with exactly one other player: never the
bidder, never the hidden pile, never one who already played to the first trick (its
holder had to play it there) or showed out of its suit.  The engine rebuilds the sample
with that player as the partner."""

from __future__ import annotations

import random

import pytest
from example_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.bots import BOTS, search
from app.bots.sampling import MISMATCH, PILE, TRIES, Knowledge
from app.bots.search import SearchBot
from app.bots.search_settings import SearchSettings
from app.bots.shapes import SHAPES, shape_rules
from app.bots.table_facts import note_trick
from app.rules import Match, SeatView
from app.rules.cards import JOKER1, SUIT_MASKS
from app.rules.phases import Phase


def position(shape: str, seed: int, moves: int, in_trick_one: int | None,
             levels: list[str]) -> Match:
    """A deal of ``shape`` played ``moves`` legal moves by these levels, or, with
    ``in_trick_one``, until that many cards of the first trick are down (if it gets
    there)."""
    rng = random.Random(seed)
    match = Match(shape_rules(shape), rng=random.Random(seed))
    match.start_deal()
    done = 0
    while not match.finished:
        deal = match.deals[-1]
        if in_trick_one is None and done >= moves:
            break
        if (in_trick_one is not None and deal.phase == Phase.PLAY
                and deal.tricks_played == 0 and len(deal.trick_cards) >= in_trick_one):
            break
        seat = deal.turn
        if seat is None:
            break  # the deal is over
        view = SeatView(match, seat)
        match.apply(seat, BOTS[levels[seat % len(levels)]].choose(view, rng))
        done += 1
    return match


def check_world(know: Knowledge, view: SeatView, hands: list[int], pile: int) -> None:
    n = view.players
    seat = know.seat
    assert hands[seat] == view.hand
    for s in range(n):
        assert hands[s].bit_count() == view.hand_counts[s], f"seat {s}'s hand size"
        for t in range(s + 1, n):
            assert not hands[s] & hands[t], "a card dealt twice"
        assert not pile & hands[s], "a card both in a hand and the pile"
    assert pile.bit_count() == know.pile
    # Every card is either seen (own hand, played, own discards, a kitty this seat
    # holds) or dealt once: nothing played or seen is dealt again.
    dealt = pile
    for s in range(n):
        if s != seat:
            dealt |= hands[s]
    assert dealt == know.unseen, "the unseen cards and the sampled ones differ"
    voids = [0] * n
    for leader, cards, _ in view.tricks:
        note_trick(voids, leader, cards, n)
    if view.trick:
        note_trick(voids, view.trick[0][0], [c for _, c in view.trick], n)
    for s in range(n):
        for suit in range(4):
            if voids[s] >> suit & 1 and s != seat:
                assert not hands[s] & SUIT_MASKS[suit], f"seat {s} showed out of {suit}"
    called = view.called
    if called is None or view.played >> called & 1 or view.hand >> called & 1:
        return
    # The called card has not shown and this seat does not hold it.
    holders = [s for s in range(n) if hands[s] >> called & 1]
    assert len(holders) == 1 and not pile >> called & 1, "the called card is not with one seat"
    holder = holders[0]
    assert holder != seat and holder != view.bidder, "the called card with the bidder"
    assert holder not in {s for s, _ in view.trick}, "its holder would have played it"
    if called < JOKER1:
        assert not voids[holder] >> (called // 13) & 1, "its holder showed out of its suit"


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(list(SHAPES)), seed=st.integers(0, 2**32 - 1),
       moves=st.integers(0, 60), in_trick_one=st.one_of(st.none(), st.integers(1, 4)),
       levels=st.lists(st.sampled_from(["easy", "random"]), min_size=1, max_size=5),
       infer_play=st.booleans(), tries=st.sampled_from([0, TRIES, 32]),
       mismatch=st.sampled_from([0.0, MISMATCH, 1.0]),
       play_mismatch=st.sampled_from([1.0, 0.2, 0.0]), bidder_model=st.booleans())
def test_every_sampled_world_fits_the_seat_s_knowledge(
        shape: str, seed: int, moves: int, in_trick_one: int | None, levels: list[str],
        infer_play: bool, tries: int, mismatch: float, play_mismatch: float,
        bidder_model: bool) -> None:
    match = position(shape, seed, moves, in_trick_one, levels)
    if match.finished or match.deals[-1].turn is None:
        return
    rng = random.Random(seed ^ 0xC0FFEE)
    for seat in range(match.rules.options.players):
        view = SeatView(match, seat)
        know = Knowledge(view, infer_play, tries, mismatch, play_mismatch,
                         bidder_model=bidder_model)
        for _ in range(3):
            hands, pile = know.sample(rng)
            check_world(know, view, hands, pile)
            state = know.state(hands, pile, rng)
            # The deal kept from weighing the play is the deal the engine rebuilds.
            fresh = Knowledge(view, infer_play, tries, mismatch).state(hands, pile, rng)
            assert (state is None) == (fresh is None)
            if state is not None and fresh is not None:
                assert (state.hands, state.trick_cards, state.tricks, state.turn) == \
                    (fresh.hands, fresh.trick_cards, fresh.tricks, fresh.turn)
            if state is not None and view.called is not None and state.partner is not None:
                # The engine rebuilds it with the holder as the partner.
                assert hands[state.partner] >> view.called & 1 or \
                    view.played >> view.called & 1 or view.hand >> view.called & 1


def test_a_sampler_that_cannot_place_the_cards_still_keeps_every_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the quick deal fails every try (here: forced to), the fallback still deals
    each card to a holder it may have (it used to ignore the voids and the called card)."""
    monkeypatch.setattr(Knowledge, "_deal_once", lambda self, rng, allowed: None)
    checked = 0
    for seed in range(40):
        match = position("standard", seed, 0, 2, ["easy"])
        if match.deals[-1].turn is None or match.deals[-1].called is None:
            continue
        for seat in range(4):
            view = SeatView(match, seat)
            know = Knowledge(view)
            rng = random.Random(seed)
            for _ in range(5):
                hands, pile = know.sample(rng)
                check_world(know, view, hands, pile)
                checked += 1
    assert checked > 100


def test_the_called_card_goes_to_every_possible_holder() -> None:
    """Before the called card shows, a defender's samples put it with each seat that may
    hold it, not always the same one (the partner is unknown to it)."""
    for seed in range(40):
        match = position("standard", seed, 0, 1, ["easy"])
        deal = match.deals[-1]
        if deal.turn is None or deal.called is None or deal.bidder is None:
            continue
        seat = next(s for s in range(4) if s != deal.bidder
                    and not deal.hands[s] >> deal.called & 1)
        know = Knowledge(SeatView(match, seat))
        rng = random.Random(seed)
        seen = set()
        for _ in range(60):
            hands, _ = know.sample(rng)
            seen |= {s for s in range(4) if hands[s] >> deal.called & 1}
        assert seen == {s for s in range(4) if s not in (seat, deal.bidder)}
        assert PILE not in seen
        return
    raise AssertionError("no position with a called card")


def test_with_no_draw_accepted_the_sampler_takes_the_best_of_tries_plus_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``tries``: how many draws the sampler rejects before it takes the most likely one
    it tried (here every draw weighs 0, so none is accepted)."""
    view = SeatView(position("standard", 3, 0, 2, ["easy"]), 0)
    draws: list[int] = []
    real = Knowledge._deal_once

    def counted(self: Knowledge, rng: random.Random,
                allowed: dict[int, list[int]]) -> tuple[list[int], int] | None:
        draws.append(1)
        return real(self, rng, allowed)

    monkeypatch.setattr(Knowledge, "_deal_once", counted)
    monkeypatch.setattr(Knowledge, "weight", lambda self, hands: 0.0)
    for tries in (0, TRIES, 32):
        draws.clear()
        Knowledge(view, tries=tries).sample(random.Random(tries))
        assert len(draws) == tries + 1


def test_the_search_samples_with_its_settings_inference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search level's ``tries`` and ``mismatch`` reach every sampler it builds: for
    its bids and for its other decisions; ``play_mismatch``, ``trump_floor``,
    ``infer_call`` and ``bidder_model`` reach those of the play."""
    built: list[tuple[int, float, float, bool, bool, bool]] = []

    class Recorded(Knowledge):
        def __init__(self, view: SeatView, infer_play: bool = False, tries: int = TRIES,
                     mismatch: float = MISMATCH, play_mismatch: float = 1.0,
                     trump_floor: bool = False, infer_call: bool = False,
                     bidder_model: bool = False) -> None:
            super().__init__(view, infer_play, tries, mismatch, play_mismatch, trump_floor,
                             infer_call, bidder_model)
            built.append((tries, mismatch, play_mismatch, trump_floor, infer_call,
                          bidder_model))

    monkeypatch.setattr(search, "Knowledge", Recorded)
    bot = SearchBot("variant", SearchSettings(budget=1e9, samples=2, exact=3, exact_now=4,
                                              search_auction=True, tries=3, mismatch=0.5,
                                              play_mismatch=0.3, trump_floor=True,
                                              infer_call=True, bidder_model=True))
    kinds = set()
    for seed in range(20):
        for trick_one in (None, 2):
            match = position("standard", seed, 0, trick_one, ["easy"])
            deal = match.deals[-1]
            if deal.turn is None:
                continue
            built.clear()
            bot.choose(SeatView(match, deal.turn), random.Random(seed))
            if built:
                if deal.phase == Phase.PLAY:
                    assert set(built) == {(3, 0.5, 0.3, True, True, True)}
                else:
                    assert {b[:3] for b in built} == {(3, 0.5, 1.0)}
                kinds.add(deal.phase)
    assert {Phase.AUCTION, Phase.PLAY} <= kinds
