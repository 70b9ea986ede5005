"""Trick play as pure functions: the tables of plays per suit, who wins a trick.

These are the hot path of every simulation, so they work on integers only and return
interned ``Play`` tuples from tables built once at import.
"""

from __future__ import annotations

from .actions import PLAYS, Play
from .cards import JOKER1, RANKS_IN

_SUIT_BITS = 13
BITS: tuple[int, ...] = tuple(1 << c for c in range(54))
_LOW13 = (1 << _SUIT_BITS) - 1
_LOW26 = (1 << 2 * _SUIT_BITS) - 1


def _suit_table(suit: int) -> tuple[tuple[Play, ...], ...]:
    base = suit * 13
    return tuple(
        tuple(PLAYS[base + r] for r in RANKS_IN[m]) for m in range(1 << 13)
    )


# SUIT_PLAYS[s][m]: the plays of suit s whose 13-bit rank mask is m, lowest first.
SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(_suit_table(s) for s in range(4))


class ForcedPlays:
    """SUIT_PLAYS of a card's suit, except that a holder of the card may only play it:
    the table for trick one, where the called card must be played (section 8).  It looks
    into the suit's table rather than copying it: 52 copies of 64 KiB, made as called
    cards came up, were memory a server never gave back."""

    __slots__ = ("_bit", "_only", "_table")

    def __init__(self, card: int) -> None:
        suit, rank = divmod(card, 13)
        self._table = SUIT_PLAYS[suit]
        self._bit = 1 << rank
        self._only = (PLAYS[card],)

    def __getitem__(self, mask: int) -> tuple[Play, ...]:
        return self._only if mask & self._bit else self._table[mask]


# FORCED_PLAYS[c]: the plays of trick one's led suit when card c is the called card; made
# at import with the other tables, not in the middle of play (long-lived objects made then
# keep memory a server could otherwise give back).
FORCED_PLAYS: tuple[ForcedPlays, ...] = tuple(ForcedPlays(c) for c in range(52))


JOKER_PLAYS: tuple[tuple[Play, ...], ...] = (
    (), (PLAYS[JOKER1],), (PLAYS[JOKER1 + 1],), (PLAYS[JOKER1], PLAYS[JOKER1 + 1]))


_S0, _S1, _S2, _S3 = SUIT_PLAYS  # one name each: plays_of runs for most cards
# Clubs and the jokers in one table (15 bits): one look-up less for every hand.
_S3J = _S3 + tuple(plays + jokers for jokers in JOKER_PLAYS[1:] for plays in _S3)


def plays_of(mask: int) -> tuple[Play, ...]:
    """The ``Play`` actions for every card in ``mask``, in index order."""
    # Two halves of 26 bits first: CPython works faster on ints of one 30-bit digit.
    low, high = mask & _LOW26, mask >> 26
    return (_S0[low & _LOW13] + _S1[low >> 13] + _S2[high & _LOW13]
            + _S3J[high >> 13])


# STRENGTHS[trump][led suit][card]: how a card ranks in a trick (higher wins): the led
# suit 1..13, trumps 14..26, anything else (a joker not led included) 0.  Trump NO_TRUMP:
# none (grand, Amerikaner, minus round).  A card that wins whatever follows (a led joker,
# a led two under led_two_wins) ranks LEADER_WINS.
NO_TRUMP, LEADER_WINS = 4, 99


def _strengths(trump: int, led: int) -> tuple[int, ...]:
    out = [0] * 54
    for rank in range(13):
        out[led * 13 + rank] = 1 + rank
        if trump != NO_TRUMP:
            out[trump * 13 + rank] = 14 + rank
    return tuple(out)


STRENGTHS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_strengths(trump, led) for led in range(4)) for trump in range(5))


def trick_winner(cards: list[int], trump: int | None, led_two_wins: bool) -> int:
    """The index (in play order) of the card winning the trick so far (complete or not),
    by the same strengths the engine keeps as cards come."""
    led = cards[0]
    if led >= JOKER1:
        return 0  # a led joker wins (8.4)
    if led_two_wins and led % 13 == 0:
        return 0  # a led two wins (8.3)
    strength = STRENGTHS[NO_TRUMP if trump is None else trump][led // 13]
    ranks = [strength[c] for c in cards]
    return ranks.index(max(ranks))
