"""The actions worth comparing by search, from one seat's view.

Trick play: every legal card, except that cards equivalent as far as the seat knows (the
cards between them are played or in its own hand) are tried once.  The kitty discard and
the first lead have too many legal choices to try them all, so a few sensible ones are
proposed, in the heuristic's terms: per trump suit, the discard that keeps that suit and
empties the short side suits; per promising suit, a low and a high lead calling the
highest live card (and the second highest), alone or grand where the rules allow it;
``wide`` tries every suit and a high lead calling the second highest too.
"""

from __future__ import annotations

from app.rules import PLAYS, Action, Discard, Lead, SeatView
from app.rules.actions import lead
from app.rules.cards import SUIT_MASKS, TWOS_MASK, highest, lowest

from .equivalent_cards import representatives
from .hand_eval import model_for, my_tricks
from .heuristic import discards_for_trump

MAX_DISCARDS = 5
MAX_LEAD_SUITS = 3


def play_candidates(view: SeatView) -> list[Action]:
    """One legal card per group of cards that are equivalent to this seat."""
    mask = 0
    for action in view.legal:
        mask |= 1 << action[0]  # type: ignore[operator]
    trick = 0
    for _, c in view.trick:
        trick |= 1 << c
    gone = (view.played & ~trick) | (view.discards or 0)
    present = view.rules.shape.deck & ~gone
    twos = TWOS_MASK if view.rules.options.led_two_wins else 0
    return [PLAYS[c] for c in sorted(representatives(mask, present, twos))]


def discard_candidates(view: SeatView, fallback: Action, per_trump: int = 1) -> list[Action]:
    """The heuristic's discard and, per trump suit, the ``per_trump`` best discards that
    keep it."""
    hand = view.hand
    rules = view.rules
    o = rules.options
    count = o.kitty
    others = rules.shape.deck & ~hand
    model = model_for(o.players, o.kitty)
    scored: list[tuple[float, int]] = []
    for trump in range(4):
        sm = SUIT_MASKS[trump]
        if not hand & sm or not others & sm:
            continue
        for cards, value in discards_for_trump(hand, others, count, trump,
                                               bool(o.led_two_wins), model)[:per_trump]:
            if cards and not view.discard_allowed(cards):
                scored.append((value, cards))
    scored.sort(reverse=True)
    out_actions: list[Action] = [fallback]
    for _, cards in scored[:MAX_DISCARDS * per_trump]:
        action = Discard(cards)
        if action not in out_actions:
            out_actions.append(action)
    return out_actions


def lead_candidates(view: SeatView, fallback: Action, wide: bool = False) -> list[Action]:
    """A few first leads: for the most promising suits, low and high leads calling the
    highest live card or the next one; alone and grand versions where legal. ``wide``:
    every suit, and a high lead calling the next card as well as a low one."""
    legal = set(view.legal)
    hand = view.hand
    rules = view.rules
    o = rules.options
    live = rules.shape.deck & ~hand & ~(view.discards or 0)
    model = model_for(o.players, o.kitty)
    suits = [s for s in range(4) if hand & SUIT_MASKS[s]]
    suits.sort(key=lambda s: -my_tricks(hand, s, live, bool(o.led_two_wins), model))
    out: list[Action] = [fallback]

    def add(action: Lead) -> None:
        if action in legal and action not in out:
            out.append(action)

    for s in suits if wide else suits[:MAX_LEAD_SUITS]:
        mine = hand & SUIT_MASKS[s]
        theirs = live & SUIT_MASKS[s]
        low, high = lowest(mine), highest(mine)
        if theirs:
            top = highest(theirs)
            add(lead(low, top))
            add(lead(high, top))
            rest = theirs & ~(1 << top)
            if rest:
                add(lead(low, highest(rest)))
                if wide:
                    add(lead(high, highest(rest)))
            if o.grand:
                add(lead(high, top, True))
        else:
            add(lead(high, None))
            add(lead(low, None))
    if len(out) == 1:  # nothing of the above is legal here: a few of the legal leads
        out += [a for a in view.legal[:4] if a not in out]
    return out


__all__ = ["discard_candidates", "lead_candidates", "play_candidates"]
