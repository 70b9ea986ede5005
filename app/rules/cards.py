"""Cards as small integers and hands as bit masks.

A card is an index 0..53: ``suit * 13 + rank`` for the 52 suited cards (rank 0 is the
two, rank 12 the ace) and 52, 53 for the jokers ``JK1`` and ``JK2``.  A set of cards is
an ``int`` whose bit ``i`` is set when card ``i`` is in it.  Within one suit a higher
index is a higher card, so "the highest card of a suit in a mask" is a ``bit_length``.

The engine works on indices and masks only; card ids such as ``AS`` exist at the edges
(records, the wire, the command line).  Bit masks keep hands immutable, hashable and
cheap to copy, which is most of what makes random play fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKER_IDS = ("JK1", "JK2")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
JOKER1, JOKER2 = 52, 53
NUM_CARDS = 54
JOKERS_MASK = (1 << JOKER1) | (1 << JOKER2)
FULL_SUIT = (1 << 13) - 1
SUIT_MASKS: tuple[int, ...] = tuple(FULL_SUIT << (13 * s) for s in range(4))
TWOS: tuple[int, ...] = tuple(13 * s for s in range(4))
TWOS_MASK = sum(1 << c for c in TWOS)  # the four twos, as a set
# docs/spec/RULES.md 3.1: twos leave the deck in this order.
TWO_REMOVAL_ORDER: tuple[int, ...] = (13 * CLUBS, 13 * DIAMONDS, 13 * HEARTS, 13 * SPADES)

RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")

# RANKS_IN[m]: the ranks (0..12) in the 13-bit suit mask m, lowest first; one table
# look-up instead of a bit loop where the engine lists cards of one suit.
RANKS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13))

CARD_IDS: tuple[str, ...] = tuple(
    RANKS[c % 13] + SUITS[c // 13] for c in range(52)
) + JOKER_IDS
CARD_INDEX: dict[str, int] = {cid: i for i, cid in enumerate(CARD_IDS)}


class CardError(ValueError):
    """A string that is not one of the card ids of docs/spec/RULES.md."""


def parse_card(card_id: object) -> int:
    """The index of a card id such as ``"AS"`` or ``"JK1"``; ``CardError`` otherwise."""
    if isinstance(card_id, str):
        index = CARD_INDEX.get(card_id)
        if index is not None:
            return index
    raise CardError(f"{card_id!r} is not a card (cards are written like AS, TH, 2C or JK1)")


def card_id(card: int) -> str:
    return CARD_IDS[card]


def suit_of(card: int) -> int:
    """0..3 for suited cards, 4 for a joker (a joker has no suit)."""
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def is_joker(card: int) -> bool:
    return card >= JOKER1


def card_name(card: int) -> str:
    """The English name a player reads, e.g. ``Ace of spades``; both jokers are ``Joker``."""
    if card >= JOKER1:
        return "Joker"
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """The card indices in a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def ids_of(mask: int) -> list[str]:
    return [CARD_IDS[c] for c in cards_of(mask)]


def mask_of_ids(ids: Iterable[object]) -> int:
    return mask_of(parse_card(i) for i in ids)


def highest(mask: int) -> int:
    """The highest-index card of a non-empty mask."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest-index card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def suit_name(suit: int) -> str:
    return SUIT_NAMES[suit]


def sort_key(card: int, trump: int | None = None) -> tuple[int, int]:
    """Display order: trump first, then spades, hearts, clubs, diamonds (alternating colours),
    each suit high to low, jokers at the end."""
    if card >= JOKER1:
        return (9, card)
    suit = card // 13
    order = (0, 1, 3, 2)[suit] + 1
    if trump is not None and suit == trump:
        order = 0
    return (order, -(card % 13))
