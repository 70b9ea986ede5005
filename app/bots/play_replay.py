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
worlds it might keep.
"""

from __future__ import annotations

import random

from app.rules import PLAYS, DealState, Play, SeatView
from app.rules.actions import lead
from app.rules.phases import Phase

from .rollout import POLICY, shell
from .table_facts import PublicPlay


def replay_counting(deal: DealState, sequence: list[tuple[int, int]], seat: int,
                    called: int | None, grand: bool, rng: random.Random,
                    stop: int) -> tuple[DealState | None, int]:
    """Play ``sequence`` (every card played, with its seat, in order) on ``deal``, whose
    play has not begun, and count the plays of the seats other than ``seat`` that
    ``easy`` would not have made there.  Returns the deal and the count; the deal is
    ``None`` if the engine refuses a play, or once the count reaches ``stop`` (the
    count is then ``stop``)."""
    match = shell(deal)
    views: dict[int, SeatView] = {}
    public = PublicPlay(deal.n)
    differ = 0
    try:
        for s, c in sequence:
            if deal.phase == Phase.LEAD:
                deal.apply(s, lead(c, called, grand))  # the bidder's call: not a habit
                continue
            if s != seat:
                view = views.get(s)
                if view is None:
                    view = views[s] = SeatView(match, s)
                if len(deal.tricks) != public.tricks:
                    public.note(deal.tricks)
                choice = POLICY.choose_seen(view, rng, public)
                if not isinstance(choice, Play) or choice.card != c:
                    differ += 1
                    if differ >= stop:
                        return None, stop
            deal.apply(s, PLAYS[c])
    except ValueError:
        return None, differ
    return deal, differ


__all__ = ["replay_counting"]
