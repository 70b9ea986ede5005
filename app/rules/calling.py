"""The first lead and the call (docs/spec/RULES.md section 6), and the discard rule that
protects it.

A card is *live* when it is in another player's hand.  The bidder may lead any suited card;
its suit becomes trump and one live card of that suit is called.  When the suit has no live
card, ``no_callable`` decides: play alone, or the lead is not allowed (and with no allowed
lead at all the deal is void).  Everything here is a pure function of masks.
"""

from __future__ import annotations

from operator import itemgetter

from .actions import LEADS, NO_CALL, Lead
from .cards import FULL_SUIT, JOKER1, RANKS_IN, SUIT_MASKS, SUITS, card_id, suit_name
from .errors import Refusal, Why


def callable_suits(hand: int, others: int) -> int:
    """A 4-bit mask of the suits the bidder holds and that have a live card."""
    out = 0
    for s in range(4):
        sm = SUIT_MASKS[s]
        if hand & sm and others & sm:
            out |= 1 << s
    return out


def lead_actions(hand: int, others: int, play_alone: bool, grand: bool) -> list[Lead]:
    """Every legal first lead: a suited card of the hand with each live card of its suit
    called (and the same again as grand when allowed); alone where no card is live."""
    out: list[Lead] = []
    tables = (LEADS[False], LEADS[True]) if grand else (LEADS[False],)
    for base in (0, 13, 26, 39):
        mine = hand >> base & FULL_SUIT
        if not mine:
            continue
        live = others >> base & FULL_SUIT
        if live:
            calls = [base + r for r in RANKS_IN[live]]
        elif play_alone:
            calls = [NO_CALL]
        else:
            continue
        rows = [table[base + rank] for rank in RANKS_IN[mine] for table in tables]
        if len(calls) == 1:
            out += [row[calls[0]] for row in rows]
        else:
            get = itemgetter(*calls)  # a tuple of one row's entries, made in C
            for row in rows:
                out += get(row)
    return out


def lead_error(action: Lead, hand: int, others: int, play_alone: bool, grand: bool) -> str:
    """Why a first lead is not allowed, in a player's words ("" when it is allowed); a
    ``Why``, which carries the ``Refusal`` too."""
    card, call = action.card, action.call
    if not hand >> card & 1:
        return Why("that card is not in your hand", Refusal.NOT_IN_HAND, card=card_id(card))
    if card >= JOKER1:
        return Why("the first lead cannot be a joker: it has no suit to make trump",
                   Refusal.LEAD_JOKER)
    if action.grand and not grand:
        return Why("grand is not allowed by these rules", Refusal.NO_GRAND)
    suit = card // 13
    letter = SUITS[suit]
    live = others & SUIT_MASKS[suit]
    if call is None:
        if live:
            return Why(f"call a {suit_name(suit)[:-1]} that another player holds",
                       Refusal.CALL_NEEDED, suit=letter)
        if not play_alone:
            return Why(f"no other player holds a {suit_name(suit)[:-1]}: lead another suit",
                       Refusal.NO_CALLABLE, suit=letter)
        return ""
    if call >= JOKER1 or call // 13 != suit:
        return Why(f"the called card must be a {suit_name(suit)[:-1]}, the suit you lead",
                   Refusal.CALL_SUIT, suit=letter)
    if hand >> call & 1:
        return Why("you cannot call a card of your own", Refusal.CALL_OWN)
    if not live >> call & 1:
        return Why("that card is not in play (discarded or removed): call a live card",
                   Refusal.CALL_NOT_LIVE)
    return ""


def discard_keeps_lead(hand_before: int, discard: int, others: int) -> bool:
    """Section 6.4 convention under ``no_callable: redeal``: a discard may not leave the
    bidder without a legal first lead when the hand before discarding had one."""
    if not callable_suits(hand_before, others):
        return True
    return bool(callable_suits(hand_before & ~discard, others))
