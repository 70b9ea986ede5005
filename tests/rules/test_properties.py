"""Property tests: random legal playthroughs over every preset, 3/4/5 players and random
option combinations, checked at every step against the rules restated in rules_oracle.py."""

from __future__ import annotations

import random
from typing import Any

from example_budget import examples
from helpers import played_mask, points_of, whole_deck
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from option_tables import DECK_BOUND, PLAY_OPTIONS, RULE_OPTIONS
from random_play import deal_snapshot, random_action, snapshot
from rules_oracle import (
    expected_bids,
    expected_discard_ok,
    expected_leads,
    expected_plays,
    expected_points,
    expected_winner,
)
from view_checks import check_view

from app.rules import (
    PRESET_NAMES,
    ActionError,
    Match,
    NotYourTurn,
    RuleSet,
    RulesetError,
    SeatView,
)
from app.rules.actions import Action, Bid, Discard, DiscardAny, Lead, Play
from app.rules.cards import cards_of
from app.rules.deal import DealState
from app.rules.deal_copy import OWN_LISTS

# Every option but the table's size, the match's length and the bid range, drawn from
# tests/option_tables.py (the engine's own declaration): a new option is played here.
OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    name: st.sampled_from(values) for name, values in PLAY_OPTIONS.items()
    if name not in DECK_BOUND}
