"""Determinization: complete deals consistent with everything one seat knows.

``Knowledge(view)`` collects what the seat of a ``SeatView`` knows: its own hand, the cards
each seat has played, the suits each seat showed out of, the called card (while it is
live it is in the hand of neither the bidder nor a seat that already followed trick one,
whose holder had to play it), its own discards, a shown kitty (in the bidder's hand or
discards), how many cards each hand holds, and the auction.  ``sample(rng)`` deals the
unseen cards to the other hands and the hidden pile (the kitty during the auction, the
bidder's discards after it) under those constraints (where the quick greedy deal keeps
failing, an exact one by augmenting paths: never a world that breaks a rule);
``state(sample)`` replays the public
actions on that deal through the engine, so the sample is a real ``DealState`` that rules
code and rollouts can use.  Nothing here reads more than the view.

Auction inference (``weight``) is cheap: each other seat's bids and passes are checked
against what ``easy`` would have bid with the sampled hand (its fitted estimate,
hand_eval), and a sample is less likely for each choice that differs; once the auction
is over the bidder's hand (now with the kitty) is only bounded from below by its bid
(with ``bidder_model``, weighed as easy keeps one and drawn with more trumps: kept_hand.py).
Samples are filtered by that likelihood, never to the point of failing: after a few
rejections the most likely sample tried is taken.
"""

from __future__ import annotations

import math
import random

from app.rules import DealState, Discard, SeatView, bid
from app.rules.cards import JOKER1, SUIT_MASKS, cards_of
from app.rules.phases import Phase

from .hand_eval import best_trump, model_for
from .heuristic import bid_for, normal_cdf
from .kept_hand import TRUMP_PULL, kept_hand_weight
from .play_inference import call_not_held, not_held
from .play_replay import replay, replay_counting
from .table_facts import plays_in_order, seen_play

PILE = -1  # the holder "hidden pile": the kitty, or the bidder's discards
MAX_TRIES = 200
LOOSE_AFTER = 20  # failed deals before the play's inferences are set aside
MISMATCH = 0.2  # how much less likely a sample is per auction choice easy would not make
TRIES = 8  # rejected samples before the most likely one tried is taken


