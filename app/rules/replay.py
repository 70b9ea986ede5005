"""Replaying a game record against the rules (docs/spec/GAME-RECORD.md, "Replay").

``replay_record(data)`` checks a parsed record from its ``format`` to its last action and
returns the result line of ``amerikaner replay`` (without ``file``): each deal's outcome,
contract, tricks and points, the totals and the match's end; or the first thing that is not
allowed, with its deal and action indexes and a message a player understands.

What the rules allow is decided by the engine alone: every action is parsed by
``parse_action`` and applied through ``Match.apply``, so ``legal_actions`` stays the single
source of truth.  This module checks only what the engine takes as given (the record's
shape, the cards dealt, the dealer's rotation, whose turn it is) and words the engine's
refusals so that they name the seat and what it did.  It never consults a random source.
"""

from __future__ import annotations

import random
import reprlib
from typing import Literal, NoReturn

from pydantic import with_config
from typing_extensions import TypedDict

from .actions import Action, Bid, Discard, Lead, Play, lead, parse_action
from .cards import CARD_IDS, CARD_INDEX, JOKER1, ids_of
from .deal import LEAD, OVER, PLAY, DealState
from .errors import ActionError
from .explain import lead_error_for
from .match import Match
from .outcomes import Outcome, VoidReason
from .ruleset import RuleSet, RulesetError
from .view import contract_to_wire
from .wire import FORBID, ContractWire

FORMAT = "amerikaner-record/1"
RECORD_KEYS = ("format", "rules", "players", "deals")
DEAL_KEYS = ("dealer", "hands", "kitty", "actions")
MAX_MESSAGE = 300  # messages quote bad input: a huge value must not flood the line



@with_config(FORBID)
class ReplayDealLine(TypedDict):
    """One deal of ``amerikaner replay``'s result line (docs/spec/GAME-RECORD.md, "Replay")."""

    dealer: int
    outcome: Outcome | Literal["incomplete"]  # incomplete: the record stops in this deal
    contract: ContractWire | None
    tricks: list[int]          # tricks won per seat
    made: bool | None
    points: list[int] | None   # null while incomplete


class ReplayDone(TypedDict):
    """The result line of a record that replays (without ``file``)."""

    ok: Literal[True]
    deals: list[ReplayDealLine]
    totals: list[int]
    finished: bool
    winners: list[int]


class ReplayFault(TypedDict):
    """Where a record first breaks a rule (0-based; null: the record as a whole)."""

    deal: int | None
    action: int | None
    message: str


class ReplayFailed(TypedDict):
    """The result line of a record that breaks a rule (without ``file``)."""

    ok: Literal[False]
    error: ReplayFault


ReplayLine = ReplayDone | ReplayFailed


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


def error_line(message: str, deal: int | None = None,
               action: int | None = None) -> ReplayFailed:
    """The replay result for a record that breaks a rule (docs/spec/GAME-RECORD.md, without
    ``file``)."""
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 1] + "…"
    return {"ok": False, "error": {"deal": deal, "action": action, "message": message}}


def replay_record(data: object) -> ReplayLine:
    """Replay a parsed record; the result line of docs/spec/GAME-RECORD.md without ``file``."""
    try:
        return _replay(data)
    except RecordError as exc:
        return error_line(exc.message, exc.deal, exc.action)
    except RecursionError:  # quoting a value nested a thousand deep in a message
        return error_line("the record holds a value nested too deeply to be part of it")


def record_rules(data: object) -> RuleSet:
    """The rule set of a record (``RecordError`` when its header is not a record's)."""
    return _read_header(data)[0]


def _fail(message: str, deal: int | None = None, action: int | None = None) -> NoReturn:
    raise RecordError(message, deal, action)


def _show(value: object) -> str:
    """A short quote of a value from the record, for a message."""
    try:
        return _short.repr(value)
    except ValueError:  # an int too long for str() (only from Python callers, not JSON)
        return "a number too long to quote"


def _replay(data: object) -> ReplayDone:
    rules, deals = _read_header(data)
    match: Match | None = None
    results: list[ReplayDealLine] = []
    for i, raw in enumerate(deals):
        if match is not None:
            if match.deals[-1].phase != OVER:
                _fail("the deal before this one is unfinished: only the last deal of a "
                      "record may stop before its end", i)
            if match.finished:
                _fail("the match ended with the deal before this one: no deal may follow", i)
        dealer, hands, kitty, actions = _read_deal(raw, i, rules, match)
        if match is None:
            # The first dealer is free.  Match wants a generator; with the dealer and the
            # hands given it never draws from it, and a fixed seed keeps replay
            # deterministic even if that changed.
            match = Match(rules, rng=random.Random(0), first_dealer=dealer, auto_redeal=False)
        match.start_deal(hands=hands, kitty=kitty)
        deal = match.deals[-1]
        for j, raw_action in enumerate(actions):
            _apply(match, deal, raw_action, i, j)
        results.append(_deal_result(deal))
    n = rules.options.players
    return {
        "ok": True,
        "deals": results,
        "totals": list(match.totals) if match else [0] * n,
        "finished": bool(match and match.finished),
        "winners": list(match.winners) if match else [],
    }


