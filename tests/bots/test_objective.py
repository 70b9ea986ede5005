"""What the search bots aim at and infer: a deal scored relative to the table (the seat's
points minus the others' mean) sums to zero over the seats and grows with the seat's
side's tricks; the samples follow what ``easy`` would have bid with a seat's hand, and
(``bidder_model``) the hand an easy bidder keeps."""

from __future__ import annotations

import random

from bot_helpers import NORSK, NORSK_HANDS, exact_match

from app.bots import BOTS
from app.bots.hand_eval import best_trump, model_for
from app.bots.rollout import score
from app.bots.sampling import MISMATCH, Knowledge
from app.rules import PASS, Match, RuleSet, SeatView
from app.rules.cards import SUIT_MASKS

EASY = BOTS["easy"]
STANDARD = RuleSet("standard", match="single_deal")


def easy_deal(seed: int, stop_after_tricks: int | None = None) -> Match:
    """A deal played by four easy bots, to the end or to a trick boundary."""
    rng = random.Random(seed)
    match = Match(STANDARD, rng=random.Random(seed))
    match.start_deal()
    while not match.finished:
        deal = match.deals[-1]
        if (stop_after_tricks is not None and deal.phase == "play" and not deal.trick_cards
                and deal.tricks_played == stop_after_tricks):
            break
        seat = match.turn
        assert seat is not None
        match.apply(seat, EASY.choose(SeatView(match, seat), rng))
    return match


def test_relative_scores_of_a_finished_deal_sum_to_zero() -> None:
    for seed in range(20):
        deal = easy_deal(seed).deals[-1]
        assert deal.points is not None
        points = deal.points
        relative = [score(deal, s, 0, relative=True)[0] for s in range(deal.n)]
        for s in range(deal.n):
            own = score(deal, s, 0)[0]
            assert own == points[s]
            assert abs(relative[s] - (points[s] - (sum(points) - points[s]) / 3)) < 1e-9
        assert abs(sum(relative)) < 1e-9


def test_relative_score_grows_with_the_sides_tricks_to_come() -> None:
    checked = 0
    for seed in range(20):
        deal = easy_deal(seed, stop_after_tricks=6).deals[-1]
        if deal.phase != "play" or deal.minus_round:
            continue
        left = deal.hand_size - deal.tricks_played
        for s in range(deal.n):
            values = [score(deal, s, f, relative=True)[0] for f in range(left + 1)]
            assert values == sorted(values), (seed, s, values)
            assert values[-1] > values[0]  # every trick counts, for me or against them
            checked += 1
    assert checked > 20


def test_samples_follow_what_easy_would_have_bid() -> None:
    # Seat 1 opens (dealer 0) and passes; seat 2 is to bid.  A sample giving seat 1 a
    # hand easy would have bid on is MISMATCH times as likely as one it would pass with.
    match = exact_match(NORSK, NORSK_HANDS, dealer=0)
    match.apply(1, PASS)
    know = Knowledge(SeatView(match, 2))
    strong, weak = NORSK_HANDS[0], NORSK_HANDS[1]
    assert EASY.choose(SeatView(exact_match(NORSK, NORSK_HANDS, dealer=3), 0),
                       random.Random(0)) != PASS  # easy bids the strong hand
    hands = list(NORSK_HANDS)
    assert know.weight([weak, strong, hands[2], hands[3]]) == MISMATCH
    assert know.weight([strong, weak, hands[2], hands[3]]) == 1.0
    halved = Knowledge(SeatView(match, 2), mismatch=0.5)  # a level's own factor
    assert halved.weight([weak, strong, hands[2], hands[3]]) == 0.5


def test_with_trump_floor_the_bidders_bid_is_read_in_its_trump() -> None:
    # Once trumps are named, ``trump_floor`` reads the bidder's bid in that suit only: a
    # sample is never more likely than when any suit could carry the bid, and less likely
    # where the sampled bidder's hand plays better in another suit.
    rng = random.Random(5)
    lower = checked = 0
    for seed in range(12):
        match = easy_deal(seed, stop_after_tricks=1)
        deal = match.deals[-1]
        if deal.phase != "play" or deal.bidder is None or deal.trump is None:
            continue
        seat = (deal.bidder + 1) % deal.n
        anywhere = Knowledge(SeatView(match, seat))
        in_trump = Knowledge(SeatView(match, seat), trump_floor=True)
        for _ in range(20):
            hands, _pile = anywhere.sample(rng)
            w_any, w_trump = anywhere.weight(hands), in_trump.weight(hands)
            assert w_trump <= w_any
            lower += w_trump < w_any
            checked += 1
    assert checked >= 100 and lower > 0, (checked, lower)


def test_with_bidder_model_the_samples_deal_the_bidder_a_hand_like_easy_s() -> None:
    # ``bidder_model``: after the auction the others' samples give the bidder (easy) a
    # hand nearer the one it kept: more of the trumps it named than even draws give, and
    # a hand in which that suit is the one easy would name.
    rng = random.Random(7)
    trumps = {False: 0, True: 0}
    named_best = {False: 0, True: 0}
    true_trumps = samples = 0
    for seed in range(16):
        match = easy_deal(seed, stop_after_tricks=1)
        deal = match.deals[-1]
        if deal.phase != "play" or deal.bidder is None or deal.trump not in range(4):
            continue
        assert deal.trump is not None
        suit = SUIT_MASKS[deal.trump]
        seat = (deal.bidder + 1) % deal.n
        true_trumps += (deal.hands[deal.bidder] & suit).bit_count()
        o = STANDARD.options
        for model in (False, True):
            know = Knowledge(SeatView(match, seat), bidder_model=model)
            for _ in range(10):
                hands, _pile = know.sample(rng)
                kept = hands[deal.bidder] | know.played_by[deal.bidder]
                trumps[model] += (hands[deal.bidder] & suit).bit_count()
                best, _ = best_trump(kept, STANDARD.shape.deck & ~kept, o.led_two_wins,
                                     model_for(o.players, o.kitty))
                named_best[model] += best == deal.trump
        samples += 10
    assert samples >= 100
    # even draws give the bidder half the trumps it holds; the model nearly all, not more
    assert trumps[False] * 1.5 < trumps[True] <= true_trumps * 10 * 1.1, (trumps, true_trumps)
    assert named_best[False] < 0.5 * samples < 0.8 * samples < named_best[True], named_best


def test_together_a_defender_scores_the_defences_mean() -> None:
    # ``together``: each defender's value is the defenders' mean relative points (the
    # other defender's trick counts as its own); the bidder's side is scored as before.
    checked = differ = 0
    for seed in range(20):
        deal = easy_deal(seed).deals[-1]
        if deal.minus_round or deal.bidder is None or deal.points is None:
            continue
        relative = [score(deal, s, 0, relative=True)[0] for s in range(deal.n)]
        side = {deal.bidder, deal.partner}
        defenders = [s for s in range(deal.n) if s not in side]
        mean = sum(relative[d] for d in defenders) / len(defenders)
        for s in range(deal.n):
            together = score(deal, s, 0, relative=True, together=True)[0]
            assert abs(together - (relative[s] if s in side else mean)) < 1e-9
        checked += 1
        differ += any(abs(relative[d] - mean) > 1e-9 for d in defenders)
    assert checked > 10 and differ  # defenders who took different tricks were seen
