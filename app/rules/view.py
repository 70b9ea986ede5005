"""What one seat (or a spectator) may know: the observer of the engine.

``SeatView(match, seat)`` answers questions about the match with only the facts that seat
may know (docs/spec/RULES.md and docs/spec/PROTOCOL.md): its own hand; the public auction,
plays and trick counts; the called card; the partner only once the called card is played (the holder
knows from its own hand); the kitty only when shown or when it is this bidder's; the
discards only for the bidder.  Bots read a ``SeatView``; ``to_wire()`` is the protocol's
``view`` object.  Nothing else in the engine builds a view, so nothing can leak around it.
"""

from __future__ import annotations

from typing import cast

from .actions import Action, Bid, BidValue, LegalActionJson
from .cards import CARD_IDS, SUITS, cards_of, ids_of, sort_key
from .deal import AUCTION, DISCARD, OVER, DealState
from .match import DEAL_OVER, MATCH_OVER, Match
from .outcomes import Outcome, VoidReason
from .phases import Phase
from .ruleset import RuleSet
from .wire import ContractWire, LastTrick, ResultWire, WireView


class SeatView:
    """A read-only window on ``match`` for ``seat`` (``None``: a spectator)."""

    __slots__ = ("_deal", "_match", "seat")

    def __init__(self, match: Match, seat: int | None) -> None:
        self._match = match
        self._deal: DealState | None = match.deals[-1] if match.deals else None
        self.seat = seat

    # -- public facts ----------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._match.n

    @property
    def rules(self) -> RuleSet:
        return self._match.rules

    @property
    def phase(self) -> Phase:
        return self._match.phase

    @property
    def turn(self) -> int | None:
        return self._match.turn

    @property
    def dealer(self) -> int | None:
        return self._deal.dealer if self._deal else None

    @property
    def hand_size(self) -> int:
        return self._match.rules.shape.hand_size

    @property
    def legal(self) -> tuple[Action, ...]:
        d, seat = self._deal, self.seat
        if d is not None and seat is not None and d.turn == seat:
            return d.legal_actions()
        return ()

    @property
    def hand(self) -> int:
        """This seat's cards as a mask (0 for a spectator)."""
        if self.seat is None or self._deal is None:
            return 0
        return self._deal.hands[self.seat]

    @property
    def hand_counts(self) -> list[int]:
        if self._deal is None:
            return [0] * self._match.n
        return [h.bit_count() for h in self._deal.hands]

    @property
    def auction(self) -> list[tuple[int, BidValue]]:
        d = self._deal
        if d is None:
            return []
        return [(s, a.value) for s, a in d.calls if isinstance(a, Bid)]  # bids are calls

    @property
    def bidder(self) -> int | None:
        return self._deal.bidder if self._deal else None

    @property
    def contract_bid(self) -> int | str | None:
        return self._deal.contract_bid if self._deal else None

    @property
    def trump(self) -> int | None:
        return self._deal.trump if self._deal else None

    @property
    def called(self) -> int | None:
        return self._deal.called if self._deal else None

    @property
    def grand(self) -> bool:
        return bool(self._deal and self._deal.grand)

    @property
    def minus_round(self) -> bool:
        return bool(self._deal and self._deal.minus_round)

    @property
    def partner(self) -> int | None:
        """The partner's seat once the called card is played (to the holder: from the call)."""
        d = self._deal
        if d is None or d.partner is None:
            return None
        if d.partner_revealed or d.partner == self.seat:
            return d.partner
        return None

    @property
    def trick(self) -> list[tuple[int, int]]:
        d = self._deal
        if d is None:
            return []
        n = self._match.n
        return [((d.leader + i) % n, card) for i, card in enumerate(d.trick_cards)]

    @property
    def tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """Completed tricks of this deal: (leader, cards in play order, winner)."""
        return list(self._deal.tricks) if self._deal else []

    @property
    def tricks_won(self) -> list[int]:
        return list(self._deal.tricks_won) if self._deal else [0] * self._match.n

    @property
    def played(self) -> int:
        """Mask of every card played so far in this deal (public)."""
        d = self._deal
        mask = 0
        if d is None:
            return mask
        for _, cards, _ in d.tricks:
            for c in cards:
                mask |= 1 << c
        for c in d.trick_cards:
            mask |= 1 << c
        return mask

    @property
    def kitty(self) -> int | None:
        """The kitty as dealt, when this seat may know it; ``None`` otherwise."""
        d = self._deal
        if d is None or not d.kitty:
            return None
        if d.kitty_shown:
            return d.kitty
        if self.seat is not None and self.seat == d.bidder and d.phase != AUCTION:
            return d.kitty
        return None

    @property
    def discards(self) -> int | None:
        d = self._deal
        if d is None or self.seat is None or self.seat != d.bidder or not d.discards:
            return None
        return d.discards

    @property
    def removed(self) -> int:
        return self._match.rules.shape.removed

    @property
    def scores(self) -> list[int]:
        return list(self._match.totals)

    def discard_allowed(self, cards: int) -> str:
        """For the bidder in the discard phase: "" when these cards may go, else why not."""
        d = self._deal
        if d is None or d.phase != DISCARD or self.seat != d.bidder:
            return "you have nothing to discard"
        return d.discard_allowed(cards)

    # -- the wire --------------------------------------------------------------------

    def to_wire(self, public: WireView | None = None,
                memo: WireMemo | None = None) -> WireView:
        """The protocol's ``view`` object (card ids, record-shaped ``legal``).

        ``public`` is a spectator's view of the same moment: most fields are the same for
        every seat, so a server that sends every seat its view builds those once and
        gives them here; only this seat's own fields are then built.  ``memo``, kept by
        the caller from one view of the match to the next, spares remaking what did not
        change (hands, finished tricks)."""
        seat = self.seat
        if seat is None:
            return public if public is not None else self._full_wire(memo)
        if public is None:
            return self._full_wire(memo)
        view = public.copy()
        d = self._deal
        trump = self.trump
        view["you"] = seat
        view["hand"] = (memo.hand if memo else _hand_wire)(self.hand, trump)
        view["legal"] = _legal_wire(self.legal)
        view["kitty"] = _ids(self.kitty)
        view["discards"] = _ids(self.discards)
        mine = d is not None and d.partner is not None and d.partner == seat
        view["you_are_partner"] = mine
        if mine and d is not None and not d.partner_revealed:
            view["contract"] = self._contract_wire()  # the holder knows from the call
        return view

    def _full_wire(self, memo: WireMemo | None = None) -> WireView:
        m, d, seat = self._match, self._deal, self.seat
        trump = self.trump
        tricks = (memo.tricks if memo else _tricks_wire)(d.tricks) if d else []
        view: WireView = {
            "phase": m.phase,
            "you": seat,
            "turn": self.turn,
            "hand": (memo.hand if memo else _hand_wire)(self.hand, trump),
            "legal": _legal_wire(self.legal),
            "contract": self._contract_wire(),
            "trick": [{"seat": s, "card": CARD_IDS[c]} for s, c in self.trick],
            "tricks_won": self.tricks_won,
            "scores": self.scores,
            "players": m.n,
            "dealer": self.dealer,
            "deal_number": len(m.scored) + (0 if m.phase in (DEAL_OVER, MATCH_OVER) else 1),
            "hand_size": self.hand_size,
            "hand_counts": self.hand_counts,
            "auction": [{"seat": s, "bid": b} for s, b in self.auction],
            "kitty": _ids(self.kitty),
            "kitty_size": m.rules.options.kitty,
            "discards": _ids(self.discards),
            "last_trick": tricks[-1] if tricks else None,
            "tricks": tricks,
            "tricks_played": d.tricks_played if d else 0,
            "minus_round": self.minus_round,
            "result": self._result_wire(),
            "score_sheet": [list(p) for p in m.scored],
            "winners": list(m.winners),
            "redeal": self._redeal_reason(),
            "you_are_partner": d is not None and d.partner is not None and d.partner == seat,
        }
        return view

    def _contract_wire(self) -> ContractWire | None:
        d = self._deal
        return None if d is None else contract_to_wire(d, self.partner)

    def _result_wire(self) -> ResultWire | None:
        d = self._deal
        if d is None or d.phase != OVER or d.outcome is None or d.outcome == Outcome.VOID:
            return None
        o = self._match.rules.options
        kitty_trick = bool(o.kitty_trick and o.kitty and d.bidder is not None
                           and d.contract_bid != "amerikaner")
        return {"outcome": d.outcome, "points": list(d.points or ()), "made": d.made,
                "tricks_won": list(d.tricks_won), "kitty_trick": kitty_trick}

    def _redeal_reason(self) -> VoidReason | None:
        deals = self._match.deals
        if len(deals) >= 2 and deals[-2].outcome == Outcome.VOID and deals[-1].phase != OVER:
            return deals[-2].void_reason
        return None


