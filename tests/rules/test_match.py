"""Matches (docs/spec/RULES.md sections 3.3 and 10): dealing, the dealer's rotation, redeals,
totals and the three ways a match ends."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import bids, current_deal, exact_match, replay_example, rules
from random_play import play_deal

from app.rules import Match, MatchOver, WrongPhase, deal_cards, events, parse_action
from app.rules.cards import cards_of


def run(m: Match, rng: random.Random, max_deals: int = 60) -> None:
    """Play random legal actions, starting each next deal, until the match ends."""
    if m.deal is None:
        m.start_deal()
    while not m.finished:
        assert len(m.deals) < max_deals, "the match does not end"
        play_deal(m, rng)
        if not m.finished:
            m.start_deal()


@pytest.mark.parametrize("preset", ["standard", "guide", "norsk", "fullstokk"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_cards(preset: str, players: int) -> None:
    rs = rules(preset=preset, players=players, jokers=players - 3)
    hands, kitty = deal_cards(rs, random.Random(players))
    assert len(hands) == players
    assert all(h.bit_count() == rs.shape.hand_size for h in hands)
    assert kitty.bit_count() == rs.options.kitty
    union = kitty
    for h in hands:
        assert not union & h
        union |= h
    assert union == rs.shape.deck and not union & rs.shape.removed


def test_the_shuffle_is_seeded_and_varies() -> None:
    rs = rules()
    assert deal_cards(rs, random.Random(1)) == deal_cards(rs, random.Random(1))
    assert deal_cards(rs, random.Random(1)) != deal_cards(rs, random.Random(2))


def test_the_shuffle_is_uniform_and_takes_a_secure_source() -> None:
    """Each card lands in each hand (and the kitty) equally often: a chi-square test on
    4,000 seeded deals (df 208; 300 is beyond the 0.01% tail), and the system's secure
    source deals as well as a seeded one."""
    rs = rules()
    rng = random.Random(3)
    deals = 4000
    counts = [[0] * 5 for _ in range(52)]
    for _ in range(deals):
        hands, kitty = deal_cards(rs, rng)
        for place, mask in enumerate([*hands, kitty]):
            for card in range(52):
                counts[card][place] += mask >> card & 1
    sizes = [12, 12, 12, 12, 4]
    chi2 = sum((counts[c][p] - deals * sizes[p] / 52) ** 2 / (deals * sizes[p] / 52)
               for c in range(52) for p in range(5))
    assert chi2 < 300, chi2
    hands, kitty = deal_cards(rs, secrets.SystemRandom())
    assert sum(hands) + kitty == rs.shape.deck


def test_first_dealer_is_drawn_or_given() -> None:
    seen = {Match(rules(players=5), rng=random.Random(s)).dealer for s in range(40)}
    assert seen == {0, 1, 2, 3, 4}
    assert Match(rules(), rng=random.Random(0), first_dealer=3).dealer == 3
    secure = Match(rules())  # no rng: the system's secure source
    secure.start_deal()
    assert secure.phase == "auction" and secure.dealer in range(4)


@pytest.mark.parametrize("all_pass", ["redeal_same_dealer", "minus_round"])
def test_the_dealer_passes_left_after_every_scored_deal(all_pass: str) -> None:
    m = Match(rules(all_pass=all_pass, match="deals:6"), rng=random.Random(4), first_dealer=2)
    run(m, random.Random(4))
    scored_dealers = [d.dealer for d in m.deals if d.outcome != "void"]
    assert scored_dealers == [2, 3, 0, 1, 2, 3]
    for before, after in zip(m.deals, m.deals[1:], strict=False):
        step = 0 if before.outcome == "void" else 1  # redeals keep the dealer
        assert after.dealer == (before.dealer + step) % 4


def test_redeal_next_dealer_passes_the_deal_on_all_pass() -> None:
    m = exact_match(rules(all_pass="redeal_next_dealer"), dealer=3)
    bids(m, "pass", "pass", "pass", "pass")
    assert current_deal(m).dealer == 0 and len(m.deals) == 2
    bids(m, "pass", "pass", "pass", "pass")
    assert current_deal(m).dealer == 1 and len(m.deals) == 3 and m.scored == []


def test_single_deal_redeals_do_not_count() -> None:
    m = exact_match(rules(match="single_deal"), dealer=1)
    bids(m, "pass", "pass", "pass", "pass")
    assert not m.finished and len(m.deals) == 2 and current_deal(m).dealer == 1
    play_deal(m, random.Random(3))
    assert m.finished and m.phase == "match_over" and len(m.scored) == 1
    assert m.totals == list(m.scored[0])
    best = max(m.totals)
    assert m.winners == tuple(s for s in range(4) if m.totals[s] == best)


@pytest.mark.parametrize("n", [1, 3])
def test_deals_n(n: int) -> None:
    m = Match(rules(match=f"deals:{n}", target=1), rng=random.Random(n), first_dealer=0)
    m.start_deal()
    for k in range(1, n + 1):
        play_deal(m, random.Random(k))
        assert len(m.scored) == k
        assert m.finished is (k == n)  # the target (1) does not end a deals:N match
        if not m.finished:
            m.start_deal()
    assert m.totals == [sum(p[s] for p in m.scored) for s in range(4)]


@pytest.mark.parametrize("seed", range(6))
def test_target_ends_after_the_first_deal_reaching_it(seed: int) -> None:
    m = Match(rules(target=6), rng=random.Random(seed))
    rng = random.Random(seed)
    m.start_deal()
    for _ in range(60):  # random play drifts downwards: a low target is reached early
        play_deal(m, rng)
        totals = [sum(p[s] for p in m.scored) for s in range(4)]
        assert m.totals == totals
        if max(totals) >= 6:
            break
        assert not m.finished
        m.start_deal()
    assert m.finished and m.phase == "match_over" and m.turn is None
    assert m.winners == tuple(s for s in range(4) if totals[s] == max(totals))


def test_equal_highest_totals_share_the_victory(examples_dir: Path) -> None:
    m = replay_example(examples_dir / "seed000-made-8.json")  # totals 3 7 7 1
    assert not m.finished  # target 52
    m2 = Match(m.rules.with_changes({"target": 7}), rng=random.Random(0), first_dealer=0)
    deal = m.deals[0]
    m2.start_deal(list(deal.dealt), deal.kitty)
    out: Sequence[object] = []
    for seat, action in deal.actions:
        out = m2.apply(seat, action)
    assert m2.finished and m2.winners == (1, 2)
    assert events.MatchEnded((1, 2), (3, 7, 7, 1)) in out


def test_a_shared_victory_from_random_play() -> None:
    for seed in range(200):
        m = Match(rules(match="single_deal"), rng=random.Random(seed))
        run(m, random.Random(seed))
        deal = m.deals[-1]
        if deal.made and deal.partner is not None and m.totals.count(max(m.totals)) == 2:
            assert deal.bidder is not None  # a made contract has a bidder
            assert m.winners == tuple(sorted((deal.bidder, deal.partner)))
            return
    raise AssertionError("no shared victory in 200 matches")


def test_nothing_happens_outside_a_running_deal() -> None:
    m = Match(rules(match="single_deal"), rng=random.Random(0), first_dealer=0)
    with pytest.raises(WrongPhase):
        m.apply(1, parse_action({"bid": 7}))  # no deal yet
    assert m.legal_actions() == () and m.phase == "deal_over"
    m.start_deal()
    with pytest.raises(WrongPhase):
        m.start_deal()  # the deal is not finished
    run(m, random.Random(0))
    assert m.finished and m.legal_actions() == () and m.turn is None
    with pytest.raises(MatchOver):
        m.start_deal()
    with pytest.raises(MatchOver):
        m.apply(1, parse_action({"play": "AS"}))


def test_between_deals_actions_wait_for_the_next_deal() -> None:
    m = Match(rules(match="deals:2"), rng=random.Random(5), first_dealer=0)
    m.start_deal()
    play_deal(m, random.Random(5))
    assert m.phase == "deal_over" and not m.finished and m.turn is None
    assert m.legal_actions() == () and all(m.legal_actions(s) == () for s in range(4))
    with pytest.raises(WrongPhase):
        m.apply(1, parse_action({"bid": "pass"}))
    out = m.start_deal()
    assert out == [events.DealStarted(1, len(m.deals))]
    assert m.phase == "auction"


def test_a_deal_given_as_hands_is_played_as_given() -> None:
    rs = rules(preset="norsk")
    hands, kitty = deal_cards(rs, random.Random(9))
    m = Match(rs, rng=random.Random(0), first_dealer=2)
    m.start_deal(hands, kitty)
    assert list(current_deal(m).dealt) == hands and current_deal(m).kitty == kitty == 0
    assert sorted(cards_of(sum(hands))) == sorted(cards_of(rs.shape.deck))
