"""Replaying a game record against the rules (docs/spec/GAME-RECORD.md, "Replay").

``replay_record(data)`` checks a parsed record from its ``format`` to its last action and
returns the result line of ``amerikaner replay`` (without ``file``): each deal's outcome,
contract, tricks and points, the totals and the match's end; or the first thing that is not
allowed, with its deal and action indexes and a message a player understands.

What the rules allow is decided by the engine alone: every action is parsed by
``parse_action`` and applied through ``Match.apply``, so ``legal_actions`` stays the single
source of truth.  Replay checks only what the engine takes as given (the record's shape,
the cards dealt and the dealer's rotation: record_shape.py; whose turn it is) and words
the engine's refusals so that they name the seat and what it did.  It never consults a
random source.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import with_config
from typing_extensions import TypedDict

from .actions import Action, Bid, Discard, Lead, Play, lead, parse_action
from .cards import CARD_IDS, ids_of
from .deal import LEAD, OVER, PLAY, DealState
from .errors import ActionError
from .explain import lead_error_for
from .match import Match
from .outcomes import Outcome, VoidReason
from .record_shape import RecordError, fail, quote, read_deal, read_header
from .view import contract_to_wire
from .wire import FORBID, ContractWire

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


def _replay(data: object) -> ReplayDone:
    rules, deals = read_header(data)
    match: Match | None = None
    results: list[ReplayDealLine] = []
    for i, raw in enumerate(deals):
        if match is not None:
            if match.deals[-1].phase != OVER:
                fail("the deal before this one is unfinished: only the last deal of a "
                      "record may stop before its end", i)
            if match.finished:
                fail("the match ended with the deal before this one: no deal may follow", i)
        dealer, hands, kitty, actions = read_deal(raw, i, rules, match)
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


# -- actions ---------------------------------------------------------------------------


def _apply(match: Match, deal: DealState, raw: object, i: int, j: int) -> None:
    """Apply action ``j`` of deal ``i`` through the engine, or fail with why not."""
    n = match.n
    if not isinstance(raw, dict):
        fail("an action must be an object such as {\"seat\": 1, \"bid\": 7}", i, j)
    if "seat" not in raw:
        fail("the action has no seat", i, j)
    seat = raw["seat"]
    if type(seat) is not int or not 0 <= seat < n:
        fail(f"the seat must be a number from 0 to {n - 1}, not {quote(seat)}", i, j)
    try:
        action = parse_action(raw)
    except ActionError as exc:
        fail(f"seat {seat}: {exc}", i, j)
    described = _describe(action, deal)
    if deal.phase == OVER:
        fail(f"seat {seat} {described}, but the deal is already over: "
              f"{_how_it_ended(deal)}", i, j)
    if seat != deal.turn:
        fail(f"seat {seat} {described}, but it is seat {deal.turn}'s turn", i, j)
    try:
        match.apply(seat, action)
    except ActionError as exc:
        fail(f"seat {seat} {described}: {_why_not(action, deal, seat, exc)}", i, j)


def _describe(action: Action, deal: DealState) -> str:
    """What an action does, in words: ``bids 7``, ``leads 4H calling AH``, ``plays KD``."""
    if isinstance(action, Bid):
        if action.value == "pass":
            return "passes"
        if action.value == "amerikaner":
            return "bids Amerikaner"
        return f"bids {quote(action.value)}"
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
