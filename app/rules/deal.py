"""One deal: the auction, the kitty exchange, the first lead with its call, trick play and
the deal's score.

``DealState`` is a small mutable state machine in the OpenSpiel style: ``legal_actions()``
lists what the seat to act may do (the single source of truth), ``apply(seat, action)``
accepts exactly those, rejects anything else with a precise ``ActionError`` and returns
the events it caused.  It never consults a random source: the cards come in dealt.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from .actions import Action, Bid, Discard, DiscardAny, Lead, Play, lead
from .calling import discard_keeps_lead, lead_actions, lead_error
from .cards import JOKER1, SUIT_MASKS, card_name, cards_of, suit_name
from .errors import (
    ActionError,
    IllegalBid,
    IllegalDiscard,
    IllegalLead,
    IllegalPlay,
    NotYourTurn,
    WrongPhase,
)
from .ruleset import RuleSet
from .scoring import score_deal
from .tricks import playable, trick_winner

AUCTION, DISCARD, LEAD, PLAY, OVER = "auction", "discard", "lead", "play", "over"
CardPlayed = ev.CardPlayed
_new_event = tuple.__new__


class DealState:
    """Everything about one deal, including what only some seats may know (see view.py)."""

    __slots__ = (
        "_legal", "actions", "amerikaner", "bidder", "called", "contract_bid", "dealer",
        "dealt", "discards", "forced", "grand", "hand_size", "hands", "high", "high_bidder",
        "kitty", "kitty_shown", "last_trick", "led_two_wins", "made", "minus_round",
        "n", "outcome", "partner", "partner_revealed", "passed", "phase", "points",
        "rules", "trick_cards", "trick_seats", "tricks", "tricks_played", "tricks_won",
        "trump", "turn", "void_reason",
    )

    def __init__(self, rules: RuleSet, dealer: int, hands: list[int], kitty: int) -> None:
        o = rules.options
        self.rules = rules
        self.n = n = o.players
        self.dealer = dealer
        self.hand_size = rules.shape.hand_size
        self.led_two_wins = o.led_two_wins
        self.dealt: tuple[int, ...] = tuple(hands)
        self.hands: list[int] = list(hands)
        self.kitty = kitty
        self.kitty_shown = False
        self.discards = 0
        self.actions: list[tuple[int, Action]] = []
        self.phase = AUCTION
        self.turn: int | None = dealer if o.first_bidder == "dealer" else (dealer + 1) % n
        self.passed = 0  # bit per seat that passed
        self.high = 0  # highest numeric bid so far (0: none)
        self.high_bidder: int | None = None
        self.amerikaner = False
        self.bidder: int | None = None
        self.contract_bid: int | str | None = None
        self.minus_round = False
        self.trump: int | None = None
        self.called: int | None = None
        self.forced = 0  # the called card's bit while it must be played (trick one)
        self.partner: int | None = None
        self.partner_revealed = False
        self.grand = False
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.last_trick: tuple[int, tuple[int, ...], int] | None = None
        self.tricks_played = 0
        self.tricks_won = [0] * n
        self.outcome: str | None = None  # played, void, minus_round
        self.void_reason: str | None = None
        self.points: tuple[int, ...] | None = None
        self.made: bool | None = None
        self._legal: tuple[Action, ...] | None = None

    # -- questions -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def others_mask(self, seat: int) -> int:
        """The cards in every hand but ``seat``'s: the live cards for that seat's call."""
        mask = 0
        for s, h in enumerate(self.hands):
            if s != seat:
                mask |= h
        return mask

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat in ``turn`` may do now; ``()`` when nobody is to act."""
        legal = self._legal
        if legal is None:
            if self.phase is PLAY:
                cards = self.trick_cards
                legal = playable(self.hands[self.turn],  # type: ignore[index]
                                 cards[0] if cards else None, self.forced)
            else:
                legal = self._compute_legal()
            self._legal = legal
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase is AUCTION:
            return self.rules.auction_legal[self.high]
        if phase is DISCARD:
            return (DiscardAny(self.rules.options.kitty),)
        if phase is LEAD:
            assert self.bidder is not None
            o = self.rules.options
            return tuple(lead_actions(self.hands[self.bidder], self.others_mask(self.bidder),
                                      o.no_callable == "play_alone", o.grand))
        return ()

    def discard_allowed(self, cards: int) -> str:
        """"" when the bidder may discard exactly ``cards``; otherwise why not."""
        assert self.bidder is not None
        hand = self.hands[self.bidder]
        k = self.rules.options.kitty
        if cards & ~hand:
            return "you can only discard cards from your hand"
        if cards.bit_count() != k:
            return f"discard exactly {k} cards"
        if (self.rules.options.no_callable == "redeal" and not self.amerikaner
                and not discard_keeps_lead(hand, cards, self.others_mask(self.bidder))):
            return ("keep at least one card of a suit another player holds: you must be "
                    "able to lead and call a partner")
        return ""

    # -- transitions -----------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Any]:
        """Apply ``action`` by ``seat``; return the events, or raise and change nothing."""
        if seat != self.turn:
            if self.turn is None:
                raise WrongPhase("the deal is over")
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not yours")
        phase = self.phase
        if phase is PLAY:
            # The hot path of every simulation: kept inline, with _play's work repeated
            # here for the common case of a card that neither ends a trick nor reveals.
            legal = self._legal or self.legal_actions()
            if action not in legal:
                raise self._play_error(seat, action)
            self._legal = None
            self.actions.append((seat, action))
            card = action.card  # type: ignore[union-attr]
            cards = self.trick_cards
            if card == self.called or len(cards) == self.n - 1:
                return self._play(seat, card)
            self.hands[seat] ^= 1 << card
            self.trick_seats.append(seat)
            cards.append(card)
            self.turn = (seat + 1) % self.n
            return [_new_event(CardPlayed, (seat, card, "card_played"))]
        if phase is AUCTION:
            if action not in self.legal_actions():
                raise self._bid_error(action)
            self._legal = None
            self.actions.append((seat, action))
            return self._bid(seat, action)  # type: ignore[arg-type]
        if phase is DISCARD:
            if not isinstance(action, Discard):
                raise WrongPhase(f"discard {self.rules.options.kitty} cards first")
            why = self.discard_allowed(action.cards)
            if why:
                raise IllegalDiscard(why)
            self._legal = None
            self.actions.append((seat, action))
            return self._discard(seat, action.cards)
        # LEAD
        if isinstance(action, Play):
            action = lead(action.card, None, False)
        if not isinstance(action, Lead):
            raise WrongPhase("lead the first card and call your partner's card")
        if action not in self.legal_actions():
            o = self.rules.options
            why = lead_error(action, self.hands[seat], self.others_mask(seat),
                             o.no_callable == "play_alone", o.grand)
            raise IllegalLead(why or "that lead is not allowed")
        self._legal = None
        self.actions.append((seat, action))
        return self._lead(seat, action)

    def _bid(self, seat: int, action: Bid) -> list[Any]:
        n = self.n
        value = action.value
        events: list[Any] = [ev.BidMade(seat, value)]
        if value == "pass":
            self.passed |= 1 << seat
        elif value == "amerikaner":
            self.amerikaner = True
            self.high_bidder = seat
            return events + self._auction_won()
        else:
            self.high = value
            self.high_bidder = seat
        passes = self.passed.bit_count()
        if self.high_bidder is not None and passes == n - 1:
            return events + self._auction_won()
        if passes == n:
            return events + self._all_passed()
        nxt = (seat + 1) % n
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % n
        self.turn = nxt
        return events

    def _auction_won(self) -> list[Any]:
        b = self.high_bidder
        assert b is not None
        self.bidder = b
        self.contract_bid = "amerikaner" if self.amerikaner else self.high
        events: list[Any] = [ev.AuctionWon(b, self.contract_bid)]
        o = self.rules.options
        if o.kitty:
            if o.show_kitty:
                self.kitty_shown = True
                events.append(ev.KittyShown(tuple(cards_of(self.kitty))))
            self.hands[b] |= self.kitty
            events.append(ev.KittyTaken(b))
            self.phase = DISCARD
            self.turn = b
            return events
        return events + self._begin_play()

    def _all_passed(self) -> list[Any]:
        if self.rules.options.all_pass == "minus_round":
            self.minus_round = True
            self.phase = PLAY
            self.turn = (self.dealer + 1) % self.n
            return [ev.AllPassed("minus_round")]
        return [ev.AllPassed("redeal"), *self._void("all_passed")]

    def _void(self, reason: str) -> list[Any]:
        self.phase = OVER
        self.turn = None
        self.outcome = "void"
        self.void_reason = reason
        self.points = (0,) * self.n
        return [ev.DealVoid(reason)]

    def _discard(self, seat: int, cards: int) -> list[Any]:
        self.hands[seat] &= ~cards
        self.discards = cards
        return [ev.Discarded(seat, cards.bit_count()), *self._begin_play()]

    def _begin_play(self) -> list[Any]:
        b = self.bidder
        assert b is not None
        if self.amerikaner:
            self.phase = PLAY
            self.turn = b
            return [ev.ContractSet(b, None, None, False)]
        self.phase = LEAD
        self.turn = b
        if not self.legal_actions():
            return self._void("no_callable")
        return []

    def _lead(self, seat: int, action: Lead) -> list[Any]:
        card = action.card
        self.grand = action.grand
        self.trump = None if action.grand else card // 13
        self.called = action.call
        if action.call is not None:
            self.partner = next(s for s in range(self.n) if self.hands[s] >> action.call & 1)
            self.forced = 1 << action.call
        self.phase = PLAY
        events: list[Any] = [ev.ContractSet(seat, self.trump, action.call, action.grand)]
        return events + self._play(seat, card)

    def _play(self, seat: int, card: int) -> list[Any]:
        self.hands[seat] ^= 1 << card
        cards = self.trick_cards
        self.trick_seats.append(seat)
        cards.append(card)
        if card == self.called:
            self.partner_revealed = True
            events: list[Any] = [ev.CardPlayed(seat, card), ev.PartnerRevealed(seat, card)]
        else:
            events = [ev.CardPlayed(seat, card)]
        if len(cards) < self.n:
            self.turn = (seat + 1) % self.n
            return events
        return self._trick_done(events)

    def _trick_done(self, events: list[Any]) -> list[Any]:
        cards = self.trick_cards
        winner = self.trick_seats[trick_winner(cards, self.trump, self.led_two_wins)]
        done = (self.trick_seats[0], tuple(cards), winner)
        self.tricks.append(done)
        self.last_trick = done
        self.tricks_won[winner] += 1
        self.tricks_played += 1
        self.forced = 0
        self.trick_seats = []
        self.trick_cards = []
        events.append(ev.TrickWon(winner, done[1]))
        if self.tricks_played < self.hand_size:
            self.turn = winner
            return events
        self.phase = OVER
        self.turn = None
        self.outcome = "minus_round" if self.minus_round else "played"
        self.points, self.made = score_deal(self)
        events.append(ev.DealScored(self.points, self.made))
        return events

    # -- precise errors --------------------------------------------------------------

    def _bid_error(self, action: Action) -> ActionError:
        if not isinstance(action, Bid):
            return WrongPhase("the auction is on: bid or pass")
        value = action.value
        shape = self.rules.shape
        if value == "amerikaner":
            return IllegalBid("Amerikaner is not allowed by these rules")
        assert isinstance(value, int)
        if value <= self.high:
            return IllegalBid(f"bid more than {self.high}, or pass")
        if value < shape.min_bid:
            return IllegalBid(f"the lowest bid is {shape.min_bid}")
        return IllegalBid(f"the highest bid is {shape.max_bid}")

    def _play_error(self, seat: int, action: Action) -> ActionError:
        if isinstance(action, Lead):
            return IllegalPlay("a call goes only with the bidder's first lead")
        if not isinstance(action, Play):
            return WrongPhase("play a card")
        card = action.card
        hand = self.hands[seat]
        if not hand >> card & 1:
            return IllegalPlay(f"the {card_name(card)} is not in your hand")
        if self.called is not None and self.tricks_played == 0 and hand >> self.called & 1:
            return IllegalPlay(f"you hold the called card: play the {card_name(self.called)}")
        led = self.trick_cards[0]
        suit = led // 13
        if card >= JOKER1:
            return IllegalPlay(f"you can follow {suit_name(suit)}: a joker may only be "
                               "played when you cannot follow suit")
        if hand & SUIT_MASKS[suit]:
            return IllegalPlay(f"you must follow {suit_name(suit)}")
        return IllegalPlay("that card cannot be played now")

    def copy(self) -> DealState:
        other = DealState.__new__(DealState)
        for name in DealState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            setattr(other, name, value)
        return other
