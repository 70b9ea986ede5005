"""Reading the others' trick play by replaying it: would ``easy`` have played so here?

play_inference.py reads a few of ``easy``'s habits off the public play as rules (the
lowest card when not winning, ...).  This reads them all: in a sampled world the public
plays are replayed through the engine, and at each play of another seat ``easy``'s own
choice is asked from that seat's view of the sampled deal.  A world where it would have
played another card is less likely (``SearchSettings.play_mismatch`` per such play), as
a world is for a bid ``easy`` would not have made (sampling.Knowledge.weight).  Against
``easy`` the true world never differs (it plays by its view alone, with no chance in
trick play); people play otherwise more often, so each difference lowers a world's
weight rather than ruling it out.

The replay gives up as soon as the count can no longer matter to the caller (``stop``):
most sampled worlds differ somewhere, and the sampler needs the exact count only of the
worlds it might keep.  Without a judge, ``replay`` is how the sampler rebuilds every
sample's play (sampling.Knowledge.state).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.rules import PLAYS, DealState, Play, SeatView
from app.rules.actions import lead
from app.rules.phases import Phase

from .rollout import POLICY, shell
from .table_facts import PublicPlay

# Whether a seat's play of a card, at the point the replay has reached, is one to count.
Judge = Callable[[int, int], bool]


def replay(deal: DealState, sequence: list[tuple[int, int]], called: int | None,
           grand: bool, judge: Judge | None = None,
           stop: int = 1) -> tuple[DealState | None, int]:
    """Play ``sequence`` (every card played, with its seat, in order) on ``deal``, whose
    play has not begun, counting the plays ``judge`` picks out (none without one).
    Returns the deal and the count; the deal is ``None`` if the engine refuses a play,
    or once the count reaches ``stop`` (the count is then ``stop``)."""
    counted = 0
    try:
        for s, c in sequence:
            if deal.phase == Phase.LEAD:
                deal.apply(s, lead(c, called, grand))  # the bidder's call: not a habit
                continue
            if judge is not None and judge(s, c):
                counted += 1
                if counted >= stop:
                    return None, stop
            deal.apply(s, PLAYS[c])
    except ValueError:
        return None, counted
    return deal, counted


def easy_differs(deal: DealState, seat: int, rng: random.Random) -> Judge:
    """A ``Judge`` for a replay of ``deal``: would ``easy`` have played otherwise in that
    seat's place?  Never for ``seat``, whose own plays tell it nothing."""
    match = shell(deal)
    views: dict[int, SeatView] = {}
    public = PublicPlay(deal.n)

    def differs(s: int, card: int) -> bool:
        if s == seat:
            return False
        view = views.get(s)
        if view is None:
            view = views[s] = SeatView(match, s)
        if len(deal.tricks) != public.tricks:
            public.note(deal.tricks)
        choice = POLICY.choose_seen(view, rng, public)
        return not isinstance(choice, Play) or choice.card != card

    return differs


def replay_counting(deal: DealState, sequence: list[tuple[int, int]], seat: int,
                    called: int | None, grand: bool, rng: random.Random,
                    stop: int) -> tuple[DealState | None, int]:
    """``replay``, counting the plays of the seats other than ``seat`` that ``easy``
    would not have made there."""
    return replay(deal, sequence, called, grand, easy_differs(deal, seat, rng), stop)


__all__ = ["Judge", "easy_differs", "replay", "replay_counting"]
