"""A hand's cards as they stand among the cards still in play, suit by suit (13-bit
masks, one per suit at ``13 * suit``): what the exact endgame (solver.py) and the
search's candidates (candidates.py) see of them.

- ``representatives``: one card per group of equivalent cards (within a suit, cards with
  no card still present between them win and lose the same tricks), so that a search
  tries each group once.
- ``relative_ranks``: a hand's cards of a suit as positions among the suit's cards still
  present, so that positions differing only in which low cards are gone look the same
  (the solver's transposition-table key).
- ``rank_asc`` and ``rank_desc``: sort keys by card index (move ordering).

The per-suit answers are remembered in module dicts keyed by ``(mine, rest)``: a few
thousand entries, filled as positions come.
"""

from __future__ import annotations

from app.rules.cards import JOKERS_MASK

FULL_SUIT = (1 << 13) - 1  # every rank of one suit

# Sort keys by card index: the rank, jokers last (ascending) or first (descending).
_RANK_ASC = (*(c % 13 for c in range(52)), 20, 20)
_RANK_DESC = tuple(-r for r in _RANK_ASC)
rank_asc = _RANK_ASC.__getitem__
rank_desc = _RANK_DESC.__getitem__


# _SUIT_REPS[mine << 13 | rest]: the ranks (lowest first) that stand for the groups of
# equivalent cards of ``mine`` among ``rest``, the cards of one suit still present; filled
# as positions come (a few thousand entries).
_SUIT_REPS: dict[int, tuple[int, ...]] = {}


_RELATIVE: dict[int, int] = {}


def relative_ranks(mine: int, rest: int) -> int:
    """``mine`` (a subset of ``rest``, 13-bit suit masks) as positions within ``rest``."""
    key = mine << 13 | rest
    out = _RELATIVE.get(key)
    if out is None:
        out = 0
        i = 0
        bits = rest
        while bits:
            low = bits & -bits
            if mine & low:
                out |= 1 << i
            i += 1
            bits ^= low
        _RELATIVE[key] = out
    return out


def suit_reps(mine: int, rest: int, two_alone: bool) -> tuple[int, ...]:
    """The ranks (lowest first) standing for the groups of equivalent cards of ``mine``
    among ``rest`` (13-bit masks of one suit); ``two_alone``: a two in ``mine`` stands
    alone (it wins when led)."""
    key = mine << 13 | rest
    reps = _SUIT_REPS.get(key)
    if reps is None:
        out: list[int] = []
        run = False
        bits = rest
        while bits:
            top = bits.bit_length() - 1
            bits ^= 1 << top
            if mine >> top & 1:
                if not run:
                    out.append(top)
                run = True
            else:
                run = False
        out.reverse()
        reps = _SUIT_REPS[key] = tuple(out)
    if two_alone and mine & 1 and reps[0] != 0:
        return (0, *reps)
    return reps


def representatives(options: int, present: int, twos: int) -> list[int]:
    """One card per group of equivalent cards among ``options``: within a suit, cards
    with no card between them still present elsewhere; the two jokers; a two that wins
    when led (``twos``) always stands alone."""
    out: list[int] = []
    for base in (0, 13, 26, 39):
        mine = options >> base & FULL_SUIT
        if mine:
            out += [base + r for r in suit_reps(mine, present >> base & FULL_SUIT, bool(twos))]
    jokers = options & JOKERS_MASK
    if jokers:
        out.append(jokers.bit_length() - 1)
    return out
