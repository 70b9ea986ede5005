"""Trick play for the heuristic bot: which card to lead or follow with.

Rules of thumb, in order: win a trick cheaply when it is worth taking and the card will
hold; leave a trick to a partner who is winning it; otherwise play low or throw the card
least likely to take a trick later.  The bidder's side draws trumps with masters and
cashes side masters; defenders cash their own winners (they score per trick personally).
In a minus round every trick costs a point, so the bot ducks.
"""

from __future__ import annotations

from app.rules.cards import JOKER1, JOKERS_MASK, SUIT_MASKS, cards_of, highest, lowest

from .table_facts import BIDDER_SIDE, DEFENDER_SIDE, MINUS, TableFacts, above, below


def choose_card(f: TableFacts, legal: int) -> int:
    """The card to play now; ``legal`` is the mask of playable cards (not empty)."""
    if legal & (legal - 1) == 0:
        return lowest(legal)
    if not f.trick_cards:
        if f.mode == MINUS:
            return _minus_lead(f, legal)
        return _lead(f, legal)
    if f.mode == MINUS:
        return _minus_follow(f, legal)
    return _follow(f, legal)


# -- following ---------------------------------------------------------------------------


def _follow(f: TableFacts, legal: int) -> int:
    win_seat, win_card = f.winner_so_far()
    after = f.opponents_after_me()
    winners = [c for c in cards_of(legal) if f.wins_now(c)]
    if f.is_ally(win_seat):
        if not winners or f.holds_against(win_card, after):
            if (winners and f.my_side == DEFENDER_SIDE and win_seat != f.seat
                    and not after):
                # A fellow defender's trick is worth nothing to me: take it with a card
                # that would not win a trick of its own later.
                cheap = [c for c in winners if not _sure_winner(f, c)]
                if cheap:
                    return cheap[0]
            return _throw(f, legal)
        safe = [c for c in winners if f.holds_against(c, after)]
        return safe[0] if safe else _throw(f, legal)
    if not winners:
        return _throw(f, legal)
    if not after:
        return winners[0]
    for c in winners:
        if f.holds_against(c, after):
            return c
    led = f.trick_cards[0]
    if led < JOKER1 and not legal & SUIT_MASKS[led // 13]:
        return winners[0]  # a ruff that may be overtrumped is still a fair chance
    return _throw(f, legal)


def _sure_winner(f: TableFacts, card: int) -> bool:
    """A card that will take a trick on its own when led later."""
    if card >= JOKER1:
        return True
    if f.led_two_wins and card % 13 == 0:
        return True
    return f.is_master(card) and (f.trump is None or card // 13 == f.trump
                                  or not f.unseen & SUIT_MASKS[f.trump])


def _throw(f: TableFacts, legal: int) -> int:
    """The card I lose least by giving up: the lowest of the led suit when following,
    else the least useful card (short side suits first, trumps and masters last)."""
    led = f.trick_cards[0] if f.trick_cards else None
    if led is not None and led < JOKER1:
        follow = legal & SUIT_MASKS[led // 13]
        if follow:
            return lowest(follow)
    best, best_value = -1, 1e9
    for c in cards_of(legal):
        value = _keep_value(f, c)
        if value < best_value:
            best, best_value = c, value
    return best


def _keep_value(f: TableFacts, card: int) -> float:
    """How much I want to keep ``card`` for later tricks (higher: keep)."""
    if card >= JOKER1:
        return 60.0
    suit, rank = card // 13, card % 13
    if suit == f.trump:
        return 80.0 + rank
    value = float(rank)
    if f.is_master(card) or (f.led_two_wins and rank == 0):
        value += 40.0
    # Keep length; shorten short suits (a void lets the trumps work).
    value += 1.5 * min((f.hand & SUIT_MASKS[suit]).bit_count(), 4)
    return value


# -- leading -----------------------------------------------------------------------------


def _lead(f: TableFacts, legal: int) -> int:
    trump = f.trump
    side = f.my_side
    n = f.n
    opponents = [s for s in range(n) if s != f.seat and not f.is_ally(s)]
    jokers = legal & JOKERS_MASK
    if trump is not None:
        tm = SUIT_MASKS[trump]
        my_trumps = legal & tm
        out_trumps = f.unseen & tm
        opp_trumps = bool(out_trumps) and any(not f.voids[s] >> trump & 1 for s in opponents)
        if side == BIDDER_SIDE and my_trumps and opp_trumps:
            top = highest(my_trumps)
            if f.is_master(top):
                return top
    masters = _safe_masters(f, legal, opponents)
    if masters:
        return masters[-1]
    if f.led_two_wins:
        twos = [c for c in cards_of(legal) if c < JOKER1 and c % 13 == 0 and c // 13 != trump]
        if twos:
            return twos[0]
    if jokers:
        return lowest(jokers)
    if trump is not None and side == BIDDER_SIDE and f.partner is not None \
            and f.partner != f.seat:
        partner = f.partner
        if not f.voids[partner] >> trump & 1 and f.unseen & SUIT_MASKS[trump]:
            for s in range(4):
                if s != trump and f.voids[partner] >> s & 1 and legal & SUIT_MASKS[s]:
                    return lowest(legal & SUIT_MASKS[s])
    return _low_lead(f, legal)


def _safe_masters(f: TableFacts, legal: int, opponents: list[int]) -> list[int]:
    """Cards that win when led now, lowest suit first (trump masters included)."""
    out = []
    trump = f.trump
    for c in cards_of(legal & ~JOKERS_MASK):
        if not f.is_master(c):
            continue
        suit = c // 13
        if suit != trump and any(f.may_ruff(s, suit) for s in opponents):
            continue
        if suit != trump and not (f.unseen & SUIT_MASKS[suit]) and trump is not None \
                and f.unseen & SUIT_MASKS[trump]:
            continue  # nobody else holds the suit: anyone with a trump takes it
        out.append(c)
    return out


def _low_lead(f: TableFacts, legal: int) -> int:
    """A low card from a side suit: the shortest when I hold trumps (to ruff later),
    else the longest."""
    trump = f.trump
    have_trumps = trump is not None and bool(f.hand & SUIT_MASKS[trump])
    best, best_key = -1, (1e9, 0.0)
    for s in range(4):
        if s == trump:
            continue
        cards = legal & SUIT_MASKS[s]
        if not cards:
            continue
        length = cards.bit_count()
        low = lowest(cards)
        # Prefer suits where the others hold higher cards than my low one anyway.
        key = (float(length if have_trumps else -length), float(low % 13))
        if key < best_key:
            best, best_key = low, key
    if best >= 0:
        return best
    cards = legal & ~JOKERS_MASK or legal
    return lowest(cards)


# -- minus round: every trick costs a point ----------------------------------------------


def _minus_follow(f: TableFacts, legal: int) -> int:
    led = f.trick_cards[0]
    if led < JOKER1 and legal & SUIT_MASKS[led // 13]:
        losing = [c for c in cards_of(legal) if not f.wins_now(c)]
        if losing:
            return losing[-1]
        if not f.seats_after_me():
            return highest(legal)
        return lowest(legal)
    losing = [c for c in cards_of(legal) if not f.wins_now(c)]
    if losing:
        suited = [c for c in losing if c < JOKER1]
        if suited:
            # Throw the card most likely to win a trick later: the highest rank.
            return max(suited, key=lambda c: (c % 13, -(f.hand & SUIT_MASKS[c // 13])
                                              .bit_count()))
        return losing[0]
    return lowest(legal)


def _minus_lead(f: TableFacts, legal: int) -> int:
    """The lead least likely to win: many unseen higher cards, few lower ones."""
    best, best_key = -1, (-1e9, 0.0)
    for c in cards_of(legal):
        if c >= JOKER1 or (f.led_two_wins and c % 13 == 0):
            continue
        higher = (f.unseen & above(c)).bit_count()
        lower = (f.unseen & below(c)).bit_count()
        key = (float(higher > 0), float(higher - 2 * lower))
        if key > best_key:
            best, best_key = c, key
    return best if best >= 0 else lowest(legal)
