"""What an easy bidder keeps: the others' model of the bidder's hand after the auction.

A search level with ``SearchSettings.bidder_model`` weighs each sampled hand of the
bidder as ``easy`` keeps one once it took the kitty: the trump it named is the suit that
hand plays best, and the hand reads about its bid in that suit (hand_eval's estimate).
Drawn evenly, the samples gave an easy bidder 2.2 to 2.5 trumps fewer than it held at
the first tricks, and too few came near its hand to be weighed, so the quick deal also
gives the bidder each unseen trump ``TRUMP_PULL`` times as likely
(docs/history/bots-measurements.md, issue 40's fifteenth pass).  Used by sampling.py.
"""

from __future__ import annotations

from app.rules import RuleSet

from .hand_eval import Model, best_trump
from .heuristic import normal_cdf

# How far below its bid (in tricks of hand_eval's estimate, ``const`` included) the hand
# an easy bidder kept after the kitty may read, and how sharply that bound falls: its true
# kept hands read 0.13 +- 0.71 above the bid (5 % below -0.92), the unweighted samples
# -1.90 +- 0.88 (2026-12-07, 19 deals' bidders and 308 samples, seed 73).  A tighter
# bound reads the samples closer to the truth (a partner's: -0.47 tricks with 1.0, -0.33
# with 0.5, -0.13 with 0) but the play gained nothing measurable for the CPU of the draws
# it rejects: +0.03 +- 0.10 and +0.03 +- 0.12 a deal, 9 and 16 % more CPU at fixed
# samples (docs/history/bots-measurements.md, issue 40's eighteenth pass).
KEPT_SLACK = 1.0
KEPT_SPREAD = 0.4
# How many times as likely the quick deal gives the bidder each unseen trump.
TRUMP_PULL = 3.0


def kept_hand_weight(kept: int, trump: int, bid: int, rules: RuleSet, model: Model,
                     mismatch: float) -> float:
    """How likely an easy bidder that bid ``bid`` and named ``trump`` kept ``kept`` (its
    hand after the kitty, with what it played): it names the suit its hand plays best
    (else ``mismatch`` times as likely), and the hand reads about its bid in that suit."""
    o = rules.options
    others = rules.shape.deck & ~kept
    best, mine = best_trump(kept, others, o.led_two_wins, model)
    if best != trump:  # (else the best suit's reading is the trump's)
        _, mine = best_trump(kept, others, o.led_two_wins, model, 1 << trump)
    w = normal_cdf((model.const + mine - bid + KEPT_SLACK) / KEPT_SPREAD)
    return w if best == trump else w * mismatch


__all__ = ["KEPT_SLACK", "KEPT_SPREAD", "TRUMP_PULL", "kept_hand_weight"]
