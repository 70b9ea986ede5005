"""A match: deals one after another, running totals, the dealer's rotation and the end.

``Match`` owns the only source of randomness in the engine, the shuffle, and takes it as
an argument: ``secrets.SystemRandom()`` by default (docs/spec/RULES.md 3.4), a seeded
``random.Random`` for tests and simulations.  Everything after the shuffle is deterministic.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Sequence
from functools import cache

from . import events as ev
from .actions import Action
from .deal import OVER, DealState
from .errors import MatchOver, Refusal, WrongPhase
from .outcomes import Outcome, VoidReason
from .phases import Phase
from .ruleset import RuleSet
from .scoring import match_winners

DEAL_OVER, MATCH_OVER = Phase.DEAL_OVER, Phase.MATCH_OVER


def deal_cards(rules: RuleSet, rng: random.Random) -> tuple[list[int], int]:
    """Shuffle the deck of these rules and deal it: hands (masks) and the kitty (a mask)."""
    deck = list(rules.shape.deck_bits)  # a card's bit: a hand is the sum of its slice
    draws, bottom, hands = _layout(len(deck), rules.shape.hand_size, rules.options.players)
    # A Fisher-Yates shuffle from the top, down to the last block (the kitty, or the last
    # hand), whose order does not matter.  Its choices are the mixed-radix digits of one
    # uniform draw below `draws`: no bias at all, and one call to the random source (one
    # read of the system's secure source in a room) instead of one per card.  The draw is
    # made by rejection, as random.randrange does, without its Python-level overhead.
    size = draws.bit_length()
    code = rng.getrandbits(size)
    while code >= draws:
        code = rng.getrandbits(size)
    for i in range(len(deck) - 1, bottom - 1, -1):
        code, j = divmod(code, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return list(map(sum, map(deck.__getitem__, hands))), sum(deck[:hands[0].start])


@cache
def _layout(size: int, hand: int, players: int) -> tuple[int, int, tuple[slice, ...]]:
    """How a deck of ``size`` is shuffled and dealt: the number of possible shuffles, the
    block left at the bottom, and each hand's slice (the kitty is dealt first, from the
    bottom)."""
    kitty = size - hand * players
    bottom = kitty or hand
    draws = math.factorial(size) // math.factorial(bottom)
    return draws, bottom, tuple(slice(kitty + s * hand, kitty + s * hand + hand)
                                for s in range(players))


class Match:
    """Deals, totals and the match's end.  ``apply`` goes to the current deal."""

    def __init__(self, rules: RuleSet, rng: random.Random | None = None,
                 first_dealer: int | None = None, auto_redeal: bool = True) -> None:
        self.rules = rules
        self.n = rules.options.players
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.dealer = first_dealer if first_dealer is not None else self.rng.randrange(self.n)
        self.auto_redeal = auto_redeal
        self.deals: list[DealState] = []
        self.totals = [0] * self.n
        self.scored: list[tuple[int, ...]] = []  # points of each scored deal, in order
        self.finished = False
        self.winners: tuple[int, ...] = ()

    def copy(self) -> Match:
        """A copy to read elsewhere (a bot's thread) while this one goes on: finished
        deals never change, so only the current deal is copied."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.deals = list(self.deals)
        if other.deals:
            other.deals[-1] = self.deals[-1].copy()
        other.totals = list(self.totals)
        other.scored = list(self.scored)
        return other

    @property
    def deal(self) -> DealState | None:
        return self.deals[-1] if self.deals else None

    @property
    def phase(self) -> Phase:
        if self.finished:
            return MATCH_OVER
        deal = self.deal
        if deal is None or deal.phase == OVER:
            return DEAL_OVER
        return deal.phase

    @property
    def turn(self) -> int | None:
        deal = self.deal
        return None if deal is None or self.finished else deal.turn

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """What ``seat`` (default: the seat to act) may do now."""
        if not self.deals:
            return ()
        deal = self.deals[-1]
        if deal.turn is None or (seat is not None and seat != deal.turn):
            return ()
        return deal.legal_actions()

    def start_deal(self, hands: list[int] | None = None, kitty: int = 0) -> list[ev.Event]:
        """Deal the next deal (shuffled, or these hands when replaying a record)."""
        if self.finished:
            raise MatchOver("the match is over")
        if self.deal is not None and self.deal.phase != OVER:
            raise WrongPhase("the current deal is not finished")
        if hands is None:
            hands, kitty = deal_cards(self.rules, self.rng)
        self.deals.append(DealState(self.rules, self.dealer, hands, kitty))
        return [ev.DealStarted(self.dealer, len(self.deals))]

    def apply(self, seat: int, action: Action) -> Sequence[ev.Event]:
        """Apply ``seat``'s action to the current deal; a finished deal updates the match."""
        deals = self.deals
        if not deals or deals[-1].turn is None:  # a finished match has no deal in play
            if self.finished:
                raise MatchOver("the match is over")
            raise WrongPhase("wait for the next deal", Refusal.NEXT_DEAL)
        deal = deals[-1]
        events = deal.apply(seat, action)
        if deal.turn is None:
            return [*events, *self._deal_ended(deal)]
        return events

    def _deal_ended(self, deal: DealState) -> list[ev.Event]:
        o = self.rules.options
        if deal.outcome == Outcome.VOID:
            if deal.void_reason == VoidReason.ALL_PASSED and o.all_pass == "redeal_next_dealer":
                self.dealer = (self.dealer + 1) % self.n
            return self.start_deal() if self.auto_redeal else []
        assert deal.points is not None
        self.scored.append(deal.points)
        for s, p in enumerate(deal.points):
            self.totals[s] += p
        self.dealer = (self.dealer + 1) % self.n
        limit = self.rules.deals_limit
        if limit is None:
            ended = max(self.totals) >= o.target
        else:
            ended = len(self.scored) >= limit
        if not ended:
            return []
        self.finished = True
        self.winners = match_winners(self.totals)
        return [ev.MatchEnded(self.winners, tuple(self.totals))]
