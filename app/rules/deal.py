"""One deal: the auction, the kitty exchange, the first lead with its call, trick play and
the deal's score.

``DealState`` is a small mutable state machine in the OpenSpiel style: ``legal_actions()``
lists what the seat to act may do (the single source of truth), ``apply(seat, action)``
accepts exactly those, rejects anything else with a precise ``ActionError`` and returns
the events it caused.  It never consults a random source: the cards come in dealt.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from .actions import PLAYS, Action, Bid, Discard, DiscardAny, Lead, Play, lead
from .calling import discard_keeps_lead, lead_actions
from .cards import JOKER1, SUIT_MASKS, cards_of
from .deal_copy import OWN_LISTS, write_slot_copy
from .errors import IllegalDiscard, NotYourTurn, Refusal, Why, WrongPhase
from .events import CARD_PLAYED
from .explain import bid_error, lead_error_for, play_error
from .outcomes import AllPassedOutcome, Outcome, VoidReason
from .phases import Phase
from .ruleset import RuleSet
from .scoring import score_deal
from .tricks import (
    BITS,
    FORCED_PLAYS,
    LEADER_WINS,
    NO_TRUMP,
    STRENGTHS,
    SUIT_PLAYS,
    ForcedPlays,
    plays_of,
)

AUCTION, DISCARD, LEAD, PLAY, OVER = (Phase.AUCTION, Phase.DISCARD, Phase.LEAD, Phase.PLAY,
                                      Phase.OVER)
TrickWon = ev.TrickWon
# tuple.__new__(Event, fields) skips a NamedTuple's Python-level __new__: on the paths
# every deal takes, the fields are then written out in full, ``kind`` included.
_new_event = tuple.__new__
NEXT_SEAT = {n: (*range(1, n), 0) for n in range(3, 6)}  # NEXT_SEAT[n][seat]: who plays next
# The discard phase's legal list for each kitty size: one pattern, "any k cards".
DISCARD_ANY = {k: (DiscardAny(k),) for k in range(1, 7)}


class DealState:
    """Everything about one deal, including what only some seats may know (see view.py)."""

    __slots__ = (
        "_legal", "amerikaner", "best", "best_seat", "bidder", "called", "calls",
        "contract_bid", "dealer", "dealt", "discards", "forced", "grand", "hand_size",
        "hands", "high", "high_bidder", "kitty", "kitty_shown", "leader", "led_mask",
        "led_plays", "led_shift", "led_two_wins", "made", "minus_round", "n", "next_seat",
        "outcome", "partner", "partner_revealed", "passed", "phase", "play_turn", "points",
        "reveals", "rules", "strength", "trick_cards", "tricks", "tricks_played",
        "tricks_won", "trump", "trump_strengths", "turn", "void_reason",
    )

    def __init__(self, rules: RuleSet, dealer: int, hands: list[int], kitty: int) -> None:
        o = rules.options
        self.rules = rules
        self.n = n = o.players
        self.next_seat = NEXT_SEAT[n]
        self.dealer = dealer
        self.hand_size = rules.shape.hand_size
        self.led_two_wins = o.led_two_wins
        self.dealt: tuple[int, ...] = tuple(hands)
        self.hands: list[int] = list(hands)
        self.kitty = kitty
        self.kitty_shown = False
        self.discards = 0
        # Every action but the cards of trick play, which the tricks keep (see actions).
        self.calls: list[tuple[int, Action]] = []
        self.phase = AUCTION
        self.turn: int | None = dealer if o.first_bidder == "dealer" else (dealer + 1) % n
        self.play_turn = -1  # ``turn`` in trick play, -1 before and after: one test in apply
        self.passed = 0  # bit per seat that passed
        self.high = 0  # highest numeric bid so far (0: none)
        self.high_bidder: int | None = None
        self.amerikaner = False
        self.bidder: int | None = None
        self.contract_bid: int | str | None = None
        self.minus_round = False
        self.trump: int | None = None
        self.called: int | None = None
        self.reveals = -1  # the called card until it is played, then -1
        self.forced = 0  # the called card's bit while it must be played (trick one)
        # The led suit of the trick in progress: its mask (0 when leading or after a led
        # joker: then any card goes), its shift and its table of plays.
        self.led_mask = 0
        self.led_shift = 0
        self.led_plays: tuple[tuple[Play, ...], ...] | ForcedPlays = SUIT_PLAYS[0]
        # How each card ranks in the trick in progress, and the best card so far (seat).
        self.trump_strengths = STRENGTHS[NO_TRUMP]  # by led suit: set with the trump
        self.strength = STRENGTHS[NO_TRUMP][0]
        self.best = 0
        self.best_seat = 0
        self.partner: int | None = None
        self.partner_revealed = False
        self.grand = False
        self.leader = 0  # who led the trick in progress
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.tricks_played = 0
        self.tricks_won = [0] * n
        self.outcome: Outcome | None = None
        self.void_reason: VoidReason | None = None
        self.points: tuple[int, ...] | None = None
        self.made: bool | None = None
        self._legal: tuple[Action, ...] = rules.auction_legal[0]

    # -- questions -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def others_mask(self, seat: int) -> int:
        """The cards in every hand but ``seat``'s: the live cards for that seat's call."""
        return sum(self.hands) ^ self.hands[seat]  # hands never share a card

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """Every action of the deal so far, in order, as (seat, action): the move stack.

        Trick play records nothing beyond the tricks (it is the hot path of every
        simulation), so the cards are read back from them; the first lead is a call."""
        out = list(self.calls)
        n = self.n
        skip = 1 if out and type(out[-1][1]) is Lead else 0  # that card is the Lead itself
        for leader, cards, _ in [*self.tricks, (self.leader, self.trick_cards, None)]:
            out += [((leader + i) % n, PLAYS[card]) for i, card in enumerate(cards)][skip:]
            skip = 0
        return out

    @property
    def action_count(self) -> int:
        """``len(self.actions)``, without building the list."""
        played = self.tricks_played * self.n + len(self.trick_cards)
        if played and type(self.calls[-1][1]) is Lead:
            played -= 1
        return len(self.calls) + played

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat in ``turn`` may do now; ``()`` when nobody is to act.

        Kept up to date by every transition (``_legal``), so asking is free.
        """
        return self._legal

    def discard_allowed(self, cards: int) -> str:
        """"" when the bidder may discard exactly ``cards``; otherwise why not."""
        assert self.bidder is not None
        hand = self.hands[self.bidder]
        k = self.rules.options.kitty
        if cards & ~hand:
            return Why("you can only discard cards from your hand", Refusal.DISCARD_FROM_HAND)
        if cards.bit_count() != k:
            return Why(f"discard exactly {k} cards", Refusal.DISCARD_COUNT, n=k)
        if (self.rules.options.no_callable == "redeal" and not self.amerikaner
                and not discard_keeps_lead(hand, cards, self.others_mask(self.bidder))):
            return Why("keep at least one card of a suit another player holds: you must be "
                       "able to lead and call a partner", Refusal.DISCARD_KEEPS_LEAD)
        return ""

    # -- transitions -----------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> Sequence[ev.Event]:
        """Apply ``action`` by ``seat``; return the events, or raise and change nothing."""
        # The hot path of every simulation first, written out in place: a listed card in
        # trick play.  ``seat`` plays ``card``: it opens, follows or ends the trick.
        if seat == self.play_turn and action in self._legal:
            card: int = action[0]  # type: ignore[assignment]
            if card == self.reveals:  # an int, never None: the fast comparison
                self.partner_revealed = True
                self.reveals = -1
                events = self.apply(seat, action)  # now the plain card it also is
                return (events[0], ev.PartnerRevealed(seat, card), *events[1:])
            hands = self.hands
            hands[seat] ^= BITS[card]
            cards = self.trick_cards
            nxt = self.next_seat[seat]
            if cards:
                cards.append(card)
                # The trick's winner so far is kept as each card comes (section 8), so
                # that ending a trick costs nothing more.
                strength = self.strength[card]
                if strength > self.best:
                    self.best = strength
                    self.best_seat = seat
                if nxt == self.leader:
                    return self._trick_done(seat, card)
            else:
                cards.append(card)
                self._open_trick(seat, card)
            self.turn = self.play_turn = nxt
            # Section 8: follow the led suit if you can (the called card, if you hold it,
            # in trick one); otherwise, when leading, or after a led joker (``led_mask``
            # 0), any card.  A joker is in no suit's mask: playable only when not following.
            follow = hands[nxt] & self.led_mask
            if follow:
                self._legal = self.led_plays[follow >> self.led_shift]
            else:
                self._legal = plays_of(hands[nxt])
            return CARD_PLAYED[seat][card]
        # The discard phase lists a pattern (DiscardAny), not an action: always unlisted.
        if seat != self.turn or action not in self._legal or self.phase is DISCARD:
            return self._apply_unlisted(seat, action)
        self.calls.append((seat, action))
        if self.phase is AUCTION:
            return self._bid(seat, action)  # type: ignore[arg-type]
        return self._lead(seat, action)  # type: ignore[arg-type]

    def _apply_unlisted(self, seat: int, action: Action) -> Sequence[ev.Event]:
        """The actions ``legal_actions`` cannot list (a discard; a first lead alone written
        as a plain play), or the precise error for anything not allowed."""
        if self.turn is None:
            raise WrongPhase("the deal is over", Refusal.DEAL_OVER)
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not yours")
        phase = self.phase
        if phase is DISCARD:
            if isinstance(action, DiscardAny):
                raise IllegalDiscard(f"choose the {action.number} cards to discard",
                                     Refusal.DISCARD_COUNT, n=action.number)
            if not isinstance(action, Discard):
                raise WrongPhase(f"discard {self.rules.options.kitty} cards first",
                                 Refusal.DISCARD_FIRST, n=self.rules.options.kitty)
            why = self.discard_allowed(action.cards)
            if why:
                raise IllegalDiscard(why)
            self.calls.append((seat, action))
            return self._discard(seat, action.cards)
        if phase is LEAD and type(action) is Play:
            alone = lead(action.card, None, False)
            if alone in self._legal:
                return self.apply(seat, alone)
        if phase is AUCTION:
            raise bid_error(self, action)
        if phase is LEAD:
            raise lead_error_for(self, seat, action)
        raise play_error(self, seat, action)

    def _bid(self, seat: int, action: Bid) -> list[ev.Event]:
        n = self.n
        value = action.value
        events: list[ev.Event] = [_new_event(ev.BidMade, (seat, value, "bid"))]
        if type(value) is int:
            self.high = value
            self.high_bidder = seat
        elif value == "pass":
            self.passed |= 1 << seat
        else:  # Amerikaner ends the auction at once
            self.amerikaner = True
            self.high_bidder = seat
            return events + self._auction_won()
        passes = self.passed.bit_count()
        if self.high_bidder is not None and passes == n - 1:
            return events + self._auction_won()
        if passes == n:
            return events + self._all_passed()
        nxt = self.next_seat[seat]
        while self.passed >> nxt & 1:
            nxt = self.next_seat[nxt]
        self.turn = nxt
        self._legal = self.rules.auction_legal[self.high]
        return events

    def _auction_won(self) -> list[ev.Event]:
        b = self.high_bidder
        assert b is not None
        self.bidder = b
        self.contract_bid = "amerikaner" if self.amerikaner else self.high
        events: list[ev.Event] = [_new_event(ev.AuctionWon, (b, self.contract_bid, "auction_won"))]
        o = self.rules.options
        if o.kitty:
            if o.show_kitty:
                self.kitty_shown = True
                events.append(ev.KittyShown(tuple(cards_of(self.kitty))))
            self.hands[b] |= self.kitty
            events.append(_new_event(ev.KittyTaken, (b, "kitty_taken")))
            self.phase = DISCARD
            self.turn = b
            self._legal = DISCARD_ANY[o.kitty]
            return events
        return events + self._begin_play()

    def _all_passed(self) -> list[ev.Event]:
        if self.rules.options.all_pass == "minus_round":
            self.minus_round = True
            first = self.next_seat[self.dealer]
            self._start_play(first, plays_of(self.hands[first]))
            return [ev.AllPassed(AllPassedOutcome.MINUS_ROUND)]
        return [ev.AllPassed(AllPassedOutcome.REDEAL), *self._void(VoidReason.ALL_PASSED)]

    def _void(self, reason: VoidReason) -> list[ev.Event]:
        self.phase = OVER
        self.turn = None
        self._legal = ()
        self.outcome = Outcome.VOID
        self.void_reason = reason
        self.points = (0,) * self.n
        return [ev.DealVoid(reason)]

    def _discard(self, seat: int, cards: int) -> list[ev.Event]:
        self.hands[seat] &= ~cards
        self.discards = cards
        return [_new_event(ev.Discarded, (seat, cards.bit_count(), "discarded")),
                *self._begin_play()]

    def _begin_play(self) -> list[ev.Event]:
        b = self.bidder
        assert b is not None
        if self.amerikaner:
            self._start_play(b, plays_of(self.hands[b]))
            return [_new_event(ev.ContractSet, (b, None, None, False, "contract_set"))]
        self.turn = b
        self.phase = LEAD
        o = self.rules.options
        self._legal = tuple(lead_actions(self.hands[b], self.others_mask(b),
                                         o.no_callable == "play_alone", o.grand))
        if not self._legal:
            return self._void(VoidReason.NO_CALLABLE)
        return []

    def _lead(self, seat: int, action: Lead) -> Sequence[ev.Event]:
        card = action.card
        self.grand = action.grand
        self.trump = None if action.grand else card // 13
        self.trump_strengths = STRENGTHS[NO_TRUMP if self.trump is None else self.trump]
        self.called = action.call
        self.reveals = -1 if action.call is None else action.call
        if action.call is not None:
            self.partner = next(s for s in range(self.n) if self.hands[s] >> action.call & 1)
            self.forced = 1 << action.call
        self._start_play(seat, (PLAYS[card],))  # the lead's card is then played as any is
        return (_new_event(ev.ContractSet,
                           (seat, self.trump, action.call, action.grand, "contract_set")),
                *self.apply(seat, PLAYS[card]))

    def _start_play(self, seat: int, legal: tuple[Action, ...]) -> None:
        """Trick play begins: ``seat`` leads the first trick with one of ``legal``."""
        self.phase = PLAY
        self.turn = self.play_turn = seat
        self._legal = legal

    def _open_trick(self, seat: int, card: int) -> None:
        """The first card of a trick sets the suit to follow and how cards rank in it."""
        if card < JOKER1:
            suit = card // 13
            self.led_mask = SUIT_MASKS[suit]
            self.led_shift = 13 * suit
            if self.forced:  # trick one leads the called card's suit: its holder plays it
                self.led_plays = FORCED_PLAYS[self.forced.bit_length() - 1]
            else:
                self.led_plays = SUIT_PLAYS[suit]
            self.strength = self.trump_strengths[suit]
            two = self.led_two_wins and card % 13 == 0
            self.best = LEADER_WINS if two else self.strength[card]
        else:
            self.led_mask = 0  # after a led joker any card goes
            self.best = LEADER_WINS  # and the joker wins
        self.leader = self.best_seat = seat

    def _trick_done(self, seat: int, card: int) -> tuple[ev.Event, ...]:
        """``seat``'s ``card`` completed the trick: record it; the winner leads next, or the
        deal is scored."""
        winner = self.best_seat
        played = tuple(self.trick_cards)
        self.trick_cards = []
        self.tricks.append((self.leader, played, winner))
        self.tricks_won[winner] += 1
        self.tricks_played = done = self.tricks_played + 1
        self.forced = 0
        events = (CARD_PLAYED[seat][card][0], _new_event(TrickWon, (winner, played, "trick_won")))
        if done < self.hand_size:
            self.turn = self.play_turn = winner
            self._legal = plays_of(self.hands[winner])
            return events
        self.phase = OVER
        self.turn = None
        self.play_turn = -1
        self._legal = ()
        self.outcome = Outcome.MINUS_ROUND if self.minus_round else Outcome.PLAYED
        self.points, self.made = score_deal(self)
        return (*events, _new_event(ev.DealScored, (self.points, self.made, "deal_scored")))

    def copy(self) -> DealState:
        """A deal that goes on apart from this one (its own lists; the rest is shared:
        numbers, tuples and tables nothing changes)."""
        return _copy(self)


_copy = write_slot_copy(DealState, OWN_LISTS)
