"""What one seat can work out from its ``SeatView`` during trick play: the cards it has
not seen yet, which seats showed out of which suit, who plays with whom, and the trick.

Everything is derived from public facts plus the seat's own hand (and, for the bidder, its
discards), so a bot built on it cannot cheat.  Cards are engine indices, sets are masks.
"""

from __future__ import annotations

from app.rules import SeatView
from app.rules.cards import JOKER1, SUIT_MASKS
from app.rules.tricks import trick_winner

# A seat's side in the current deal, as this seat knows it.
BIDDER_SIDE, DEFENDER_SIDE, UNKNOWN_SIDE = 1, 0, -1
NUMERIC, AMERIKANER, MINUS = "numeric", "amerikaner", "minus"


def above(card: int) -> int:
    """The cards of ``card``'s suit that rank above it (none for a joker)."""
    if card >= JOKER1:
        return 0
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def below(card: int) -> int:
    """The cards of ``card``'s suit that rank below it (none for a joker)."""
    if card >= JOKER1:
        return 0
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


class TableFacts:
    """One seat's deductions at one moment of trick play (built fresh per decision)."""

    __slots__ = (
        "bidder", "called", "contract", "hand", "led_two_wins", "mode", "n", "partner",
        "played", "seat", "trick_cards", "trick_seats", "tricks_won", "trump", "unseen",
        "voids",
    )

    def __init__(self, view: SeatView, public: PublicPlay | None = None) -> None:
        """``public``, when given, is what the completed tricks of ``view``'s deal showed
        (a rollout keeps it trick by trick rather than read every trick again)."""
        seat = view.seat
        assert seat is not None
        self.seat = seat
        self.n = view.players
        self.hand = view.hand
        self.trump = view.trump
        self.bidder = view.bidder
        self.partner = view.partner
        self.called = view.called
        self.contract = view.contract_bid
        self.led_two_wins = bool(view.rules.options.led_two_wins)
        self.tricks_won = view.tricks_won
        if view.minus_round:
            self.mode = MINUS
        elif self.contract == "amerikaner":
            self.mode = AMERIKANER
        else:
            self.mode = NUMERIC
        trick = view.trick
        self.trick_seats = [s for s, _ in trick]
        self.trick_cards = [c for _, c in trick]
        self.voids, self.played, self.unseen = seen_play(view, public, trick)

    # -- sides -----------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        """BIDDER_SIDE, DEFENDER_SIDE or UNKNOWN_SIDE (only for another seat in trick 1)."""
        if self.mode == MINUS:
            return BIDDER_SIDE if seat == self.seat else DEFENDER_SIDE
        if seat == self.bidder:
            return BIDDER_SIDE
        if self.mode == AMERIKANER or self.called is None:
            return DEFENDER_SIDE
        if self.partner is not None:
            return BIDDER_SIDE if seat == self.partner else DEFENDER_SIDE
        # The partner is still hidden: I am not the holder (the holder knows), so I defend.
        return DEFENDER_SIDE if seat == self.seat else UNKNOWN_SIDE

    @property
    def my_side(self) -> int:
        return self.side_of(self.seat)

    def is_ally(self, seat: int) -> bool:
        """Whether a trick won by ``seat`` is good for me (me included)."""
        if seat == self.seat:
            return True
        if self.mode == MINUS:
            return False
        other = self.side_of(seat)
        return other != UNKNOWN_SIDE and other == self.my_side

    def opponents_after_me(self) -> list[int]:
        """The seats still to play to the current trick that are not (known) allies."""
        return [s for s in self.seats_after_me() if not self.is_ally(s)]

    def seats_after_me(self) -> list[int]:
        n, first = self.n, self.trick_seats[0] if self.trick_seats else self.seat
        return [(first + i) % n for i in range(len(self.trick_seats) + 1, n)]

    # -- cards -----------------------------------------------------------------------

    def is_master(self, card: int) -> bool:
        """No card I have not seen ranks above ``card`` in its suit."""
        return not self.unseen & above(card)

    def may_hold_suit(self, seat: int, suit: int) -> bool:
        return not self.voids[seat] >> suit & 1

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` might trump a lead of ``suit`` (it showed out of it and may
        still hold a trump, or could be out of it without showing it yet)."""
        trump = self.trump
        if trump is None or suit == trump or not self.unseen & SUIT_MASKS[trump]:
            return False
        if self.voids[seat] >> trump & 1:
            return False
        return bool(self.voids[seat] >> suit & 1)

    def wins_now(self, card: int) -> bool:
        """Whether ``card`` would be winning the trick if I played it now."""
        cards = self.trick_cards
        return trick_winner([*cards, card], self.trump, self.led_two_wins) == len(cards)

    def winner_so_far(self) -> tuple[int, int]:
        """(seat, card) currently winning the trick in progress."""
        cards = self.trick_cards
        i = trick_winner(cards, self.trump, self.led_two_wins)
        return self.trick_seats[i], cards[i]

    def holds_against(self, card: int, seats: list[int]) -> bool:
        """Whether ``card``, winning the trick now, stays the winner whatever ``seats``
        (the players still to come) may play, as far as this seat can tell."""
        if not seats:
            return True
        cards = self.trick_cards
        led = cards[0] if cards else card
        if led >= JOKER1 or (self.led_two_wins and led % 13 == 0):
            return led == card
        trump = self.trump
        suit = card // 13
        if trump is not None and suit == trump:
            return not self.unseen & above(card) or all(
                self.voids[s] >> trump & 1 for s in seats)
        led_suit = led // 13
        if self.unseen & above(card) and any(self.may_hold_suit(s, led_suit) for s in seats):
            return False
        if trump is None or not self.unseen & SUIT_MASKS[trump]:
            return True
        if any(self.may_ruff(s, led_suit) for s in seats):
            return False
        # Fewer cards of the suit out than players to come: someone will show out.
        return (self.unseen & SUIT_MASKS[led_suit]).bit_count() >= len(seats)


def plays_in_order(view: SeatView) -> list[tuple[int, int]]:
    """Every card played so far in the deal, in order, with its seat."""
    n = view.players
    out = [((leader + i) % n, c) for leader, cards, _ in view.tricks
           for i, c in enumerate(cards)]
    return out + list(view.trick)


class PublicPlay:
    """What the completed tricks of one deal showed every seat: who showed out of which
    suit and the cards played.  A rollout (rollout.play_heuristic) notes each trick once
    as it ends, where ``seen_play`` would read every trick again at every card (a sixth
    of a rollout's time before)."""

    __slots__ = ("played", "tricks", "voids")

    def __init__(self, n: int) -> None:
        self.voids = [0] * n
        self.played = 0
        self.tricks = 0  # how many of the deal's tricks are noted

    def note(self, tricks: list[tuple[int, tuple[int, ...], int]]) -> None:
        """Note the tricks of ``tricks`` (the deal's, in order) not noted yet."""
        n = len(self.voids)
        for leader, cards, _ in tricks[self.tricks:]:
            self.played |= note_trick(self.voids, leader, cards, n)
        self.tricks = len(tricks)


def seen_play(view: SeatView, public: PublicPlay | None = None,
              trick: list[tuple[int, int]] | None = None) -> tuple[list[int], int, int]:
    """What a seat has seen of the play: who showed out of which suit (a mask of suits
    per seat), every card played (a mask) and the cards it has not seen (neither in its
    hand, played, its own discards nor a kitty it took).  ``TableFacts`` and the search's
    ``sampling.Knowledge`` both start from it, so they cannot disagree on it.  ``public``:
    the completed tricks of the view's deal, already noted (``PublicPlay``); ``trick``:
    the view's trick in progress, already read."""
    seat = view.seat
    assert seat is not None
    n = view.players
    if public is None:
        voids = [0] * n
        played = 0
        for leader, cards, _ in view.tricks:
            played |= note_trick(voids, leader, cards, n)
    else:
        voids = list(public.voids)
        played = public.played
    if trick is None:
        trick = view.trick
    if trick:
        played |= note_trick(voids, trick[0][0], [c for _, c in trick], n)
    known = view.hand | played | (view.discards or 0)
    if view.kitty is not None and seat == view.bidder:
        known |= view.kitty
    deck: int = view.rules.shape.deck
    return voids, played, deck & ~known


def note_trick(voids: list[int], leader: int, cards: list[int] | tuple[int, ...],
                n: int) -> int:
    """Record who showed out of the led suit; return the trick's cards as a mask."""
    mask = 0
    led = cards[0]
    led_suit = led // 13 if led < JOKER1 else -1
    for i, c in enumerate(cards):
        mask |= 1 << c
        if i and led_suit >= 0 and c // 13 != led_suit:
            voids[(leader + i) % n] |= 1 << led_suit
    return mask
