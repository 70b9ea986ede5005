"""Refit the heuristic bot's trick models (``hand_eval.MODELS``) from simulated deals.

``python -m app.bots.calibrate [DEALS]`` prints a new ``MODELS`` block to paste into
hand_eval.py.  For each table shape it plays ``DEALS`` deals in which the seat that opens
the auction bids the lowest bid and everyone else passes; heuristic bots play the deal
out; the bidder's hand features before the kitty (for its best trump by the current
models) are regressed by least squares on the tricks its side took.  Rerun it after a
change to the bot's play: the models describe how well *this* bot plays its contracts.
The joker and two weights stay as they are (they were fitted on joker and
``led_two_wins`` tables, where those features vary).
"""

from __future__ import annotations

import random
import sys

from app.rules import PASS, Match, RuleSet, SeatView, bid
from app.rules.outcomes import Outcome
from app.rules.phases import Phase

from .hand_eval import FEATURES, MODELS, best_trump, model_for, trump_features
from .heuristic import HeuristicBot

# One rule set per table shape, kitty trick off (the bot adds it when the rules have it).
SHAPES: dict[tuple[int, bool], dict[str, object]] = {
    (4, True): {"preset": "guide"},
    (4, False): {"preset": "norsk"},
    (3, True): {"preset": "guide", "players": 3},
    (3, False): {"preset": "norsk", "players": 3},
    (5, True): {"preset": "guide", "players": 5},
    (5, False): {"preset": "norsk", "players": 5},
}
FITTED = 7  # the first FITTED features are fitted; jokers and twos are kept


def forced_contracts(rules: RuleSet, deals: int, seed: int) -> tuple[list[list[float]],
                                                                   list[float]]:
    """(features, side tricks) of ``deals`` deals won by the opening seat at the lowest bid."""
    o = rules.options
    model = model_for(o.players, o.kitty)
    bot = HeuristicBot()
    rows: list[list[float]] = []
    tricks: list[float] = []
    for i in range(deals):
        match = Match(rules, rng=random.Random(seed * 1_000_003 + i))
        match.start_deal()
        deal = match.deals[-1]
        opener = match.turn
        assert opener is not None
        hand = deal.hands[opener]
        others = rules.shape.deck & ~hand
        suit, _ = best_trump(hand, others, o.led_two_wins, model)
        features = trump_features(hand, suit, others, o.led_two_wins)
        while match.phase == Phase.AUCTION:
            seat = match.turn
            assert seat is not None
            match.apply(seat, bid(rules.shape.min_bid) if seat == opener else PASS)
        rng = random.Random(i)
        while match.deals[-1] is deal and not match.finished:
            seat = match.turn
            assert seat is not None
            match.apply(seat, bot.choose(SeatView(match, seat), rng))
        if deal.outcome != Outcome.PLAYED:
            continue  # no lead could call a partner: redealt
        side = deal.tricks_won[opener]
        if deal.partner is not None:
            side += deal.tricks_won[deal.partner]
        rows.append([float(x) for x in features[:FITTED]] + [1.0])
        tricks.append(float(side))
    return rows, tricks


def least_squares(rows: list[list[float]], ys: list[float]) -> list[float]:
    """Solve the normal equations (with a tiny ridge, so constant features are harmless)."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0.0) for j in range(k)]
         for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(k)]
    for col in range(k):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] for i in range(k)]


def fit(shape: tuple[int, bool], deals: int, seed: int = 7) -> str:
    """The ``MODELS`` line for one table shape."""
    rules = RuleSet.from_json({**SHAPES[shape], "match": "single_deal"})
    rows, ys = forced_contracts(rules, deals, seed)
    w = least_squares(rows, ys)
    residuals = [y - sum(a * b for a, b in zip(w, r, strict=True)) for r, y in zip(rows, ys,
                                                                                  strict=True)]
    sigma = (sum(e * e for e in residuals) / len(residuals)) ** 0.5
    kept = MODELS[shape].weights[FITTED:]
    weights = ", ".join(f"{max(x, 0.0):.2f}" for x in w[:FITTED]) + ", " + ", ".join(
        f"{x}" for x in kept)
    return f"    {shape}: Model({w[-1]:.2f}, {sigma:.2f}, ({weights})),"


def main(argv: list[str]) -> int:
    deals = int(argv[0]) if argv else 6000
    print(f"# features: {', '.join(FEATURES)}")
    print("MODELS: dict[tuple[int, bool], Model] = {")
    for shape in SHAPES:
        print(fit(shape, deals), flush=True)
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
