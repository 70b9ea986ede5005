"""Hand evaluation for the heuristic bot: how many tricks a hand is worth with a given
trump, which suit to name, what to discard from the kitty, and whether a hand can take
every trick alone (the Amerikaner bid).

The trick estimates are linear in a few hand features, with weights fitted by least
squares on simulated deals in which a seat was made bidder and the heuristic bots played
the deal out (docs/bots.md says how), one set per table shape (players, kitty or not).
``others`` is always the mask of the cards that may be in other players' hands (or the
kitty), as far as the evaluating seat knows.
"""

from __future__ import annotations

from functools import lru_cache

from app.rules.cards import JOKERS_MASK, SUIT_MASKS

ACE, KING, QUEEN = 12, 11, 10

# The features of a hand for one trump suit, in this order.
FEATURES = ("trumps", "top", "aces", "kings", "bare_kings", "queens", "short", "jokers",
            "twos")


class Model:
    """Fitted side-trick estimate for one table shape: ``const`` + weights . features,
    plus one trick for a kitty trick; ``sigma`` is the spread of the outcome around it."""

    __slots__ = ("const", "sigma", "weights")

    def __init__(self, const: float, sigma: float, weights: tuple[float, ...]) -> None:
        self.const = const
        self.sigma = sigma
        self.weights = weights


# Fitted per (players, kitty?) on deals where a heuristic seat was made bidder at the
# lowest bid and heuristic bots played it out, kitty_trick off (docs/bots.md).
MODELS: dict[tuple[int, bool], Model] = {
    (4, True): Model(6.22, 1.49, (0.39, 0.23, 0.61, 0.43, 0.25, 0.13, 0.13, 0.5, 0.2)),
    (4, False): Model(3.59, 1.54, (0.67, 0.24, 0.78, 0.59, 0.00, 0.33, 0.22, 0.5, 0.2)),
    (3, True): Model(10.47, 1.66, (0.30, 0.11, 0.47, 0.35, 0.00, 0.18, 0.24, 0.5, 0.2)),
    (3, False): Model(8.91, 1.69, (0.43, 0.07, 0.59, 0.48, 0.01, 0.33, 0.39, 0.5, 0.2)),
    (5, True): Model(4.52, 1.27, (0.38, 0.28, 0.59, 0.23, 0.09, 0.12, 0.06, 0.5, 0.2)),
    (5, False): Model(2.06, 1.32, (0.63, 0.28, 0.81, 0.47, 0.00, 0.11, 0.25, 0.5, 0.2)),
}


def model_for(players: int, kitty: int) -> Model:
    return MODELS[(players, kitty > 0)]


def top_run(mine: int, suit_cards: int) -> int:
    """How many of ``mine`` sit in an unbroken run from the top of ``suit_cards`` (the
    cards of one suit still in play, ``mine`` included)."""
    count = 0
    rest = suit_cards
    while rest:
        top = 1 << (rest.bit_length() - 1)
        if not mine & top:
            break
        count += 1
        rest ^= top
    return count


def trump_features(hand: int, trump: int, others: int, led_two_wins: bool) -> list[int]:
    """The ``FEATURES`` of ``hand`` with ``trump`` named and the partner holding the
    highest trump I lack (the card I would call)."""
    sm = SUIT_MASKS[trump]
    mine = hand & sm
    length = mine.bit_count()
    live = others & sm
    called = 1 << (live.bit_length() - 1) if live else 0
    alone = top_run(mine, mine | live)
    with_partner = top_run(mine | called, mine | live)
    # The called card fills one gap in the run but is the partner's trick, not mine.
    top = with_partner - 1 if with_partner > alone else alone
    aces = kings = bare_kings = queens = short = twos = 0
    for s in range(4):
        if s == trump:
            continue
        cards = (hand & SUIT_MASKS[s]) >> (13 * s)
        n = cards.bit_count()
        if cards >> ACE & 1:
            aces += 1
        if cards >> KING & 1:
            if n >= 2:
                kings += 1
            else:
                bare_kings += 1
        if cards >> QUEEN & 1 and n >= 3:
            queens += 1
        if length >= 3 and n <= 1:
            short += 2 - n
        if led_two_wins and cards & 1:
            twos += 1
    return [length, top, aces, kings, bare_kings, queens, short,
            (hand & JOKERS_MASK).bit_count(), twos]


def my_tricks(hand: int, trump: int, others: int, led_two_wins: bool, model: Model) -> float:
    """The side's tricks credited to my hand with ``trump`` named (``model.const`` aside)."""
    features = trump_features(hand, trump, others, led_two_wins)
    return sum(w * x for w, x in zip(model.weights, features, strict=True))


# Pure in its arguments, and asked again and again for the same hands in a search's
# samples (every seat's bid as a candidate bid is answered, outbid.py; the first lead's
# candidates; the samples' weights): 40 % of the calls in 79 decisions of ``strong``
# were asked before. Kept: 16,384 answers (about 4 MB) at most.
@lru_cache(maxsize=1 << 14)
def best_trump(hand: int, others: int, led_two_wins: bool, model: Model,
               suits: int = 0b1111) -> tuple[int, float]:
    """(suit, ``my_tricks``) for the best trump among ``suits`` (a 4-bit mask) in which I
    hold a card and another card is live; (-1, 0.0) when there is none."""
    best, best_value = -1, -1.0
    for s in range(4):
        sm = SUIT_MASKS[s]
        if not suits >> s & 1 or not hand & sm or not others & sm:
            continue
        value = my_tricks(hand, s, others, led_two_wins, model)
        if value > best_value:
            best, best_value = s, value
    return best, max(best_value, 0.0)


def amerikaner_losers(hand: int, others: int, led_two_wins: bool) -> int:
    """Cards of ``hand`` that might lose a trick if I led every trick with no trump.

    A suit is safe when my run from the top is at least as long as the cards the others
    may hold in it (they are gone before my low cards are led); otherwise every card below
    the run may lose.  A led joker wins, and so does a led two under ``led_two_wins``.
    """
    losers = 0
    for s in range(4):
        sm = SUIT_MASKS[s]
        mine = hand & sm
        if not mine:
            continue
        theirs = others & sm
        run = top_run(mine, mine | theirs)
        if run >= theirs.bit_count():
            continue
        low = mine.bit_count() - run
        if led_two_wins and mine & (1 << (13 * s)) and run < mine.bit_count():
            low -= 1
        losers += low
    return losers
