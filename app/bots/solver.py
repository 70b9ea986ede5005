"""The exact endgame: alpha-beta over bit-mask hands with every card known (double dummy).

``Endgame(...).value(hands, leader, trick)`` is the number of tricks the ``counted`` seats
take from this moment to the end of the deal when the ``maxers`` seats play to make it as
high as possible and every other seat plays to make it as low as possible.  Normally both
masks are one side (the bidder's side maximises its tricks; the defenders minimise them);
a minus round counts one seat's tricks and lets everyone else push them up (the
"paranoid" reading of a game where each plays for itself).

The speed comes from: cards that are equivalent in one hand (touching once the cards
between them have gone: equivalent_cards.py) tried once, a transposition table at trick
boundaries that keeps bounds, a cheap move order (winners first when following, high
cards first when leading), the trivial bounds of the tricks left and the last trick's
winner read off directly.
The rules are docs/spec/RULES.md section 8: follow the led suit when you can, a led joker lets
anything follow and wins, a led two wins under ``led_two_wins`` (its suit is still
followed), the called card's holder must play it in trick one (``forced``).
"""

from __future__ import annotations

from collections.abc import Callable

from app.rules.cards import JOKER1, SUIT_MASKS, TWOS_MASK, cards_of
from app.rules.tricks import LEADER_WINS, NO_TRUMP, STRENGTHS

from .equivalent_cards import (
    FULL_SUIT,
    rank_asc,
    rank_desc,
    relative_ranks,
    representatives,
    suit_reps,
)

