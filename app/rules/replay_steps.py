"""A finished deal, step by step, for the browser's replay (docs/records.md, "In the
browser").

``replay_steps(rules, deal)`` plays one deal of a game record (docs/spec/GAME-RECORD.md: the dealt
hands, the kitty and every action) through the engine and reports the table after each
action: every hand, the auction so far, the contract, the trick on the table and who
won it, the tricks each seat has won, and at the end the points.  The browser shows
these steps as they come and decides nothing (it has no engine): what a step holds is
what the engine reached, as in ``amerikaner replay`` (``replay.py``), which checks the
record first.

``deal_replay`` puts one deal's steps with the record's names and every deal's result
line (``replay_record``'s, so the two agree by construction) into the wire answer
``DealReplay``.  Both take a record ``replay_record`` accepted; they raise what the
engine raises for anything else.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import with_config
from typing_extensions import TypedDict

from .actions import ActionJson, Bid, taken_json
from .cards import CARD_IDS, cards_of, ids_of, sort_key
from .deal import LEAD, OVER, PLAY, DealState
from .outcomes import Outcome, VoidReason
from .phases import Phase
from .record import match_of_deal, recorded_actions
from .replay import ReplayDealLine as ReplayDealLine
from .ruleset import RuleSet
from .view import contract_to_wire
from .wire import FORBID, AuctionEntry, ContractWire, LastTrick, TrickCard


@with_config(FORBID)
class ReplayStep(TypedDict):
    """The table after one action of a finished deal (the first step: as dealt)."""

    seat: int | None           # who acted; null at the first step (the deal as dealt)
    action: ActionJson | None  # what that seat did, in the record's shape
    phase: Phase               # the deal's phase after it: auction, discard, lead, play, over
    hands: list[list[str]]     # every seat's cards now, in display order (trumps first)
    auction: list[AuctionEntry]  # the bids so far
    contract: ContractWire | None  # from the end of the auction on (the partner from the call)
    trick: list[TrickCard]     # the trick on the table: in play, or just completed
    trick_number: int          # that trick's number (1-based); 0 before trick play
    trick_winner: int | None   # who won it, when this action completed it
    tricks_won: list[int]      # per seat, so far
    points: list[int] | None   # the deal's points, at its last step
    made: bool | None          # the contract made, at the last step (null: no contract)


@with_config(FORBID)
class DealReplay(TypedDict):
    """``GET /api/rooms/{code}/replay``, ``POST /api/replay``: one finished deal of a
    record, step by step."""

    players: list[str]         # the names, in seat order
    match: int | None          # the room's match number (null: an uploaded record)
    deal: int                  # this deal's index in the record (void deals count)
    deals: list[ReplayDealLine]  # every deal of the record, as amerikaner replay reports it
    dealer: int
    kitty: list[str]           # the kitty as dealt
    discards: list[str]        # what the bidder discarded (empty: no kitty exchange)
    outcome: Outcome
    void_reason: VoidReason | None
    contract: ContractWire | None
    tricks: list[LastTrick]    # every trick, in order
    tricks_won: list[int]
    points: list[int]
    made: bool | None
    kitty_trick: bool          # the kitty counted as one trick for the bidder's side
    steps: list[ReplayStep]    # the table as dealt, then after each action


def replay_steps(rules: RuleSet,
                 deal: Mapping[str, object]) -> tuple[DealState, list[ReplayStep]]:
    """Play ``deal`` (a record's deal) through the engine: its final state and the table
    as dealt and after each action."""
    match = match_of_deal(rules, deal)
    state = match.deal
    assert state is not None
    steps = [_step(state, None, None)]
    for seat, action in recorded_actions(deal):
        match.apply(seat, action)
        steps.append(_step(state, seat, taken_json(action)))
    return state, steps


def deal_replay(data: Mapping[str, object], lines: list[ReplayDealLine], rules: RuleSet,
                index: int, match: int | None = None) -> DealReplay:
    """Deal ``index`` of the record ``data`` as ``DealReplay``: ``lines`` are the deals of
    its ``replay_record`` line, ``rules`` its rule set; the deal must be over."""
    deals, players = data["deals"], data["players"]
    assert isinstance(deals, list) and isinstance(players, list)  # replay_record accepted it
    deal = deals[index]
    assert isinstance(deal, dict)
    state, steps = replay_steps(rules, deal)
    if state.phase != OVER or state.outcome is None or state.points is None:
        raise ValueError(f"deal {index} is not over")
    o = rules.options
    return {
        "players": [str(name) for name in players],
        "match": match,
        "deal": index,
        "deals": lines,
        "dealer": state.dealer,
        "kitty": ids_of(state.kitty),
        "discards": ids_of(state.discards),
        "outcome": state.outcome,
        "void_reason": state.void_reason,
        "contract": _contract(state),
        "tricks": [_trick(t) for t in state.tricks],
        "tricks_won": list(state.tricks_won),
        "points": list(state.points),
        "made": state.made,
        # as the room's result says it (view.py)
        "kitty_trick": bool(o.kitty_trick and o.kitty and state.bidder is not None
                            and state.outcome != Outcome.VOID and not state.amerikaner),
        "steps": steps,
    }


def _step(deal: DealState, seat: int | None, action: ActionJson | None) -> ReplayStep:
    trick: list[TrickCard] = []
    number = 0
    winner = None
    if deal.trick_cards:  # a trick in play
        trick = _cards(deal.leader, tuple(deal.trick_cards), deal.n)
        number = deal.tricks_played + 1
    elif deal.tricks and action is not None and "play" in action:
        leader, cards, winner = deal.tricks[-1]  # this card completed it
        trick = _cards(leader, cards, deal.n)
        number = deal.tricks_played
    over = deal.phase == OVER
    return {
        "seat": seat,
        "action": action,
        "phase": deal.phase,
        "hands": [_hand(hand, deal.trump) for hand in deal.hands],
        "auction": [{"seat": s, "bid": a.value} for s, a in deal.calls if isinstance(a, Bid)],
        "contract": _contract(deal),
        "trick": trick,
        "trick_number": number if deal.phase in (LEAD, PLAY) or over else 0,
        "trick_winner": winner,
        "tricks_won": list(deal.tricks_won),
        "points": list(deal.points) if over and deal.points is not None else None,
        "made": deal.made if over else None,
    }


def _contract(deal: DealState) -> ContractWire | None:
    """The contract, the partner named from the call (a replay knows every hand); none
    for a void deal."""
    if deal.outcome == Outcome.VOID:
        return None
    return contract_to_wire(deal, deal.partner)


def _hand(hand: int, trump: int | None) -> list[str]:
    return [CARD_IDS[c] for c in sorted(cards_of(hand), key=lambda c: sort_key(c, trump))]


def _cards(leader: int, cards: tuple[int, ...], n: int) -> list[TrickCard]:
    return [{"seat": (leader + i) % n, "card": CARD_IDS[c]} for i, c in enumerate(cards)]


def _trick(trick: tuple[int, tuple[int, ...], int]) -> LastTrick:
    leader, cards, winner = trick
    return {"cards": _cards(leader, cards, len(cards)), "winner": winner}
