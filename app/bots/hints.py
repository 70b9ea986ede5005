"""Hints that explain: the strong bot's action with a short reason a player can learn from.

``explain(view, rng, deadline)`` is pure (it reads only the view) and returns a ``Hint``:
the action, an i18n key and its parameters.  The bots hold no texts: the key is
translated where the texts are, by the client (keys ``hint.*`` of its catalogues, with
the levels' labels ``bot.easy``, ``bot.normal``, ``bot.strong``), and by the tests that
check every key has a text (tests/bots/hint_texts.py).  Parameters named
``card``, ``call``, ``winner`` are card ids (``"AC"``), ``cards`` a list of them,
``trump`` a suit letter (``"C"``) or ``None`` for no trump, ``bid`` a number, ``tricks``
and ``points`` numbers with one decimal, ``chance`` a whole percentage, so a client can
render them in its language (the suit letter through its ``suit.X`` texts, card ids
through its card names).

The reason is read off the search's own figures (the bid's expected side tricks, each
card's mean points) and off the position as the seat sees it (table_facts.py): who is
winning the trick, whether the card wins or ruffs, whether it is the master.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.rules import AMERIKANER, PASS, Action, Bid, Discard, Lead, Play, SeatView
from app.rules.cards import CARD_IDS, JOKER1, SUIT_MASKS, SUITS, highest, ids_of

from .hand_eval import best_trump, model_for
from .search import Estimate, SearchBot
from .table_facts import BIDDER_SIDE, MINUS, TableFacts


@dataclass(frozen=True)
class Hint:
    """The suggested action and why, as an i18n key with parameters (JSON-ready)."""

    action: Action
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    samples: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "key": self.key, "params": self.params,
                "samples": self.samples}


def explain(view: SeatView, rng: random.Random, deadline: float | None = None,
            bot: SearchBot | None = None) -> Hint:
    """The strong bot's action for the seat of ``view`` (the best found by ``deadline``,
    a ``time.monotonic()`` instant) with its reason."""
    if bot is None:
        from . import BOTS

        found = BOTS["strong"]
        assert isinstance(found, SearchBot)
        bot = found
    estimate = bot.estimate(view, rng, deadline)
    action = estimate.best
    if len(view.legal) == 1 and not isinstance(action, Discard):
        return Hint(action, "hint.only_choice", _card_params(action), estimate.samples)
    if isinstance(action, Bid):
        return _bid_hint(view, estimate)
    if isinstance(action, Discard):
        return _discard_hint(view, action, estimate)
    if isinstance(action, Lead):
        return _lead_hint(view, action, estimate)
    assert isinstance(action, Play)
    return _play_hint(view, action, estimate)


def _points(estimate: Estimate, action: Action) -> float | None:
    p = estimate.points.get(action)
    return None if p is None else round(p, 1)


def _card_params(action: Action) -> dict[str, Any]:
    if isinstance(action, Play | Lead):
        return {"card": CARD_IDS[action.card]}
    if isinstance(action, Bid):
        return {"bid": action.value}
    return {}


def _best_suit(view: SeatView) -> str | None:
    o = view.rules.options
    hand = view.hand
    suit, _ = best_trump(hand, view.rules.shape.deck & ~hand, bool(o.led_two_wins),
                         model_for(o.players, o.kitty))
    return SUITS[suit] if suit >= 0 else None


def _bid_hint(view: SeatView, e: Estimate) -> Hint:
    action = e.best
    assert isinstance(action, Bid)
    tricks = round(max(e.tricks.values()), 1) if e.tricks else None
    if action == AMERIKANER:
        return Hint(action, "hint.bid_amerikaner", {}, e.samples)
    if action == PASS:
        key = "hint.pass_rule_of_thumb" if tricks is None else "hint.pass_weak"
        return Hint(action, key, {"tricks": tricks, "min_bid": _lowest_bid(view)}, e.samples)
    params = {"bid": action.value, "tricks": tricks, "trump": _best_suit(view),
              "points": _points(e, action)}
    if tricks is None:
        return Hint(action, "hint.bid_rule_of_thumb", params, e.samples)
    chance = e.chances.get(action)
    if isinstance(action.value, int) and action.value > tricks and chance is not None:
        # Above the samples' mean: the search allows for its own better play
        # (SearchSettings.bid_bonus), and prices each bid by its chance of being made
        # times what it scores; the hint says so with that chance.
        return Hint(action, "hint.bid_above_expected",
                    {**params, "chance": round(100 * chance)}, e.samples)
    return Hint(action, "hint.bid_expected", params, e.samples)


def _lowest_bid(view: SeatView) -> int | None:
    for a in view.legal:
        if isinstance(a, Bid) and isinstance(a.value, int):
            return a.value
    return None


def _discard_hint(view: SeatView, action: Discard, e: Estimate) -> Hint:
    kept = view.hand & ~action.cards
    trump = max(range(4), key=lambda s: (kept & SUIT_MASKS[s]).bit_count())
    voids = [SUITS[s] for s in range(4)
             if view.hand & SUIT_MASKS[s] and not kept & SUIT_MASKS[s]]
    params = {"cards": ids_of(action.cards), "trump": SUITS[trump], "points": _points(e, action)}
    if voids:
        return Hint(action, "hint.discard_void", {**params, "voids": voids}, e.samples)
    return Hint(action, "hint.discard_keep_trumps", params, e.samples)


def _lead_hint(view: SeatView, action: Lead, e: Estimate) -> Hint:
    params: dict[str, Any] = {"card": CARD_IDS[action.card], "points": _points(e, action),
                              "trump": None if action.grand else SUITS[action.card // 13]}
    if action.call is None:
        return Hint(action, "hint.lead_alone", params, e.samples)
    params["call"] = CARD_IDS[action.call]
    if action.grand:
        return Hint(action, "hint.lead_grand", params, e.samples)
    suit = SUIT_MASKS[action.call // 13]
    live = view.rules.shape.deck & ~view.hand & ~(view.discards or 0) & suit
    if highest(live) == action.call:
        return Hint(action, "hint.call_highest_missing", params, e.samples)
    return Hint(action, "hint.call_other", params, e.samples)


def _play_hint(view: SeatView, action: Play, e: Estimate) -> Hint:
    f = TableFacts(view)
    card = action.card
    params: dict[str, Any] = {"card": CARD_IDS[card], "points": _points(e, action)}
    if f.mode == MINUS:
        if f.trick_cards and not f.wins_now(card):
            return Hint(action, "hint.play_duck", params, e.samples)
        return Hint(action, "hint.play_minus", params, e.samples)
    if not f.trick_cards:
        if f.trump is not None and card < JOKER1 and card // 13 == f.trump \
                and f.my_side == BIDDER_SIDE:
            return Hint(action, "hint.play_draw_trumps", params, e.samples)
        if card >= JOKER1 or f.is_master(card):
            return Hint(action, "hint.play_cash_master", params, e.samples)
        return Hint(action, "hint.play_lead_low", params, e.samples)
    win_seat, win_card = f.winner_so_far()
    wins = f.wins_now(card)
    led = f.trick_cards[0]
    if not wins and f.is_ally(win_seat) and win_seat != f.seat:
        # "Play low" only when the card is low: the search may keep a small card and give
        # a higher one, and the words must name the card the hint highlights.
        key = "hint.play_low_partner_wins" if _lowest(view, card) else "hint.play_under_partner"
        return Hint(action, key, {**params, "winner": CARD_IDS[win_card]}, e.samples)
    if wins and led < JOKER1 and card < JOKER1 and card // 13 != led // 13:
        return Hint(action, "hint.play_ruff", params, e.samples)
    if wins:
        return Hint(action, "hint.play_take_trick", params, e.samples)
    if led < JOKER1 and card < JOKER1 and card // 13 != led // 13:
        return Hint(action, "hint.play_throw", params, e.samples)
    return Hint(action, "hint.play_low_cannot_win",
                {**params, "winner": CARD_IDS[win_card]}, e.samples)


def _lowest(view: SeatView, card: int) -> bool:
    """Whether ``card`` ranks lowest among the seat's legal cards (jokers aside)."""
    ranks = [a.card % 13 for a in view.legal if isinstance(a, Play) and a.card < JOKER1]
    return card < JOKER1 and card % 13 == min(ranks, default=card % 13)


__all__ = ["Hint", "explain"]