# -- the record and its deals ----------------------------------------------------------


def _read_header(data: object) -> tuple[RuleSet, list[object]]:
    """The rule set and the deals of a record whose format, rules and players are right."""
    if not isinstance(data, dict):
        _fail("a game record is a JSON object")
    if "format" not in data:
        _fail(f'this is not a game record: it has no "format" (it should be "{FORMAT}")')
    if data["format"] != FORMAT:
        _fail(f'the format is {_show(data["format"])}, not "{FORMAT}"')
    for key in RECORD_KEYS:
        if key not in data:
            _fail(f'the record has no "{key}" (a record has format, rules, players and deals)')
    for key in data:
        if key not in RECORD_KEYS:
            _fail(f"the record has an unknown key {_show(key)}")
    names = data["players"]
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        _fail('"players" must be a list of names (strings) in seat order')
    rules = _read_rules(data["rules"], len(names))
    deals = data["deals"]
    if not isinstance(deals, list):
        _fail('"deals" must be a list of deals')
    return rules, deals


def _read_rules(raw: object, count: int) -> RuleSet:
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        _fail('"rules" must be an object such as {"preset": "guide", "target": 30}')
    given = dict(raw)
    if "players" not in given:
        # docs/spec/GAME-RECORD.md: without a `players` option there are as many seats as names.
        if count not in (3, 4, 5):
            _fail(f"the record names {count} players; Amerikaner is played by 3, 4 or 5")
        given["players"] = count
    try:
        rules = RuleSet.from_json(given)
    except RulesetError as exc:
        _fail(f"the rules are not valid: {exc.option}: {exc.message}")
    except ValueError as exc:  # e.g. a number too long for int() inside an option
        _fail(f"the rules are not valid: {exc}")
    if rules.options.players != count:
        _fail(f"the rules are for {rules.options.players} players but the record names "
              f"{count}")
    return rules


def _read_deal(raw: object, i: int, rules: RuleSet,
               match: Match | None) -> tuple[int, list[int], int, list[object]]:
    """The dealer, hands, kitty (masks) and raw actions of deal ``i``, all checked but the
    actions."""
    if not isinstance(raw, dict):
        _fail("a deal must be an object with dealer, hands, kitty and actions", i)
    for key in DEAL_KEYS:
        if key not in raw:
            _fail(f'the deal has no "{key}" (every deal has dealer, hands, kitty and '
                  "actions)", i)
    for key in raw:
        if key not in DEAL_KEYS:
            _fail(f"the deal has an unknown key {_show(key)}", i)
    n = rules.options.players
    dealer = raw["dealer"]
    if type(dealer) is not int or not 0 <= dealer < n:
        _fail(f"the dealer must be a seat number from 0 to {n - 1}, not {_show(dealer)}", i)
    if match is not None and dealer != match.dealer:
        _fail(f"the dealer must be seat {match.dealer}, not seat {dealer}: "
              f"{_rotation_reason(match)}", i)
    hands, kitty = _read_dealt(raw["hands"], raw["kitty"], rules, i)
    actions = raw["actions"]
    if not isinstance(actions, list):
        _fail('"actions" must be a list of actions', i)
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
        _fail(f'"hands" must be a list of {n} hands, one per seat', i)
    seen = 0

    def take(cards: object, where: str) -> int:
        nonlocal seen
        if not isinstance(cards, list):
            _fail(f"{where} must be a list of cards", i)
        mask = 0
        for value in cards:
            card = CARD_INDEX.get(value) if isinstance(value, str) else None
            if card is None:
                _fail(f"{where}: {_show(value)} is not a card (cards are written like AS, "
                      "TH, 2C or JK1)", i)
            if not shape.deck >> card & 1:
                _fail(f"{where}: {CARD_IDS[card]} is not in the deck: "
                      f"{_not_in_deck(card, rules)}", i)
            if seen >> card & 1:
                _fail(f"{CARD_IDS[card]} is dealt twice", i)
            seen |= 1 << card
            mask |= 1 << card
        return mask

    hands = [take(hand, f"seat {s}'s hand") for s, hand in enumerate(hands_raw)]
    kitty = take(kitty_raw, "the kitty")
    missing = shape.deck & ~seen
    if missing:
        _fail(f"{' '.join(ids_of(missing))} not dealt: every card of the deck is dealt "
              "once", i)
    for s, hand in enumerate(hands):
        if hand.bit_count() != shape.hand_size:
            _fail(f"seat {s} was dealt {hand.bit_count()} cards; these rules deal "
                  f"{shape.hand_size} to each player", i)
    size = rules.options.kitty
    if kitty.bit_count() != size:
        wanted = f"set {size} aside" if size else "have no kitty"
        _fail(f"the kitty has {kitty.bit_count()} cards; these rules {wanted}", i)
    return hands, kitty