SETTINGS = settings(max_examples=examples(120), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
MAX_DEALS = 5  # deals started per example (redeals included), to bound the run time


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    data: dict[str, Any] = {"preset": draw(st.sampled_from(PRESET_NAMES)),
                            "players": draw(st.sampled_from(RULE_OPTIONS["players"]))}
    data.update(draw(st.fixed_dictionaries({}, optional=OPTIONS)))
    data["match"] = draw(st.sampled_from(["target", "single_deal", "deals:2", "deals:3"]))
    data["target"] = draw(st.integers(1, 10))
    try:
        rs = RuleSet.from_json(data)
    except RulesetError:
        assume(False)
        raise
    if draw(st.integers(0, 4)) == 0:  # an explicit bid range now and then
        top = rs.shape.side_tricks
        low = draw(st.integers(1, top))
        rs = rs.with_changes({"min_bid": low, "max_bid": draw(st.integers(low, top))})
    return rs


def new_match(rs: RuleSet, seed: int) -> tuple[Match, random.Random]:
    rng = random.Random(seed)
    m = Match(rs, rng=random.Random(seed), first_dealer=rng.randrange(rs.options.players))
    m.start_deal()
    return m, rng


def unlisted(m: Match, rng: random.Random, count: int) -> list[Action]:
    """Random actions of every kind that the rules do not allow now."""
    deal = m.deal
    assert deal is not None
    legal = set(m.legal_actions())
    out: list[Action] = []
    while len(out) < count:
        kind = rng.randrange(4)
        action: Action
        if kind == 0:
            action = Play(rng.randrange(54))
        elif kind == 1:
            action = Bid(rng.choice([-1, 0, 1, 2, 5, 7, 9, 12, 13, 14, 18, 20, "pass",
                                     "amerikaner"]))
        elif kind == 2:
            action = Lead(rng.randrange(54), rng.choice([None, rng.randrange(54)]),
                          rng.random() < 0.3)
        else:
            hand = cards_of(deal.hands[deal.turn]) if deal.turn is not None else []
            pool = hand + [rng.randrange(54) for _ in range(3)]
            action = Discard(sum(1 << c for c in set(rng.sample(pool, min(len(pool),
                                                                        rng.randrange(7))))))
        as_lead = Lead(action.card, None, False) if (
            deal.phase == "lead" and isinstance(action, Play)) else action
        if action in legal or as_lead in legal:
            continue
        if (isinstance(action, Discard) and deal.phase == "discard"
                and expected_discard_ok(deal, action.cards)):
            continue
        out.append(action)
    return out


def check_conservation(m: Match) -> None:
    """Hands + played + discards + kitty not taken + removed = the whole deck, each once."""
    deal = m.deal
    assert deal is not None
    parts = [*deal.hands, played_mask(deal), deal.discards, deal.rules.shape.removed]
    if deal.bidder is None:
        parts.append(deal.kitty)
    union = 0
    for part in parts:
        assert not union & part, "a card is in two places"
        union |= part
    assert union == whole_deck(deal.rules)
    assert sum(p.bit_count() for p in parts) == 52 + deal.rules.options.jokers


def check_legal_is_the_rules(m: Match) -> None:
    deal = m.deal
    assert deal is not None and deal.turn is not None
    legal = m.legal_actions()
    assert legal, "the seat to act has no legal action"
    assert all(m.legal_actions(s) == () for s in range(m.n) if s != deal.turn)
    if deal.phase == "auction":
        assert [a.value for a in legal] == expected_bids(deal)  # type: ignore[union-attr]
    elif deal.phase == "discard":
        assert legal == (DiscardAny(deal.rules.options.kitty),)
    elif deal.phase == "lead":
        assert all(isinstance(a, Lead) for a in legal)
        found = {(a.card, a.call, a.grand) for a in legal}  # type: ignore[union-attr]
        assert found == expected_leads(deal) and len(found) == len(legal)
    else:
        assert deal.phase == "play"
        assert all(isinstance(a, Play) for a in legal)
        assert sorted(a.card for a in legal) == cards_of(  # type: ignore[union-attr]
            expected_plays(deal, deal.turn))


def check_listed_apply_and_others_do_not(m: Match, rng: random.Random) -> None:
    deal = m.deal
    assert deal is not None and deal.turn is not None
    seat, before = deal.turn, snapshot(m)
    legal = m.legal_actions()
    tries: list[Action] = [a for a in legal if not isinstance(a, DiscardAny)]
    if deal.phase == "discard":
        hand = cards_of(deal.hands[seat])
        k = deal.rules.options.kitty
        samples = [Discard(sum(1 << c for c in rng.sample(hand, k))) for _ in range(6)]
        for sample in samples:  # accepted exactly when the rules allow it
            copy = deal.copy()
            try:
                copy.apply(seat, sample)
                accepted = True
            except ActionError:
                accepted = False
            assert accepted == expected_discard_ok(deal, sample.cards), sample
    for action in tries:
        deal.copy().apply(seat, action)  # raises if a listed action does not apply
    assert snapshot(m) == before, "applying to a copy changed the original"
    for action in unlisted(m, rng, 4):
        try:
            m.apply(seat, action)
        except ActionError:
            pass
        else:
            raise AssertionError(f"{action} was accepted in phase {deal.phase}")
        assert snapshot(m) == before, f"the refused {action} changed the state"
    other = (seat + 1 + rng.randrange(m.n - 1)) % m.n
    try:
        m.apply(other, tries[0] if tries else legal[0])
    except NotYourTurn:
        pass
    else:
        raise AssertionError("an action out of turn was accepted")
    assert snapshot(m) == before


def check_deal_end(m: Match, deal: Any) -> None:
    if deal.outcome == "void":
        assert deal.points == (0,) * m.n and deal.void_reason in ("all_passed", "no_callable")
        return
    assert deal.outcome == ("minus_round" if deal.bidder is None else "played")
    assert len(deal.tricks) == deal.rules.shape.hand_size
    assert all(h == 0 for h in deal.hands)
    assert deal.points == expected_points(deal)


def _kind(deal: Any) -> str:
    """A label for Hypothesis statistics (pytest --hypothesis-show-statistics)."""
    if deal.outcome == "void":
        return f"void {deal.void_reason}"
    if deal.bidder is None:
        return "minus round"
    if deal.contract_bid == "amerikaner":
        return "amerikaner"
    return "grand" if deal.grand else ("alone" if deal.called is None else "called")


def check_trick(m: Match, deal: Any) -> None:
    leader, cards, winner = deal.tricks[-1]
    assert len(cards) == m.n
    index = expected_winner(cards, deal.trump, deal.rules.options.led_two_wins)
    assert (leader + index) % m.n == winner
    if deal.called is not None and len(deal.tricks) == 1:
        assert deal.called in cards  # the called card is forced in trick 1


@SETTINGS
@given(rs=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_every_step_follows_the_rules(rs: RuleSet, seed: int) -> None:
    m, rng = new_match(rs, seed)
    while not m.finished and len(m.deals) <= MAX_DEALS:
        deal = m.deal
        assert deal is not None
        check_conservation(m)
        public = SeatView(m, None).to_wire()  # built once, as a server does
        for seat in [*range(m.n), None]:
            check_view(m, seat, public)
        if m.turn is None:
            assert m.phase in ("deal_over", "match_over")
            m.start_deal()
            continue
        assert m.phase == deal.phase
        check_legal_is_the_rules(m)
        check_listed_apply_and_others_do_not(m, rng)
        tricks, seat, twin = len(deal.tricks), m.turn, deal.copy()
        # the copy owns every list the deal holds (any other slot is shared with it)
        assert {n for n in DealState.__slots__ if isinstance(getattr(deal, n), list)} \
            <= set(OWN_LISTS)
        assert all(getattr(twin, n) is not getattr(deal, n) for n in OWN_LISTS)
        action = random_action(m, rng)
        stack = deal.actions
        for e in m.apply(seat, action):  # events made on hot paths skip the constructor
            assert len(e) == len(type(e)._fields) and e.kind == type(e)._field_defaults["kind"]
        twin.apply(seat, action)  # a copy goes exactly where the original goes
        assert deal_snapshot(twin) == deal_snapshot(deal)
        # The move stack grows by exactly this action (a lone first lead written as a
        # card is recorded as the lead it is).
        if type(action) is Play and type(deal.actions[-1][1]) is Lead:
            action = deal.actions[-1][1]
        assert deal.actions == [*stack, (seat, action)]
        assert deal.action_count == len(deal.actions)
        if len(deal.tricks) > tricks:
            check_trick(m, deal)
        if deal.turn is None:
            check_deal_end(m, deal)


@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rs=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_scores_totals_dealers_and_the_end(rs: RuleSet, seed: int) -> None:
    m, rng = new_match(rs, seed)
    first_dealer = m.dealer
    while not m.finished and len(m.deals) <= 3 * MAX_DEALS:
        if m.turn is None:
            m.start_deal()
            continue
        deal = m.deal
        assert deal is not None
        tricks = len(deal.tricks)
        m.apply(m.turn, random_action(m, rng))
        if len(deal.tricks) > tricks:
            check_trick(m, deal)
        if deal.turn is None:
            check_deal_end(m, deal)
            event(f"deal: {_kind(deal)}")
            partner_known = [d for d in m.deals if d.called is not None]
            for d in partner_known:
                assert d.partner_revealed and d.partner is not None
    scored = [points_of(d) for d in m.deals if d.outcome in ("played", "minus_round")]
    assert m.scored == scored
    assert m.totals == [sum(p[s] for p in scored) for s in range(m.n)]
    # the dealer: drawn first, then left after every scored deal and a redeal_next_dealer
    dealer = first_dealer
    for d in m.deals:
        assert d.dealer == dealer
        moves = d.outcome != "void" or (d.void_reason == "all_passed"
                                         and rs.options.all_pass == "redeal_next_dealer")
        dealer = (dealer + 1) % m.n if moves else dealer
    # the end (RULES 10): first deal reaching the target, or the number of deals
    limit = rs.deals_limit
    for k in range(1, len(scored) + 1):
        totals = [sum(p[s] for p in scored[:k]) for s in range(m.n)]
        ends = k >= limit if limit is not None else max(totals) >= rs.options.target
        if k < len(scored):
            assert not ends, "the match should have ended earlier"
        else:
            assert ends == m.finished
    if m.finished:
        best = max(m.totals)
        assert m.winners == tuple(s for s in range(m.n) if m.totals[s] == best)
    else:
        assert m.winners == ()