def contract_to_wire(deal: DealState, partner: int | None) -> ContractWire | None:
    """The contract from the end of the auction on (``None`` before); ``partner`` is given
    because who may know it differs: a seat's view hides it, a replay knows every hand."""
    if deal.bidder is None:
        return None
    return {
        "bidder": deal.bidder,
        "bid": deal.contract_bid,
        "trump": SUITS[deal.trump] if deal.trump is not None else None,
        "called": CARD_IDS[deal.called] if deal.called is not None else None,
        "partner": partner,
        "grand": deal.grand,
    }


def _ids(mask: int | None) -> list[str] | None:
    return None if mask is None else ids_of(mask)


def _hand_wire(hand: int, trump: int | None) -> list[str]:
    """A hand's card ids in display order (trumps first)."""
    return [CARD_IDS[c] for c in sorted(cards_of(hand), key=lambda c: sort_key(c, trump))]


def _tricks_wire(tricks: list[tuple[int, tuple[int, ...], int]]) -> list[LastTrick]:
    return [_trick_wire(t) for t in tricks]


def _trick_wire(trick: tuple[int, tuple[int, ...], int]) -> LastTrick:
    """A finished trick's wire form."""
    leader, cards, winner = trick
    n = len(cards)
    return {"cards": [{"seat": (leader + i) % n, "card": CARD_IDS[c]}
                      for i, c in enumerate(cards)], "winner": winner}


