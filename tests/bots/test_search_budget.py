"""A search level's budget counts CPU time, not wall time (issue 25): on a busy server,
where wall time runs faster than the searching thread's CPU time, a decision takes the
same number of samples as on a quiet one; the hard deadline still counts wall time.
Both clocks are fakes here that move by a fixed step at every reading, so the counts
are the same on every machine."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from bot_helpers import Ticking

from app.bots import BOTS
from app.bots import search as search_module
from app.bots.search import Clocks, SearchBot
from app.rules import Match, Phase, RuleSet, SeatView


def strong() -> SearchBot:
    bot = BOTS["strong"]
    assert isinstance(bot, SearchBot)
    return bot


@pytest.fixture
def clocks() -> Iterator[Clocks]:
    saved = search_module.CLOCKS
    search_module.CLOCKS = Clocks()
    yield search_module.CLOCKS
    search_module.CLOCKS = saved


def new_deal() -> Match:
    """A standard deal, dealt and not yet bid on (the same every time)."""
    match = Match(RuleSet("standard", match="single_deal"), rng=random.Random(7))
    match.start_deal()
    return match


def first_play_position() -> SeatView:
    """A trick-play decision with several legal cards (a search, not a forced move)."""
    match = new_deal()
    easy = BOTS["easy"]
    rng = random.Random(7)
    while True:
        seat = match.turn
        assert seat is not None
        view = SeatView(match, seat)
        if match.phase == Phase.PLAY and len(view.legal) > 2 and match.deal is not None \
                and match.deal.tricks_played >= 1:
            return view
        match.apply(seat, easy.choose(view, rng))


def taken(clocks: Clocks, bot: SearchBot, view: SeatView, wall_step: float = 0.0002) -> int:
    """The samples ``bot`` takes at ``view`` on clocks ticking at a fixed step."""
    clocks.cpu = Ticking(0.002)
    clocks.wall = Ticking(wall_step)
    return bot.estimate(view, random.Random(3)).samples


def samples_taken(clocks: Clocks, wall_step: float) -> int:
    return taken(clocks, strong(), first_play_position(), wall_step)


def test_a_busy_machine_gets_as_many_samples_as_a_quiet_one(clocks: Clocks) -> None:
    # The wall clock is read about ten times as often as the CPU clock (the hard stop
    # is checked inside each sample), so equal steps per reading of 0.0002 and 0.002 are
    # a quiet machine; 0.0006 has wall time run three times as fast as CPU time, far
    # from the hard cap still. A budget in wall time would stop at a third of the samples.
    quiet = samples_taken(clocks, wall_step=0.0002)
    busy = samples_taken(clocks, wall_step=0.0006)
    assert quiet > 10
    assert busy == quiet


def test_the_hard_deadline_still_counts_wall_time(clocks: Clocks) -> None:
    quiet = samples_taken(clocks, wall_step=0.0002)
    # wall time so fast that the hard cap (1 s) comes long before the CPU budget
    stalled = samples_taken(clocks, wall_step=0.2)
    assert stalled < quiet


def first_bid_position() -> SeatView:
    """The first auction decision of a deal (several bids and the pass are legal)."""
    match = new_deal()
    seat = match.turn
    assert seat is not None
    return SeatView(match, seat)


def test_the_contract_decisions_have_their_own_budget(clocks: Clocks) -> None:
    # contract_budget gives the bids, the kitty and the first lead (few decisions that
    # fix a deal, with many candidates) more CPU time; the trick play keeps ``budget``.
    base = strong().settings
    wider = SearchBot("wider", replace(base, samples=1000, contract_budget=2 * base.budget))
    plain = SearchBot("plain", replace(base, samples=1000, contract_budget=0.0))

    bid_plain = taken(clocks, plain, first_bid_position())
    assert bid_plain > 3
    assert taken(clocks, wider, first_bid_position()) > 1.5 * bid_plain
    play = first_play_position()
    assert taken(clocks, wider, play) == taken(clocks, plain, play)


def test_the_contract_decisions_have_their_own_cap_of_samples(clocks: Clocks) -> None:
    # contract_samples caps the bids, the kitty and the first lead on their own; the
    # trick play keeps ``samples``.  No CPU limit here, so only the caps stop a search.
    base = replace(strong().settings, budget=1e9, contract_budget=1e9, samples=6, settle=0)
    wider = SearchBot("wider", replace(base, contract_samples=15))
    plain = SearchBot("plain", base)

    assert taken(clocks, plain, first_bid_position()) == 6
    assert taken(clocks, wider, first_bid_position()) == 15
    play = first_play_position()
    assert taken(clocks, wider, play) == taken(clocks, plain, play) == 6
