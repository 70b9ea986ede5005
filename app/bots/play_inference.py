"""What the other seats' trick play says about their hands, if they play as ``easy`` does.

``easy`` (card_play.py, heuristic.py) plays by rules of thumb that leave traces:

- following suit with a card that does not win the trick, it plays its lowest of the suit;
- out of the suit led, a card that does not win is the one it least wants to keep: its
  lowest of that suit (a two that wins when led aside), and a trump only when it holds
  nothing but trumps;
- it leads its lowest card of a suit unless it leads a master, a joker or a winning two
  (a lead below a card this seat held was no master);
- as the bidder it opens with its lowest card of the suit it calls in.

So each such card says the seat holds none of the cards below it in its suit (or, for
the trump thrown, no other suit).  People mostly play so too (low when not winning, the
lowest discard).  The search's samples deal those cards to other seats
(sampling.Knowledge), and its rollouts play every seat as ``easy`` does, so the samples
and the rollouts then tell the same story.

A seat whose own play contradicts it (it later plays a card it should not have held)
does not play so: nothing is inferred about it.  Nothing is read but the public plays
and this seat's own hand; the minus round's play (the highest losing card) is not read.
"""

from __future__ import annotations

from app.rules import SeatView
from app.rules.cards import JOKER1, SUIT_MASKS, TWOS_MASK
from app.rules.tricks import trick_winner

from .table_facts import above, below, plays_in_order


def not_held(view: SeatView) -> list[int]:
    """Per seat, the unseen cards it does not hold if it plays as ``easy`` does (0 for
    this seat, for a seat that broke the pattern, and in a minus round)."""
    masks, broken = read_play(view)
    return [0 if broken[s] else masks[s] for s in range(len(masks))]


def call_not_held(view: SeatView) -> list[int]:
    """Per seat, the unseen cards of the called suit above the called card that it does
    not hold, if the bidder calls as ``easy`` does (heuristic.choose_first_lead): the
    highest card it neither holds nor discarded, so each of those is the bidder's or
    among its discards.  Nothing for this seat or the bidder, and nothing at
    all where the call was not so (this seat holds such a card, or another seat than the
    bidder played one) or no card was called."""
    seat, bidder, called = view.seat, view.bidder, view.called
    none = [0] * view.players
    if called is None or bidder is None or seat == bidder or view.minus_round:
        return none
    higher = above(called)
    played = plays_in_order(view)
    if view.hand & higher or any(s != bidder and higher >> c & 1 for s, c in played):
        return none
    mask = higher & ~(view.hand | view.played | (view.discards or 0))
    return [0 if s in (seat, bidder) else mask for s in range(view.players)]


def read_play(view: SeatView) -> tuple[list[int], list[bool]]:
    """Per seat, the unseen cards its play says it does not hold, and whether it broke
    the pattern (then the cards are not to be believed)."""
    seat = view.seat
    assert seat is not None
    n = view.players
    out = [0] * n
    broken = [False] * n
    if view.minus_round:
        return out, broken
    trump = view.trump
    deck = view.rules.shape.deck
    two_wins = bool(view.rules.options.led_two_wins)
    tricks = [(leader, list(cards)) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], [c for _, c in view.trick]))
    # The cards this seat held (or had discarded) when each trick was led: the leader
    # could not see them, so a lower lead than one of them was not a master.
    mine_from = [0] * (len(tricks) + 1)
    mine_from[-1] = view.hand | (view.discards or 0)
    for t in range(len(tricks) - 1, -1, -1):
        leader, cards = tricks[t]
        mine = [c for i, c in enumerate(cards) if (leader + i) % n == seat]
        mine_from[t] = mine_from[t + 1] | sum(1 << c for c in mine)
    for t, (leader, cards) in enumerate(tricks):
        led = cards[0]
        for i, c in enumerate(cards):
            s = (leader + i) % n
            if s == seat or broken[s]:
                continue
            if out[s] >> c & 1:
                broken[s] = True  # it held a card it "could not": not easy's play
                continue
            if led >= JOKER1:
                continue  # after a led joker any card goes
            if i == 0 and t == 0:
                # easy's first lead: the lowest card of the suit it calls in
                called = view.called
                if called is None or called >= JOKER1 or called // 13 != c // 13:
                    continue
            elif i == 0:
                if (two_wins and led % 13 == 0) or not mine_from[t] & above(c):
                    continue  # a winning two, or maybe a master
            elif (c >= JOKER1 or (t == 0 and c == view.called)
                  or trick_winner(cards[:i + 1], trump, two_wins) == i):
                continue  # a joker, the called card's forced play, or a winning card
            elif c // 13 != led // 13:
                # Out of the suit led, it threw what it least wanted to keep: a trump
                # (kept last) means it held nothing else, a side card its lowest of
                # that suit but a two that wins when led.
                if c // 13 == trump:
                    out[s] |= deck & ~SUIT_MASKS[trump]
                out[s] |= below(c) & ~TWOS_MASK if two_wins else below(c)
                continue
            out[s] |= below(c)
    unseen = ~(view.hand | view.played | (view.discards or 0))
    return [m & unseen for m in out], broken


__all__ = ["call_not_held", "not_held", "read_play"]