class WireMemo:
    """Wire forms kept by a caller that builds views of one match again and again (a
    server: one per room, a view per seat at every move): the hands and the finished
    tricks that did not change since the last view are not made again.  Bounded: it
    starts afresh when full.  What it returns is shared: callers serialise it, never
    change it."""

    __slots__ = ("_hands", "_tricks", "_tricks_of")
    LIMIT = 32  # a hand changes once a trick, and a deal has at most 17 tricks

    def __init__(self) -> None:
        self._hands: dict[tuple[int, int | None], list[str]] = {}
        # a deal's first finished trick (the engine only appends to a deal's tricks, and a
        # copy of the deal, as a room's step works on, shares them) and their wire form
        self._tricks_of: tuple[tuple[int, tuple[int, ...], int], list[LastTrick]] | None
        self._tricks_of = None

    def hand(self, hand: int, trump: int | None) -> list[str]:
        key = (hand, trump)
        wire = self._hands.get(key)
        if wire is None:
            if len(self._hands) >= self.LIMIT:
                self._hands.clear()
            wire = self._hands[key] = _hand_wire(hand, trump)
        return wire

    def tricks(self, tricks: list[tuple[int, tuple[int, ...], int]]) -> list[LastTrick]:
        """A deal's finished tricks on the wire: the last list made, when the deal has not
        finished a trick since; else that list with the new tricks added."""
        if not tricks:
            return []
        kept = self._tricks_of
        if kept is not None and kept[0] is tricks[0]:
            made = kept[1]
            if len(made) == len(tricks):
                return made
            if len(made) < len(tricks):
                wire = made + _tricks_wire(tricks[len(made):])
                self._tricks_of = (tricks[0], wire)
                return wire
        wire = _tricks_wire(tricks)
        self._tricks_of = (tricks[0], wire)
        return wire


def _legal_wire(legal: tuple[Action, ...]) -> list[LegalActionJson]:
    """The legal actions on the wire.  Each action's JSON is a ``LegalActionJson``: an
    ``ActionJson``, or the discard pattern's ``{"discard": K}``; the cast only says so,
    as mypy holds a TypedDict's keys invariant (``list[str]`` is not ``list[str] | int``)."""
    return cast("list[LegalActionJson]", [a.to_json() for a in legal])