def _not_in_deck(card: int, rules: RuleSet) -> str:
    if card >= JOKER1:
        jokers = rules.options.jokers
        return "these rules play without jokers" if not jokers else "there is only one joker"
    return "these rules take it out"


# -- actions ---------------------------------------------------------------------------


def _apply(match: Match, deal: DealState, raw: object, i: int, j: int) -> None:
    """Apply action ``j`` of deal ``i`` through the engine, or fail with why not."""
    n = match.n
    if not isinstance(raw, dict):
        _fail("an action must be an object such as {\"seat\": 1, \"bid\": 7}", i, j)
    if "seat" not in raw:
        _fail("the action has no seat", i, j)
    seat = raw["seat"]
    if type(seat) is not int or not 0 <= seat < n:
        _fail(f"the seat must be a number from 0 to {n - 1}, not {_show(seat)}", i, j)
    try:
        action = parse_action(raw)
    except ActionError as exc:
        _fail(f"seat {seat}: {exc}", i, j)
    described = _describe(action, deal)
    if deal.phase == OVER:
        _fail(f"seat {seat} {described}, but the deal is already over: "
              f"{_how_it_ended(deal)}", i, j)
    if seat != deal.turn:
        _fail(f"seat {seat} {described}, but it is seat {deal.turn}'s turn", i, j)
    try:
        match.apply(seat, action)
    except ActionError as exc:
        _fail(f"seat {seat} {described}: {_why_not(action, deal, seat, exc)}", i, j)


def _describe(action: Action, deal: DealState) -> str:
    """What an action does, in words: ``bids 7``, ``leads 4H calling AH``, ``plays KD``."""
    if isinstance(action, Bid):
        if action.value == "pass":
            return "passes"
        if action.value == "amerikaner":
            return "bids Amerikaner"
        return f"bids {_show(action.value)}"
    if isinstance(action, Discard):
        return f"discards {' '.join(ids_of(action.cards)) or 'nothing'}"
    verb = "leads" if deal.phase == LEAD else "plays"
    if isinstance(action, Lead):
        call = f" calling {CARD_IDS[action.call]}" if action.call is not None else ""
        return f"{verb} {CARD_IDS[action.card]}{call}{' as grand' if action.grand else ''}"
    if isinstance(action, Play):
        alone = " without a call" if deal.phase == LEAD else ""
        return f"{verb} {CARD_IDS[action.card]}{alone}"
    return "acts"


def _why_not(action: Action, deal: DealState, seat: int, exc: ActionError) -> str:
    """The engine's refusal, made precise where it speaks in general terms."""
    if isinstance(action, Lead) and deal.phase == PLAY:
        # A call or grand on any play but the first lead of a numeric contract.
        if deal.amerikaner:
            return "an Amerikaner contract has no call and no grand"
        if deal.minus_round:
            return "a minus round has no call and no grand"
        return "only the bidder's first lead may call a card or declare grand"
    if isinstance(action, Play) and deal.phase == LEAD:
        # A first lead written without a call is a lead alone: say why that is not allowed
        # (the engine's refusal speaks of a plain play).
        return str(lead_error_for(deal, seat, lead(action.card, None, False)))
    return str(exc)


def _how_it_ended(deal: DealState) -> str:
    if deal.outcome == Outcome.VOID:
        why = ("everyone passed" if deal.void_reason == VoidReason.ALL_PASSED
               else "the bidder had no legal first lead")
        return f"it was void ({why}) and is dealt again"
    return "its last trick has been played"


# -- results ---------------------------------------------------------------------------


def _deal_result(deal: DealState) -> ReplayDealLine:
    """One deal of the result line (docs/spec/GAME-RECORD.md)."""
    over = deal.phase == OVER
    outcome: Outcome | Literal["incomplete"] = (deal.outcome if over and deal.outcome
                                                 else "incomplete")
    return {
        "dealer": deal.dealer,
        "outcome": outcome,
        "contract": _contract(deal, outcome),
        "tricks": list(deal.tricks_won),
        "made": deal.made,
        "points": list(deal.points) if over and deal.points is not None else None,
    }


def _contract(deal: DealState, outcome: str) -> ContractWire | None:
    """The contract from the end of the auction on; ``None`` for void deals, minus rounds
    and while the auction runs.  Replay knows every hand, so the partner is named from
    the call on."""
    if outcome == Outcome.VOID:
        return None
    return contract_to_wire(deal, deal.partner)
