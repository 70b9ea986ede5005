"""Actions, in the game record's shape.

Actions are immutable ``NamedTuple``s ending in a ``kind`` tag, so that two actions are
equal exactly when they are the same action (``Play(5) != Bid(5)``) and comparing them runs
in C.  Every ``Play`` of a card, numeric ``Bid`` and first ``Lead`` is also interned, so
``legal_actions`` allocates nothing per card and ``action in legal`` is mostly an identity
test.  Numeric bids are range-checked first (0 to ``BID_LIMIT``, more tricks than any deal
has), so what a client sends never grows the cache.  ``parse_action`` reads the record /
wire shape strictly (docs/spec/GAME-RECORD.md: integers are integers, cards are exact ids, no
unknown keys).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from .cards import CARD_IDS, NUM_CARDS, CardError, ids_of, mask_of, parse_card
from .errors import BadActionShape

BidValue = int | Literal["pass", "amerikaner"]
FORBID = ConfigDict(extra="forbid")  # the wire's TypedDicts: pydantic refuses unknown keys


@with_config(FORBID)
class ActionJson(TypedDict, total=False):
    """An action in the game record's shape (docs/spec/GAME-RECORD.md)."""

    bid: BidValue
    discard: list[str]
    play: str
    call: str
    grand: bool


@with_config(FORBID)
class LegalActionJson(TypedDict, total=False):
    """A legal action on the wire (a view's ``legal``): ``ActionJson``'s shape, except that
    the discard is a pattern, ``{"discard": K}``: any K cards of the hand."""

    bid: BidValue
    discard: list[str] | int
    play: str
    call: str
    grand: bool


class Bid(NamedTuple):
    """A numeric bid, ``"pass"`` or ``"amerikaner"``."""

    value: BidValue
    kind: str = "bid"

    def to_json(self) -> ActionJson:
        return {"bid": self.value}


class Discard(NamedTuple):
    """Discard exactly these cards (a mask) after taking the kitty."""

    cards: int
    kind: str = "discard"

    def to_json(self) -> ActionJson:
        return {"discard": ids_of(self.cards)}


class DiscardAny(NamedTuple):
    """The legal-action entry for a discard: any ``count`` cards of the hand."""

    number: int
    kind: str = "discard_any"

    def to_json(self) -> LegalActionJson:
        return {"discard": self.number}


class Lead(NamedTuple):
    """The bidder's first lead of a numeric contract with its call (``None``: alone)."""

    card: int
    call: int | None = None
    grand: bool = False
    kind: str = "lead"

    def to_json(self) -> ActionJson:
        out: ActionJson = {"play": CARD_IDS[self.card]}
        if self.call is not None:
            out["call"] = CARD_IDS[self.call]
        if self.grand:
            out["grand"] = True
        return out


class Play(NamedTuple):
    """Every other card played."""

    card: int
    kind: str = "play"

    def to_json(self) -> ActionJson:
        return {"play": CARD_IDS[self.card]}


Action = Bid | Discard | DiscardAny | Lead | Play

PASS = Bid("pass")
AMERIKANER = Bid("amerikaner")
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(NUM_CARDS))
BID_LIMIT = NUM_CARDS  # no deal has more tricks than cards: a bigger bid is no bid at all
_NUMERIC_BIDS: dict[int, Bid] = {}


def bid(value: BidValue) -> Bid:
    """The interned bid object for a value (a number outside 0..BID_LIMIT is made fresh:
    the cache holds at most BID_LIMIT + 1 numbers)."""
    if value == "pass":
        return PASS
    if value == "amerikaner":
        return AMERIKANER
    assert isinstance(value, int)
    b = _NUMERIC_BIDS.get(value)
    if b is None:
        b = Bid(value)
        if 0 <= value <= BID_LIMIT:
            _NUMERIC_BIDS[value] = b
    return b


# LEADS[grand][card][call]: every first lead, made once (index 52 of a row: no call).
# A deal lists its first leads all at once, often a hundred of them.
NO_CALL = 52
LEADS: tuple[tuple[tuple[Lead, ...], ...], ...] = tuple(
    tuple(tuple(Lead(card, call if call < 52 else None, g) for call in range(53))
          for card in range(52))
    for g in (False, True)
)


def lead(card: int, call: int | None, grand: bool = False) -> Lead:
    """The interned first-lead object (jokers, which cannot lead first, are made fresh)."""
    if card < 52 and (call is None or call < 52):
        return LEADS[grand][card][NO_CALL if call is None else call]
    return Lead(card, call, grand)


def _card(value: object, what: str) -> int:
    try:
        return parse_card(value)
    except CardError as exc:
        raise BadActionShape(f"{what}: {exc}") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_action(data: object) -> Action:
    """The action for a record / wire action object (without or with ``seat``)."""
    if not isinstance(data, dict):
        raise BadActionShape("an action must be a JSON object")
    keys = set(data) - {"seat"}
    if keys == {"bid"}:
        value = data["bid"]
        if value in ("pass", "amerikaner"):
            return bid(value)
        if _is_int(value):
            if not 0 <= value <= BID_LIMIT:  # before anything is made or cached
                raise BadActionShape(f"a bid is a whole number from 0 to {BID_LIMIT}, "
                                     '"pass" or "amerikaner"')
            return bid(value)
        raise BadActionShape('a bid is a whole number, "pass" or "amerikaner"')
    if keys == {"discard"}:
        cards = data["discard"]
        if not isinstance(cards, list):
            raise BadActionShape("a discard is a list of cards")
        indices = [_card(c, "discard") for c in cards]
        if len(set(indices)) != len(indices):
            raise BadActionShape("the same card is discarded twice")
        return Discard(mask_of(indices))
    if "play" in keys and keys <= {"play", "call", "grand"}:
        card = _card(data["play"], "play")
        if keys == {"play"}:
            return PLAYS[card]
        grand = data.get("grand", False)
        if "grand" in data and grand is not True:
            raise BadActionShape('"grand" appears only with the value true')
        call: int | None = None
        if "call" in data:
            if data["call"] is None:
                raise BadActionShape('leave "call" out to play alone ("call": null is not allowed)')
            call = _card(data["call"], "call")
        return lead(card, call, bool(grand))
    if not keys:
        raise BadActionShape("an action needs bid, discard or play")
    raise BadActionShape(f"an action cannot have the keys {', '.join(sorted(keys))}")


def action_to_json(action: Action) -> ActionJson | LegalActionJson:
    return action.to_json()


def taken_json(action: Action) -> ActionJson:
    """The record shape of an action taken: any action but the discard pattern
    (``DiscardAny``), which only ``legal_actions`` lists."""
    if isinstance(action, DiscardAny):
        raise ValueError("the discard pattern is no action taken: discard the cards")
    return action.to_json()
