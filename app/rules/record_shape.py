"""A game record's shape, checked before its actions are replayed (replay.py): its header
(``format``, ``rules``, ``players``) and each deal's dealer, hands and kitty, which the
engine takes as given; ``RecordError`` says where a record first goes wrong, quoting the
record's values short.
"""

from __future__ import annotations

import reprlib
from typing import NoReturn

from .cards import CARD_IDS, CARD_INDEX, JOKER1, ids_of
from .match import Match
from .outcomes import Outcome, VoidReason
from .ruleset import RuleSet, RulesetError

FORMAT = "amerikaner-record/1"
RECORD_KEYS = ("format", "rules", "players", "deals")
DEAL_KEYS = ("dealer", "hands", "kitty", "actions")

_short = reprlib.Repr()
_short.maxstring = _short.maxother = 40
_short.maxlist = _short.maxdict = _short.maxtuple = _short.maxset = 4
_short.maxlevel = 2


class RecordError(ValueError):
    """The first thing in a record that is not allowed, with where it is (0-based)."""

    code = "bad_record"

    def __init__(self, message: str, deal: int | None = None,
                 action: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.deal = deal
        self.action = action


def record_rules(data: object) -> RuleSet:
    """The rule set of a record (``RecordError`` when its header is not a record's)."""
    return read_header(data)[0]


def fail(message: str, deal: int | None = None, action: int | None = None) -> NoReturn:
    """Stop: the record goes wrong here (deal ``deal``, action ``action``, 0-based)."""
    raise RecordError(message, deal, action)


def quote(value: object) -> str:
    """A short quote of a value from the record, for a message."""
    try:
        return _short.repr(value)
    except ValueError:  # an int too long for str() (only from Python callers, not JSON)
        return "a number too long to quote"


def read_header(data: object) -> tuple[RuleSet, list[object]]:
    """The rule set and the deals of a record whose format, rules and players are right."""
    if not isinstance(data, dict):
        fail("a game record is a JSON object")
    if "format" not in data:
        fail(f'this is not a game record: it has no "format" (it should be "{FORMAT}")')
    if data["format"] != FORMAT:
        fail(f'the format is {quote(data["format"])}, not "{FORMAT}"')
    for key in RECORD_KEYS:
        if key not in data:
            fail(f'the record has no "{key}" (a record has format, rules, players and deals)')
    for key in data:
        if key not in RECORD_KEYS:
            fail(f"the record has an unknown key {quote(key)}")
    names = data["players"]
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        fail('"players" must be a list of names (strings) in seat order')
    rules = _read_rules(data["rules"], len(names))
    deals = data["deals"]
    if not isinstance(deals, list):
        fail('"deals" must be a list of deals')
    return rules, deals


def _read_rules(raw: object, count: int) -> RuleSet:
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        fail('"rules" must be an object such as {"preset": "guide", "target": 30}')
    given = dict(raw)
    if "players" not in given:
        # docs/spec/GAME-RECORD.md: without a `players` option there are as many seats as names.
        if count not in (3, 4, 5):
            fail(f"the record names {count} players; Amerikaner is played by 3, 4 or 5")
        given["players"] = count
    try:
        rules = RuleSet.from_json(given)
    except RulesetError as exc:
        fail(f"the rules are not valid: {exc.option}: {exc.message}")
    except ValueError as exc:  # e.g. a number too long for int() inside an option
        fail(f"the rules are not valid: {exc}")
    if rules.options.players != count:
        fail(f"the rules are for {rules.options.players} players but the record names "
              f"{count}")
    return rules


def read_deal(raw: object, i: int, rules: RuleSet,
               match: Match | None) -> tuple[int, list[int], int, list[object]]:
    """The dealer, hands, kitty (masks) and raw actions of deal ``i``, all checked but the
    actions."""
    if not isinstance(raw, dict):
        fail("a deal must be an object with dealer, hands, kitty and actions", i)
    for key in DEAL_KEYS:
        if key not in raw:
            fail(f'the deal has no "{key}" (every deal has dealer, hands, kitty and '
                  "actions)", i)
    for key in raw:
        if key not in DEAL_KEYS:
            fail(f"the deal has an unknown key {quote(key)}", i)
    n = rules.options.players
    dealer = raw["dealer"]
    if type(dealer) is not int or not 0 <= dealer < n:
        fail(f"the dealer must be a seat number from 0 to {n - 1}, not {quote(dealer)}", i)
    if match is not None and dealer != match.dealer:
        fail(f"the dealer must be seat {match.dealer}, not seat {dealer}: "
              f"{_rotation_reason(match)}", i)
    hands, kitty = _read_dealt(raw["hands"], raw["kitty"], rules, i)
    actions = raw["actions"]
    if not isinstance(actions, list):
        fail('"actions" must be a list of actions', i)
    return dealer, hands, kitty, actions


def _rotation_reason(match: Match) -> str:
    """Why the dealer is who it is after the previous deal (docs/spec/RULES.md 3.3)."""
    last = match.deals[-1]
    if last.outcome != Outcome.VOID:
        return "the deal passes left after every scored deal"
    if (last.void_reason == VoidReason.ALL_PASSED
            and match.rules.options.all_pass == "redeal_next_dealer"):
        return "after everyone passed, these rules pass the deal left"
    return "a void deal is dealt again by the same dealer"


def _read_dealt(hands_raw: object, kitty_raw: object, rules: RuleSet,
                i: int) -> tuple[list[int], int]:
    """The dealt hands and kitty as masks: together with the removed twos, the whole deck
    with each card once, ``hand_size`` cards a hand and ``kitty`` in the kitty."""
    n = rules.options.players
    shape = rules.shape
    if not isinstance(hands_raw, list) or len(hands_raw) != n:
        fail(f'"hands" must be a list of {n} hands, one per seat', i)
    seen = 0

    def take(cards: object, where: str) -> int:
        nonlocal seen
        if not isinstance(cards, list):
            fail(f"{where} must be a list of cards", i)
        mask = 0
        for value in cards:
            card = CARD_INDEX.get(value) if isinstance(value, str) else None
            if card is None:
                fail(f"{where}: {quote(value)} is not a card (cards are written like AS, "
                      "TH, 2C or JK1)", i)
            if not shape.deck >> card & 1:
                fail(f"{where}: {CARD_IDS[card]} is not in the deck: "
                      f"{_not_in_deck(card, rules)}", i)
            if seen >> card & 1:
                fail(f"{CARD_IDS[card]} is dealt twice", i)
            seen |= 1 << card
            mask |= 1 << card
        return mask

    hands = [take(hand, f"seat {s}'s hand") for s, hand in enumerate(hands_raw)]
    kitty = take(kitty_raw, "the kitty")
    missing = shape.deck & ~seen
    if missing:
        fail(f"{' '.join(ids_of(missing))} not dealt: every card of the deck is dealt "
              "once", i)
    for s, hand in enumerate(hands):
        if hand.bit_count() != shape.hand_size:
            fail(f"seat {s} was dealt {hand.bit_count()} cards; these rules deal "
                  f"{shape.hand_size} to each player", i)
    size = rules.options.kitty
    if kitty.bit_count() != size:
        wanted = f"set {size} aside" if size else "have no kitty"
        fail(f"the kitty has {kitty.bit_count()} cards; these rules {wanted}", i)
    return hands, kitty


def _not_in_deck(card: int, rules: RuleSet) -> str:
    if card >= JOKER1:
        jokers = rules.options.jokers
        return "these rules play without jokers" if not jokers else "there is only one joker"
    return "these rules take it out"
