"""Reading the others' play by replaying it (app/bots/play_replay.py): in the true deal
``easy`` never plays otherwise than it did, in every shape of the rules; the count stops
where the caller said; and a sampler that weighs the play deals worlds in which the
others' play fits better than one that does not."""

from __future__ import annotations

import random

import pytest
from bot_helpers import decisions

from app.bots.play_replay import replay_counting
from app.bots.sampling import Knowledge
from app.bots.shapes import SHAPES, shape_rules
from app.rules import SeatView
from app.rules.phases import Phase


def differences(know: Knowledge, hands: list[int], pile: int, stop: int = 99) -> int:
    deal = know.before_play(hands, pile, random.Random(0))
    assert deal is not None
    _, count = replay_counting(deal, know.sequence, know.seat, know.called, know.grand,
                               random.Random(0), stop)
    return count


def true_pile(view: SeatView, deal_discards: int, kitty: int) -> int:
    """The hidden pile as the sampler deals it: the kitty in the auction, the bidder's
    discards after it, nothing for the bidder itself."""
    if not view.rules.options.kitty or view.seat == view.bidder:
        return 0
    return kitty if view.phase == Phase.AUCTION else deal_discards


@pytest.mark.parametrize("shape", list(SHAPES))
def test_easy_never_plays_otherwise_in_the_true_deal(shape: str) -> None:
    checked = 0
    for deal, _, view in decisions(shape_rules(shape, match="single_deal"),
                                   random.Random(shape), lambda seat, phase: "easy"):
        if deal.phase != Phase.PLAY or deal.tricks_played < 2:
            continue
        know = Knowledge(view, play_mismatch=0.2)
        hands = list(deal.hands)
        assert differences(know, hands, true_pile(view, deal.discards, deal.kitty)) == 0
        checked += 1
    assert checked > 50


def positions(count: int) -> list[Knowledge]:
    """Knowledge at trick play of standard deals played by ``easy``, from trick 4 on."""
    out: list[Knowledge] = []
    for deal, _, view in decisions(shape_rules("standard", match="single_deal"),
                                   random.Random(7), lambda seat, phase: "easy"):
        if deal.phase == Phase.PLAY and deal.tricks_played >= 4 and not deal.trick_cards:
            out.append(Knowledge(view, infer_play=True, play_mismatch=0.2))
        if len(out) >= count:
            break
    return out


def test_the_count_stops_where_the_caller_said() -> None:
    rng = random.Random(3)
    stopped = 0
    for know in positions(20):
        for _ in range(5):
            hands, pile = know.sample(rng)
            whole = differences(know, hands, pile)
            for stop in (1, 2, 3):
                deal = know.before_play(hands, pile, rng)
                assert deal is not None
                kept, count = replay_counting(deal, know.sequence, know.seat, know.called,
                                              know.grand, rng, stop)
                assert count == min(whole, stop)
                assert (kept is None) == (whole >= stop)
                stopped += whole >= stop
    assert stopped > 0


def test_weighing_the_play_deals_worlds_that_fit_it() -> None:
    """Over the same positions, worlds drawn with the play weighed differ from
    ``easy``'s play in fewer places than worlds drawn without."""
    rng = random.Random(11)
    weighed = plain = 0
    for know in positions(30):
        loose = Knowledge.__new__(Knowledge)
        for name in Knowledge.__slots__:
            setattr(loose, name, getattr(know, name))
        loose.play_mismatch = 1.0
        for _ in range(4):
            hands, pile = know.sample(rng)
            weighed += differences(know, hands, pile)
            hands, pile = loose.sample(rng)
            plain += differences(know, hands, pile)
    assert weighed < plain * 3 / 4, (weighed, plain)  # measured: 211 against 385