# Up to this many tricks left and with no guess, one full-window search beats MTD(f)'s
# zero-window passes (benchmarks/solver.py: 4 tricks 372 -> 224 µs, 7 tricks 17.3 -> 14.5
# ms a solve, with the last trick's shortcut); a whole deal's double dummy keeps MTD(f).
FULL_WINDOW = 8
RELATIVE_FROM = 7  # tricks left from which the table keys cards by relative rank
_SUIT_BASE = tuple(13 * (c // 13) for c in range(52))  # card -> the first card of its suit


class SolveTimeout(Exception):
    """The solver's ``stop`` said stop before it had an answer."""


class Endgame:
    """One solver per deal position family: the rules and the objective are fixed, the
    transposition table is shared across every ``value`` call on the same deal."""

    __slots__ = ("counted", "forced", "l2w", "maxers", "n", "nodes", "stop", "strengths",
                 "suit_base", "table", "twos")

    def __init__(self, players: int, trump: int | None, led_two_wins: bool,
                 counted: int, maxers: int, forced: int = 0) -> None:
        self.n = players
        self.strengths = STRENGTHS[NO_TRUMP if trump is None else trump]
        self.l2w = led_two_wins
        self.twos = TWOS_MASK if led_two_wins else 0
        self.suit_base = _SUIT_BASE
        self.counted = counted
        self.maxers = maxers
        self.forced = forced  # the called card's bit while trick one is in play
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0
        # Asked every 1024 nodes: ``True`` ends the solve (``value`` raises SolveTimeout).
        # None: never asked (the endgames of the bots' searches are small enough not to
        # need it; a review's double dummy counts its budget with it, review.py).
        self.stop: Callable[[], bool] | None = None

    # -- the public question -------------------------------------------------------

    def value(self, hands: list[int], leader: int, trick: list[int],
              guess: int | None = None) -> int:
        """Tricks the counted seats take from here on (the trick in progress included);
        ``trick`` holds the cards already played to it, ``leader`` led it.  ``guess`` (a
        likely value) only changes how fast the answer comes."""
        hands = list(hands)
        left = max(hands).bit_count() + (1 if trick else 0)
        trick = list(trick)
        if trick and len(trick) == self.n:  # a complete trick is not a position
            raise ValueError("the trick is complete")
        return self._mtd(self._searcher(hands, leader, trick), left, guess)

    def values(self, hands: list[int], leader: int, trick: list[int]) -> dict[int, int]:
        """The value after each legal card of the seat to play (each card, not only one
        per equivalent group): what an exact player compares."""
        seat = (leader + len(trick)) % self.n
        out: dict[int, int] = {}
        left = max(hands).bit_count() + (1 if trick else 0)
        guess: int | None = None
        for card in cards_of(self._legal(hands[seat], trick)):
            rest = list(hands)
            rest[seat] ^= 1 << card
            after = [*trick, card]
            guess = out[card] = self._mtd(self._searcher(rest, leader, after), left, guess)
        return out

    def _searcher(self, hands: list[int], leader: int,
                  trick: list[int]) -> Callable[[int, int], int]:
        return lambda alpha, beta: self._position(hands, leader, trick, alpha, beta)

    def _mtd(self, search: Callable[[int, int], int], left: int, guess: int | None) -> int:
        """MTD(f): zero-window searches around a guess until the bounds meet (each one
        cheap thanks to the bounds the table keeps); a small endgame with no guess in one
        full-window search."""
        if guess is None and left <= FULL_WINDOW:
            return search(-1, left + 1)
        lo, hi = 0, left
        g = (left + 1) // 2 if guess is None else min(max(guess, 0), left)
        while lo < hi:
            beta = max(g, lo + 1)
            g = search(beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return lo

    def _position(self, hands: list[int], leader: int, trick: list[int], alpha: int,
                  beta: int) -> int:
        """The value of any position: a trick begun, just completed, or not begun."""
        if not trick:
            return self._trick(hands, leader, alpha, beta, max(hands).bit_count())
        if len(trick) < self.n:
            return self._continue(hands, leader, trick, alpha, beta)
        winner = (leader + self._winner_index(trick)) % self.n
        won = self.counted >> winner & 1
        left = max(hands).bit_count()
        if not left:
            return won
        saved, self.forced = self.forced, 0
        try:
            return won + self._trick(hands, winner, alpha - won, beta - won, left)
        finally:
            self.forced = saved

    # -- search --------------------------------------------------------------------

    def _continue(self, hands: list[int], leader: int, trick: list[int], alpha: int,
                  beta: int) -> int:
        """Finish the trick in progress, then the rest of the deal."""
        led = trick[0]
        n = self.n
        if led >= JOKER1 or (self.l2w and led % 13 == 0):
            # The leader wins; after a joker anything may follow, after a two its suit.
            best, best_pos = LEADER_WINS, 0
            suit_mask = 0 if led >= JOKER1 else SUIT_MASKS[led // 13]
            strength = self.strengths[0]
        else:
            strength = self.strengths[led // 13]
            suit_mask = SUIT_MASKS[led // 13]
            best, best_pos = -1, 0
            for i, c in enumerate(trick):
                if strength[c] > best:
                    best, best_pos = strength[c], i
        best_seat = (leader + best_pos) % n
        present = self._present(hands, trick)
        return self._follow(hands, leader, (leader + len(trick)) % n, len(trick), suit_mask,
                            strength, best, best_seat, present, alpha, beta)

    def _trick(self, hands: list[int], leader: int, alpha: int, beta: int, left: int) -> int:
        """The value of the rest of the deal with ``leader`` to lead, ``left`` tricks."""
        self.nodes += 1
        if self.stop is not None and not self.nodes & 1023 and self.stop():
            raise SolveTimeout
        if left == 0:
            return 0
        if left == 1:
            return self._last_trick(hands, leader)
        # Relative keys cost more than they save in small endgames (measured).
        key = self._key(hands, leader) if left >= RELATIVE_FROM else (*hands, leader)
        hit = self.table.get(key)
        lo, hi = (0, left) if hit is None else hit
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a, b = max(alpha, lo), min(beta, hi)
        n = self.n
        hand = hands[leader]
        present = self._present(hands, ())
        is_max = self.maxers >> leader & 1
        best_value = -1 if is_max else left + 1
        strengths = self.strengths
        for card in self._ordered_leads(hand, present):
            hands[leader] = hand ^ (1 << card)
            if card >= JOKER1 or (self.l2w and card % 13 == 0):
                # It wins whatever follows; a led two's suit must still be followed.
                v = self._follow(hands, leader, (leader + 1) % n, 1,
                                 0 if card >= JOKER1 else SUIT_MASKS[card // 13],
                                 strengths[0], LEADER_WINS, leader, present, a, b)
            else:
                strength = strengths[card // 13]
                v = self._follow(hands, leader, (leader + 1) % n, 1, SUIT_MASKS[card // 13],
                                 strength, strength[card], leader, present, a, b)
            hands[leader] = hand
            best_value, a, b = _take(is_max, v, best_value, a, b)
            if a >= b:
                break
        if best_value <= max(alpha, lo):
            hi = best_value  # failed low: an upper bound
        elif best_value >= min(beta, hi):
            lo = best_value  # failed high: a lower bound
        else:
            lo = hi = best_value
        self.table[key] = (lo, hi)
        return best_value

    def _last_trick(self, hands: list[int], leader: int) -> int:
        """The last trick, where every seat has one card and no choice: its winner
        straight away, with no table and no search (half the solver's nodes are here;
        benchmarks/solver.py)."""
        led = hands[leader].bit_length() - 1
        if led >= JOKER1 or (self.l2w and led % 13 == 0):
            return self.counted >> leader & 1
        strength = self.strengths[led // 13]
        n = self.n
        best, winner = strength[led], leader
        for i in range(1, n):
            seat = (leader + i) % n
            s = strength[hands[seat].bit_length() - 1]
            if s > best:
                best, winner = s, seat
        return self.counted >> winner & 1

    def _follow(self, hands: list[int], leader: int, seat: int, pos: int, suit_mask: int,
                strength: tuple[int, ...], best: int, best_seat: int, present: int,
                alpha: int, beta: int) -> int:
        """Seat ``seat`` plays card number ``pos`` of the trick."""
        hand = hands[seat]
        follow = hand & suit_mask
        if follow:
            forced = self.forced & follow
            options = forced or follow
        else:
            options = hand
        n = self.n
        last = pos == n - 1
        is_max = self.maxers >> seat & 1
        left_after = (hand.bit_count() - 1)
        counted = self.counted
        best_value = -1 if is_max else left_after + 2
        a, b = alpha, beta
        if follow:
            base = self.suit_base[(follow & -follow).bit_length() - 1]
            cards = [base + r for r in suit_reps(options >> base & FULL_SUIT,
                                                  present >> base & FULL_SUIT, self.l2w)]
            order = [c for c in cards if strength[c] > best]
            if order:
                order += [c for c in cards if strength[c] <= best]
            else:
                order = cards
        else:
            order = self._ordered_follows(options, present, strength, best)
        for card in order:
            hands[seat] = hand ^ (1 << card)
            s = strength[card]
            if s > best:
                nb, ns = s, seat
            else:
                nb, ns = best, best_seat
            if last:
                won = counted >> ns & 1
                if left_after:
                    saved, self.forced = self.forced, 0
                    v = won + self._trick(hands, ns, a - won, b - won, left_after)
                    self.forced = saved
                else:
                    v = won
            else:
                v = self._follow(hands, leader, (seat + 1) % n, pos + 1, suit_mask, strength,
                                 nb, ns, present, a, b)
            best_value, a, b = _take(is_max, v, best_value, a, b)
            if a >= b:
                break
        hands[seat] = hand
        return best_value

    def _key(self, hands: list[int], leader: int) -> tuple[int, ...]:
        """The table's key: each hand's cards by their rank among the cards still in
        play, suit by suit, so that positions differing only in which low cards are gone
        share an entry (not under ``led_two_wins``, where the two itself matters)."""
        if self.l2w:
            return (*hands, leader, -1)
        present = 0
        for h in hands:
            present |= h
        key = [leader, present >> 52]
        for base in (0, 13, 26, 39):
            rest = present >> base & FULL_SUIT
            if rest:
                key.append(rest.bit_count())
                for h in hands:
                    key.append(relative_ranks(h >> base & FULL_SUIT, rest))
            else:
                key.append(0)
        for h in hands:
            key.append(h >> 52)
        return tuple(key)

    # -- moves ---------------------------------------------------------------------

    def _present(self, hands: list[int], trick: list[int] | tuple[int, ...]) -> int:
        """Cards still in a hand or on the table: the rest cannot split equivalences."""
        mask = 0
        for h in hands:
            mask |= h
        for c in trick:
            mask |= 1 << c
        return mask

    def _ordered_leads(self, hand: int, present: int) -> list[int]:
        reps = representatives(hand, present, self.twos)
        reps.sort(key=rank_desc)
        return reps

    def _ordered_follows(self, options: int, present: int, strength: tuple[int, ...],
                         best: int) -> list[int]:
        reps = representatives(options, present, self.twos)
        winners = [c for c in reps if strength[c] > best]
        if not winners:
            reps.sort(key=rank_asc)
            return reps
        winners.sort(key=strength.__getitem__)
        losers = [c for c in reps if strength[c] <= best]
        losers.sort(key=rank_asc)
        return winners + losers

    def _legal(self, hand: int, trick: list[int]) -> int:
        if not trick:
            return hand
        led = trick[0]
        if led >= JOKER1:
            return hand
        follow = hand & SUIT_MASKS[led // 13]
        if not follow:
            return hand
        return (self.forced & follow) or follow

    def _winner_index(self, trick: list[int]) -> int:
        led = trick[0]
        if led >= JOKER1 or (self.l2w and led % 13 == 0):
            return 0
        strength = self.strengths[led // 13]
        ranks = [strength[c] for c in trick]
        return ranks.index(max(ranks))


def _take(is_max: int, v: int, best: int, alpha: int, beta: int) -> tuple[int, int, int]:
    """One move's value ``v`` taken into a node's search: the node's best value and its
    window after it (the leading and the following seats' loops alike).  The caller stops
    trying moves once alpha >= beta.

    A call a move costs the bots' solves nothing measurable (benchmarks/solver.py,
    2026-12-05, three runs alternating with the step written out in both loops: 5 tricks
    left 881-959 vs 881-911 µs a solve; benchmarks/bots.py: strong 11.9 vs 12.0 ms of CPU
    a decision) and some 5 % on 7 tricks (``values``: 33.3-33.7 vs 35.0-36.1 ms), which
    only a review's double dummy solves."""
    if is_max:
        if v > best:
            best = v
            if v > alpha:
                alpha = v
    elif v < best:
        best = v
        if v < beta:
            beta = v
    return best, alpha, beta