class Knowledge:
    """One seat's knowledge at one decision (built fresh per decision)."""

    __slots__ = (
        "allowed",
        "auction",
        "base_allowed",
        "bid_floor",
        "bid_suits",
        "bid_trump",
        "bidder",
        "called",
        "counts",
        "dealer",
        "decisions",
        "discards",
        "grand",
        "hand",
        "kitty",
        "mismatch",
        "n",
        "not_held",
        "phase",
        "pile",
        "play_mismatch",
        "played_by",
        "ready",
        "rules",
        "seat",
        "sequence",
        "trick",
        "tricks",
        "tries",
        "unseen",
        "voids",
    )

    def __init__(self, view: SeatView, infer_play: bool = False, tries: int = TRIES,
                 mismatch: float = MISMATCH, play_mismatch: float = 1.0,
                 trump_floor: bool = False, infer_call: bool = False,
                 bidder_model: bool = False) -> None:
        seat = view.seat
        assert seat is not None
        self.seat = seat
        self.tries = tries
        self.mismatch = mismatch
        self.play_mismatch = play_mismatch
        # The last sample's deal as rebuilt while weighing its play (play_replay.py),
        # kept for ``state`` so that the engine does not replay it twice.
        self.ready: tuple[list[int], int, DealState] | None = None
        self.rules = rules = view.rules
        self.n = n = view.players
        self.phase = view.phase
        self.dealer = view.dealer
        self.hand = view.hand
        self.auction = view.auction
        self.bidder = view.bidder
        self.called = view.called
        self.grand = view.grand
        # The suits the bidder's bid is read in: the trump it named, once named (with
        # ``trump_floor``), else whichever suit suits its hand best.
        trump = view.trump
        self.bid_suits = (1 << trump if trump_floor and trump is not None and 0 <= trump < 4
                          else 0b1111)
        # With ``bidder_model``, the trump the bidder named, read as easy names one.
        self.bid_trump = (trump if bidder_model and trump is not None and 0 <= trump < 4
                          else None)
        self.tricks = view.tricks
        self.trick = view.trick
        self.counts = view.hand_counts
        kitty_size = rules.options.kitty
        sequence = plays_in_order(view)
        played_by = [0] * n
        for s, c in sequence:
            played_by[s] |= 1 << c
        self.played_by = played_by
        self.sequence = sequence  # every card played, in order, with its seat
        if not any(s != seat for s, _ in sequence):
            self.play_mismatch = 1.0  # no play of another seat to read
        self.voids, _, self.unseen = seen_play(view)  # as TableFacts sees the play
        self.discards = view.discards or 0
        self.kitty = view.kitty  # known kitty (own as bidder, or shown), else None
        # The hidden pile: the kitty until someone takes it, then the bidder's discards
        # (the bidder knows its own); empty without a kitty, and while the bidder holds
        # the kitty in its hand before discarding (a seat's view then, not its turn).
        if (not kitty_size or self.phase == Phase.DISCARD
                or (seat == self.bidder and self.phase != Phase.AUCTION)):
            self.pile = 0
        else:
            self.pile = kitty_size
        self.not_held = [0] * n
        self.base_allowed = self.allowed = self._allowed()
        if self.phase == Phase.PLAY:
            if infer_play:
                self.not_held = not_held(view)
            if infer_call:
                self.not_held = [a | b for a, b in zip(self.not_held, call_not_held(view),
                                                       strict=True)]
            if any(self.not_held):
                self.allowed = self._allowed()
        # The bidder's highest numeric bid, once the auction is over and it is not me.
        bids = [v for s, v in self.auction if s == self.bidder and isinstance(v, int)]
        self.bid_floor = (max(bids) if bids and self.phase != Phase.AUCTION
                          and self.bidder != seat else None)
        self.decisions = _auction_decisions(self)

    def _allowed(self) -> dict[int, list[int]]:
        """For each unseen card, the holders (seats, or PILE) it may sit with."""
        n, seat = self.n, self.seat
        others = [s for s in range(n) if s != seat]
        out: dict[int, list[int]] = {}
        called = self.called
        called_live = called is not None and bool(self.unseen >> called & 1)
        followed_trick_one = {s for s, _ in self.trick} if not self.tricks else set()
        shown = self.kitty if (self.kitty is not None and seat != self.bidder) else 0
        for c in cards_of(self.unseen):
            holders: list[int] = []
            suit = c // 13 if c < JOKER1 else -1
            for s in others:
                if (suit >= 0 and self.voids[s] >> suit & 1) or self.not_held[s] >> c & 1:
                    continue
                holders.append(s)
            if self.pile:
                holders.append(PILE)
            if called_live and c == self.called:
                holders = [s for s in holders if s != PILE and s != self.bidder
                           and s not in followed_trick_one]
            elif shown >> c & 1:
                holders = [s for s in holders if s in (PILE, self.bidder)]
            out[c] = holders
        return out

    # -- samples -----------------------------------------------------------------------

    def sample(self, rng: random.Random) -> tuple[list[int], int]:
        """(current hands of every seat, the hidden pile): one consistent deal."""
        best: tuple[list[int], int] | None = None
        best_weight = -1.0
        replaying = self.play_mismatch < 1.0
        self.ready = None
        for attempt in range(MAX_TRIES):
            # What the play told (play_inference.py) may not fit at all: then without it.
            loose = attempt >= LOOSE_AFTER and best is None
            dealt = self._deal_once(rng, self.base_allowed if loose else self.allowed)
            if dealt is None:
                continue
            w = self.weight(dealt[0])
            u = rng.random()
            if replaying and w > min(u, best_weight):
                w = self._weigh_play(dealt, w, min(u, best_weight), rng)
            if u < w:
                return dealt
            if w > best_weight:
                best, best_weight = dealt, w
            if attempt >= self.tries and best is not None:
                return best  # the most likely of those tried
        self.ready = None
        if best is not None:
            return best
        return self._deal_exact(rng)

    def _weigh_play(self, dealt: tuple[list[int], int], w: float, floor: float,
                    rng: random.Random) -> float:
        """``w`` times ``play_mismatch`` for each play of another seat that easy would
        not have made in this world (play_replay.py); counted only as far as the result
        could still exceed ``floor``, below which the caller neither keeps the world nor
        remembers it."""
        hands, pile = dealt
        stop = len(self.sequence) + 1  # with nothing to beat, the whole count
        if self.play_mismatch <= 0.0 and floor >= 0.0:
            stop = 1  # one play differing rules the world out
        elif floor > 0.0:
            stop = 1 + int(math.log(floor / w) / math.log(self.play_mismatch))
        deal = self.before_play(hands, pile, rng)
        if deal is None:
            return 0.0
        deal, differ = replay_counting(deal, self.sequence, self.seat, self.called,
                                       self.grand, rng, stop)
        if deal is not None:
            self.ready = (hands, pile, deal)
        return w * self.play_mismatch ** differ

    def _deal_once(self, rng: random.Random,
                   allowed: dict[int, list[int]]) -> tuple[list[int], int] | None:
        capacity = {s: self.counts[s] for s in range(self.n) if s != self.seat}
        capacity[PILE] = self.pile
        hands = [0] * self.n
        hands[self.seat] = self.hand
        pile = 0
        cards = list(allowed.items())
        rng.shuffle(cards)
        cards.sort(key=lambda item: len(item[1]))
        trump = self.bid_trump if self.bid_floor is not None else None
        pulled = SUIT_MASKS[trump] if trump is not None else 0
        bidder = self.bidder
        for c, holders in cards:
            room = [h for h in holders if capacity[h] > 0]
            if not room:
                return None
            # by each holder's room left; one of the bidder's named trumps (bidder_model)
            # goes to the bidder TRUMP_PULL times as likely
            pull = bidder if pulled >> c & 1 else None
            total = sum(capacity[h] * (TRUMP_PULL if h == pull else 1) for h in room)
            pick = rng.random() * total
            for h in room:
                pick -= capacity[h] * (TRUMP_PULL if h == pull else 1)
                if pick < 0:
                    break
            capacity[h] -= 1
            if h == PILE:
                pile |= 1 << c
            else:
                hands[h] |= 1 << c
        return hands, pile

    def _deal_exact(self, rng: random.Random) -> tuple[list[int], int]:
        """A deal that keeps every rule (the voids, the called card, a shown kitty, the
        hands' sizes), found by augmenting paths where the quick deal's greedy order got
        stuck; what the play told is set aside.  The real deal keeps the same rules, so
        one exists."""
        capacity = {s: self.counts[s] for s in range(self.n) if s != self.seat}
        capacity[PILE] = self.pile
        owned: dict[int, list[int]] = {h: [] for h in capacity}
        where: dict[int, int] = {}

        def place(c: int, seen: set[int]) -> bool:
            holders = list(self.base_allowed[c])
            rng.shuffle(holders)
            for h in holders:
                if h in seen:
                    continue
                seen.add(h)
                if len(owned[h]) < capacity[h] or any(
                        place(other, seen) and _move(other, h) for other in list(owned[h])):
                    owned[h].append(c)
                    where[c] = h
                    return True
            return False

        def _move(c: int, old: int) -> bool:
            owned[old].remove(c)  # ``place`` gave it a new holder
            return True

        cards = cards_of(self.unseen)
        rng.shuffle(cards)
        for c in cards:
            if not place(c, set()):
                raise AssertionError(f"no holder for card {c}: the knowledge is inconsistent")
        hands = [0] * self.n
        hands[self.seat] = self.hand
        pile = 0
        for c, h in where.items():
            if h == PILE:
                pile |= 1 << c
            else:
                hands[h] |= 1 << c
        return hands, pile

    def weight(self, hands: list[int]) -> float:
        """How likely the auction was with these hands (1.0: no evidence against).

        Each other seat's bids and passes are checked against what ``easy`` would have
        done with the hand (``heuristic.bid_for``: the bots at a table bid so, people
        roughly so); a different choice makes the sample ``mismatch`` times as likely.
        The bidder's hand holds the kitty once the auction is over: it is only stronger
        than the hand it bid on, so its bid then only bounds it from below (with
        ``bidder_model``, it is weighed as easy keeps one: kept_hand.py)."""
        w = 1.0
        rules = self.rules
        o = rules.options
        model = model_for(o.players, o.kitty)
        kitty_trick = 1.0 if o.kitty and o.kitty_trick else 0.0
        after = self.phase != Phase.AUCTION
        if self.bid_floor is not None and self.bidder is not None:
            dealt = hands[self.bidder] | self.played_by[self.bidder]
            trump = self.bid_trump
            if trump is None:
                _, mine = best_trump(dealt, rules.shape.deck & ~dealt, o.led_two_wins, model,
                                     self.bid_suits)
                w *= normal_cdf((model.const + mine - self.bid_floor + 2.0) / model.sigma)
            else:
                w *= kept_hand_weight(dealt, trump, self.bid_floor, rules, model,
                                      self.mismatch)
        for s, choices in self.decisions:
            if after and s == self.bidder:
                continue
            dealt = hands[s] | self.played_by[s]
            _, mine = best_trump(dealt, rules.shape.deck & ~dealt, o.led_two_wins, model)
            est = model.const + mine + kitty_trick
            for values, made in choices:
                if bid_for(est, model.sigma, values, rules) != made:
                    w *= self.mismatch
        return w

    # -- the sample as an engine state ---------------------------------------------------

    def state(self, hands: list[int], pile: int, rng: random.Random) -> DealState | None:
        """The deal as it stands now with these hidden cards, rebuilt by the engine from
        the deal as dealt and the public actions (``None`` if the engine refuses it)."""
        ready = self.ready
        self.ready = None
        if ready is not None and ready[0] is hands and ready[1] == pile:
            return ready[2]  # rebuilt while its play was weighed
        deal = self.before_play(hands, pile, rng)
        if deal is None:
            return None
        return replay(deal, self.sequence, self.called, self.grand)[0]

    def before_play(self, hands: list[int], pile: int,
                    rng: random.Random) -> DealState | None:
        """The deal with these hidden cards as dealt, its auction and discard replayed:
        the play not begun (``None`` if the engine refuses it)."""
        rules = self.rules
        n = self.n
        dealt = [hands[s] | self.played_by[s] for s in range(n)]
        kitty = 0
        bidder = self.bidder
        discards = 0
        if rules.options.kitty:
            if bidder is None or self.phase == Phase.AUCTION:
                kitty = pile
            else:
                pool = dealt[bidder] | (self.discards if self.seat == bidder else pile)
                if self.kitty is not None:
                    kitty = self.kitty
                else:
                    # Which of the bidder's cards came from the kitty is unknown: any.
                    choice = cards_of(pool)
                    rng.shuffle(choice)
                    kitty = sum(1 << c for c in choice[:rules.options.kitty])
                discards = self.discards if self.seat == bidder else pile
                dealt[bidder] = pool & ~kitty
        assert self.dealer is not None
        deal = DealState(rules, self.dealer, dealt, kitty)
        try:
            for s, value in self.auction:
                deal.apply(s, bid(value))
            if deal.phase == Phase.DISCARD and discards and bidder is not None:
                deal.apply(bidder, Discard(discards))
        except ValueError:
            return None
        return deal



def _auction_decisions(k: Knowledge) -> list[tuple[int, list[tuple[list[int], int | None]]]]:
    """Per other seat, its numeric auction choices: (the bids it could make, the one
    it made or None for a pass)."""
    shape = k.rules.shape
    high = 0
    out: dict[int, list[tuple[list[int], int | None]]] = {}
    for s, value in k.auction:
        if value == "amerikaner":
            break
        values = list(range(max(high + 1, shape.min_bid), shape.max_bid + 1))
        if s != k.seat and values:
            out.setdefault(s, []).append((values, value if isinstance(value, int) else None))
        if isinstance(value, int):
            high = value
    return list(out.items())


__all__ = ["MISMATCH", "PILE", "TRIES", "Knowledge"]
