"""The ``heuristic`` bot: bids from an estimate of its side's tricks, keeps trumps and aces
in the kitty exchange, names its best suit as trump and calls the highest card of it that
it lacks, then plays by rules of thumb (card_play.py).  It reads only its ``SeatView``.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

from app.rules import (
    AMERIKANER,
    PASS,
    PLAYS,
    Action,
    Bid,
    Discard,
    DiscardAny,
    Lead,
    RuleSet,
    SeatView,
    scoring,
)
from app.rules.actions import lead
from app.rules.cards import SUIT_MASKS, cards_of, highest, lowest

from .card_play import choose_card
from .hand_eval import ACE, Model, amerikaner_losers, best_trump, model_for, my_tricks
from .random_bot import random_discard
from .table_facts import PublicPlay, TableFacts

PASS_SHARE = 0.7  # what passing is worth, as a share of a fair trick count


class HeuristicBot:
    name = "easy"

    def choose(self, view: SeatView, rng: random.Random,
               deadline: float | None = None) -> Action:
        return self.choose_seen(view, rng)

    def choose_seen(self, view: SeatView, rng: random.Random,
                    public: PublicPlay | None = None) -> Action:
        """``choose``, with the completed tricks already noted (``PublicPlay``)."""
        legal = view.legal
        first = legal[0]
        kind = type(first)
        if kind is Bid:
            return choose_bid(view, legal)
        if kind is DiscardAny:
            return choose_discard(view, view.rules.options.kitty, rng)
        if kind is Lead:
            return choose_first_lead(view, legal)
        if len(legal) == 1:
            return first
        mask = 0
        for action in legal:
            mask |= 1 << action.card  # type: ignore[union-attr]
        return PLAYS[choose_card(TableFacts(view, public), mask)]


# -- auction -----------------------------------------------------------------------------


def side_estimate(view: SeatView) -> tuple[float, float]:
    """The tricks my side should take if I win the auction now (kitty trick included),
    and the spread around that estimate."""
    rules = view.rules
    o = rules.options
    hand = view.hand
    model = model_for(o.players, o.kitty)
    _, mine = best_trump(hand, rules.shape.deck & ~hand, o.led_two_wins, model)
    estimate = model.const + mine + (1.0 if o.kitty and o.kitty_trick else 0.0)
    return estimate, model.sigma


def choose_bid(view: SeatView, legal: tuple[Action, ...]) -> Action:
    """The bid with the best expected score, or a pass when passing is worth more."""
    rules = view.rules
    o = rules.options
    hand = view.hand
    if AMERIKANER in legal:
        others = rules.shape.deck & ~hand
        if amerikaner_losers(hand, others, o.led_two_wins) == 0:
            return AMERIKANER
    numeric = [a for a in legal if isinstance(a, Bid) and isinstance(a.value, int)]
    if not numeric:
        return PASS
    estimate, sigma = side_estimate(view)
    values = [a.value for a in numeric if isinstance(a.value, int)]
    best = bid_for(estimate, sigma, values, rules)
    return PASS if best is None else numeric[values.index(best)]


def bid_for(estimate: float, sigma: float, values: list[int], rules: RuleSet) -> int | None:
    """The numeric bid (of ``values``) with the best expected score for a side expected
    to take ``estimate`` tricks, or None when passing is worth more."""
    o = rules.options
    factor = float(scoring.bidder_stake(o, 1))  # the engine's points a trick bid
    best: int | None = None
    best_value = PASS_SHARE * rules.shape.hand_size / o.players
    for value in values:
        made = chance_at_least(estimate, sigma, value)
        expected = factor * value * (2.0 * made - 1.0)
        if expected > best_value:
            best, best_value = value, expected
    return best


def chance_at_least(estimate: float, sigma: float, tricks: int) -> float:
    """P(side tricks >= tricks) for a normal spread around the estimate."""
    return normal_cdf((estimate - (tricks - 0.5)) / sigma)


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


# -- kitty exchange ----------------------------------------------------------------------


def choose_discard(view: SeatView, count: int, rng: random.Random) -> Discard:
    """Keep the best trump suit and the aces, empty short side suits; never a discard
    the rules refuse (view.discard_allowed)."""
    hand = view.hand
    others = view.rules.shape.deck & ~hand
    o = view.rules.options
    l2w = o.led_two_wins
    if view.contract_bid == "amerikaner":
        cards = _amerikaner_discard(hand, others, count, l2w)
    else:
        cards = _numeric_discard(hand, others, count, l2w, model_for(o.players, o.kitty))
    if cards and not view.discard_allowed(cards):
        return Discard(cards)
    return random_discard(hand, count, view.discard_allowed, rng)


def _numeric_discard(hand: int, others: int, count: int, l2w: bool, model: Model) -> int:
    best, best_value = 0, -1.0
    for trump in range(4):
        sm = SUIT_MASKS[trump]
        if not hand & sm or not others & sm:
            continue
        out, value = discard_for_trump(hand, others, count, trump, l2w, model)
        if value > best_value:
            best, best_value = out, value
    return best


def discard_for_trump(hand: int, others: int, count: int, trump: int, l2w: bool,
                      model: Model) -> tuple[int, float]:
    """The discard that keeps ``trump`` best: every way of emptying short side suits
    without an ace, filled up with the least useful cards; (cards, ``my_tricks`` after)."""
    return discards_for_trump(hand, others, count, trump, l2w, model)[0]


def discards_for_trump(hand: int, others: int, count: int, trump: int, l2w: bool,
                       model: Model) -> list[tuple[int, float]]:
    """Every discard of ``discard_for_trump``'s kind, best first (the first of equals
    as found): one per set of short side suits emptied."""
    found: list[tuple[int, float]] = []
    side_suits = [s for s in range(4) if s != trump and hand & SUIT_MASKS[s]
                  and not hand >> (13 * s + ACE) & 1
                  and (hand & SUIT_MASKS[s]).bit_count() <= count]
    for k in range(len(side_suits) + 1):
        for voids in combinations(side_suits, k):
            out = 0
            for s in voids:
                out |= hand & SUIT_MASKS[s]
            if out.bit_count() > count:
                continue
            out = _fill_discard(hand, out, count, trump)
            if all(out != seen for seen, _ in found):
                found.append((out, my_tricks(hand & ~out, trump, others, l2w, model)))
    found.sort(key=lambda item: -item[1])  # stable: the first of equals stays first
    return found  # never empty: emptying no suit is always one way


def _fill_discard(hand: int, out: int, count: int, trump: int) -> int:
    """Add the least useful cards of ``hand`` to ``out`` until it holds ``count``."""
    need = count - out.bit_count()
    if need <= 0:
        return out
    rest = cards_of(hand & ~out)
    lengths = [(hand & ~out & SUIT_MASKS[s]).bit_count() for s in range(4)]

    def keep(card: int) -> float:
        suit, rank = divmod(card, 13)
        if suit > 3:
            return 90.0  # a joker wins the trick it leads
        if suit == trump:
            return 100.0 + rank
        if rank == ACE:
            return 60.0
        return rank + 2.0 * lengths[suit]

    rest.sort(key=keep)
    for card in rest[:need]:
        out |= 1 << card
    return out


def _amerikaner_discard(hand: int, others: int, count: int, l2w: bool) -> int:
    out = 0
    for _ in range(count):
        rest = hand & ~out
        best_card, best_key = -1, (1 << 30, 0)
        for card in cards_of(rest):
            key = (amerikaner_losers(rest & ~(1 << card), others, l2w), card % 13)
            if key < best_key:
                best_card, best_key = card, key
        out |= 1 << best_card
    return out


# -- the first lead and the call ---------------------------------------------------------


def choose_first_lead(view: SeatView, legal: tuple[Action, ...]) -> Action:
    """Lead a low card of the best callable suit and call the highest live card of it;
    play alone only when no suit can call.  Never grand: measured, the bot's grand
    contracts (flat hands with three or four aces) scored worse than naming a trump."""
    hand = view.hand
    rules = view.rules
    live = rules.shape.deck & ~hand & ~(view.discards or 0)
    o = rules.options
    l2w = o.led_two_wins
    model = model_for(o.players, o.kitty)
    callable_suits = 0
    for action in legal:
        assert isinstance(action, Lead)
        if action.call is not None:
            callable_suits |= 1 << (action.card // 13)
    if callable_suits:
        suit, _ = best_trump(hand, live, l2w, model, callable_suits)
        sm = SUIT_MASKS[suit]
        choice = lead(lowest(hand & sm), highest(live & sm), False)
        if choice in legal:
            return choice
    # Alone: name the suit I am longest and strongest in, and lead its top card.
    alone = [a for a in legal if isinstance(a, Lead) and a.call is None and not a.grand]
    if not alone:
        return legal[0]
    suits = 0
    for a in alone:
        assert isinstance(a, Lead)
        suits |= 1 << (a.card // 13)
    value = {s: my_tricks(hand, s, live, l2w, model) + (hand & SUIT_MASKS[s]).bit_count()
             for s in range(4) if suits >> s & 1}
    suit = max(value, key=value.__getitem__)
    choice = lead(highest(hand & SUIT_MASKS[suit]), None, False)
    return choice if choice in legal else alone[0]
