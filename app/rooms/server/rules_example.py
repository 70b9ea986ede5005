"""The rules page's worked example: one deal under the ``standard`` preset with four
players, from the deal to the score, played through the engine.

The deal is data in the game record's shape (docs/spec/GAME-RECORD.md: the dealt hands, the kitty
and every action); ``worked_example`` replays it with ``app.rules`` and reports what the
page tells (the auction, the kitty and the discards, the lead and the call, the first two
tricks, the tricks each player won and the points) from the engine's state, so the page
states no result the engine did not reach.  An illegal action in the data raises here
(and in tests/test_rules_example.py), not on the page."""

from __future__ import annotations

from functools import lru_cache

from typing_extensions import TypedDict

from app.rules import Bid, RuleSet
from app.rules.cards import SUITS, card_id, ids_of
from app.rules.record import (
    FORMAT,
    DealRecord,
    MatchRecord,
    RecordAction,
    match_of_deal,
    recorded_actions,
)
from app.rules.wire import AuctionEntry

PRESET = "standard"
NAMES = ("Anna", "Bjørn", "Chloé", "David")
SHOWN_TRICKS = 2  # the tricks the page shows card by card
# Anna deals, so Bjørn (on her left) opens the auction.  Chloé wins it with 8 on a long
# heart suit, takes the kitty, discards her clubs and small diamonds, leads the five of
# hearts and calls the ace, which David holds.  In trick 2 Anna, out of diamonds, trumps
# Chloé's ace of diamonds with a small heart.  The other tricks are played out in full so
# that the score is the engine's.
DEAL: DealRecord = {
    "dealer": 0,
    "hands": [
        ["6H", "3H", "2H", "TS", "9S", "8S", "5S", "4S", "2S", "5C", "4C", "2C"],
        ["8H", "7H", "JC", "TC", "9C", "8C", "7C", "TD", "7D", "6D", "5D", "3D"],
        ["KH", "QH", "JH", "TH", "5H", "AS", "KS", "7S", "AD", "KD", "4D", "3C"],
        ["AH", "4H", "AC", "KC", "QC", "JS", "6S", "3S", "QD", "JD", "9D", "8D"],
    ],
    "kitty": ["9H", "QS", "6C", "2D"],
    "actions": [
        {"seat": 1, "bid": 7}, {"seat": 2, "bid": 8}, {"seat": 3, "bid": "pass"},
        {"seat": 0, "bid": "pass"}, {"seat": 1, "bid": "pass"},
        {"seat": 2, "discard": ["3C", "6C", "2D", "4D"]},
        {"seat": 2, "play": "5H", "call": "AH"},
        *(RecordAction(seat=seat, play=card) for seat, card in [
            (3, "AH"), (0, "2H"), (1, "7H"),
            (3, "8D"), (0, "6H"), (1, "TD"), (2, "AD"),
            (0, "TS"), (1, "8H"), (2, "7S"), (3, "3S"),
            (1, "JC"), (2, "9H"), (3, "QC"), (0, "2C"),
            (2, "AS"), (3, "6S"), (0, "2S"), (1, "3D"),
            (2, "KD"), (3, "9D"), (0, "3H"), (1, "5D"),
            (0, "9S"), (1, "6D"), (2, "QS"), (3, "JS"),
            (2, "KH"), (3, "4H"), (0, "4S"), (1, "7D"),
            (2, "KS"), (3, "JD"), (0, "5S"), (1, "7C"),
            (2, "QH"), (3, "QD"), (0, "4C"), (1, "8C"),
            (2, "JH"), (3, "KC"), (0, "5C"), (1, "9C"),
            (2, "TH"), (3, "AC"), (0, "8S"), (1, "TC"),
        ]),
    ],
}


class ExampleTrick(TypedDict):
    leader: int
    cards: list[str]           # in the order played
    winner: int


class WorkedExample(TypedDict):
    """The facts the rules page tells of the example deal, read from the engine."""

    preset: str
    players: int
    names: list[str]
    dealer: int
    auction: list[AuctionEntry]
    bidder: int
    bid: int | str | None
    kitty: list[str]
    discards: list[str]
    lead: str
    call: str | None
    trump: str
    partner: int | None
    tricks: list[ExampleTrick]  # the first SHOWN_TRICKS
    tricks_won: list[int]
    side_tricks: int
    kitty_trick: int
    made: bool | None
    points: list[int]


def example_record() -> MatchRecord:
    """The example as a game record of one deal (``amerikaner replay`` reads it)."""
    return {"format": FORMAT, "rules": RuleSet(PRESET).to_json(), "players": list(NAMES),
            "deals": [DEAL]}


@lru_cache(maxsize=1)
def worked_example() -> WorkedExample:
    """The example as the page tells it, every fact read from the engine's deal."""
    rules = RuleSet(PRESET)
    match = match_of_deal(rules, DEAL)
    deal = match.deal
    assert deal is not None
    for seat, action in recorded_actions(DEAL):
        match.apply(seat, action)
    if not deal.over or deal.bidder is None or deal.points is None or deal.trump is None:
        raise ValueError("the worked example must be a whole deal with a contract")
    bidder, partner = deal.bidder, deal.partner
    side = deal.tricks_won[bidder] + (deal.tricks_won[partner] if partner is not None else 0)
    return {
        "preset": PRESET,
        "players": rules.options.players,
        "names": list(NAMES),
        "dealer": deal.dealer,
        "auction": [{"seat": seat, "bid": action.value}
                    for seat, action in deal.calls if isinstance(action, Bid)],
        "bidder": bidder,
        "bid": deal.contract_bid,
        "kitty": ids_of(deal.kitty),
        "discards": ids_of(deal.discards),
        "lead": card_id(deal.tricks[0][1][0]),
        "call": card_id(deal.called) if deal.called is not None else None,
        "trump": SUITS[deal.trump],
        "partner": partner,
        "tricks": [{"leader": leader, "cards": ids_of_play(cards), "winner": winner}
                   for leader, cards, winner in deal.tricks[:SHOWN_TRICKS]],
        "tricks_won": list(deal.tricks_won),
        "side_tricks": side,
        "kitty_trick": 1 if rules.options.kitty and rules.options.kitty_trick else 0,
        "made": deal.made,
        "points": list(deal.points),
    }


def ids_of_play(cards: tuple[int, ...]) -> list[str]:
    """A trick's cards in the order they were played (``ids_of`` sorts a mask)."""
    return [card_id(card) for card in cards]
