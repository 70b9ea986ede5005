"""The settings of a search level: how hard the determinized search (search.py) thinks.

``normal`` and ``strong`` are two of these (``NORMAL``, ``STRONG`` in ``__init__.py``);
reviews (review.py), the tests and benchmarks/bots.py build others.  Each field's comment
says what it changes; the measurements behind the defaults are in docs/bots.md and
docs/history/bots-measurements.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sampling import MISMATCH, TRIES

MARGIN = 1.0  # standard errors by which a candidate must beat the heuristic's choice


@dataclass(frozen=True)
class SearchSettings:
    """How hard a level thinks."""

    budget: float  # CPU seconds a decision usually takes (the soft stop)
    samples: int  # at most this many samples a decision
    exact: int  # tricks solved exactly at the end of each rollout
    exact_now: int  # with at most this many tricks left, no rollout at all
    search_auction: bool  # discard, lead and call by samples (else the heuristic's)
    search_bid: bool = True  # bid by samples (else the heuristic's)
    # The partner's trick play by samples (else the heuristic's); off measured -0.00 +-
    # 0.10 a deal (500 deals, 121 differ; docs/history/bots-measurements.md, tenth pass).
    search_partner: bool = True
    bid_bonus: float = 0.0  # tricks the bot's own play adds over the rollout policy
    relative: bool = False  # score a deal as my points minus the others' mean (rollout)
    margin: float = MARGIN  # standard errors to beat the heuristic's choice by
    outbid: bool = True  # price a bid with the others answering it (outbid.py)
    # Relative points added to a priced pass (played by easy in the samples): above 0
    # for the bot's own defence, below 0 to bid more often. +0.7 measured -0.11 +- 0.21;
    # -0.5 +0.08 +- 0.07 a deal (strong's; docs/history/bots-measurements.md).
    pass_bonus: float = 0.0
    # Deal the samples as if the others play as easy does (play_inference.py).
    infer_play: bool = False
    # CPU seconds for the few decisions that fix the contract (bids, the kitty, the call
    # and first lead), which compare many candidates on few samples; 0: ``budget``.
    contract_budget: float = 0.0
    # At most this many samples for those decisions; 0: ``samples``.
    contract_samples: int = 0
    # A defender's trick play scores the defenders' mean relative points (rollout.score's
    # ``together``) rather than its own: the other defender's trick counts as its own.
    together: bool = False
    # After this many samples, stop when every candidate scored the same as the
    # heuristic's choice in every sample: the card does not matter (0: never).
    settle: int = 0
    # The samples' auction inference (sampling.Knowledge): rejected draws before the
    # most likely one tried is taken, and how much less likely a draw is per auction
    # choice easy would not have made with it (strong: 32 and 0.1, __init__.py; nearly
    # exact, 64 and 0.02, measured -0.05 +- 0.14 a deal against them: 750 deals, 440
    # differ; docs/history/bots-measurements.md, twentieth pass).
    tries: int = TRIES
    mismatch: float = MISMATCH
    # The first lead and call compare every suit, and a high lead calling the second
    # highest live card too (candidates.lead_candidates), not only the three best suits;
    # measured -0.05 +- 0.05 a deal (375 deals, 18 differ; docs/history/bots-measurements.md):
    # off, kept for such runs.
    wide_leads: bool = False
    # A bid's chance of being made, counted from the samples' own tricks, each smoothed
    # by a normal this many tricks wide (bid_chance.py), rather than from one normal
    # spread around their mean; 0: the one normal spread.  0.7 measured -0.01 +- 0.08 a
    # deal (500 deals, 91 differ; docs/history/bots-measurements.md, ninth pass): off,
    # kept for such runs.
    chance_width: float = 0.0
    # In a trick's rollouts this seat follows seeing the sampled deal where that takes a
    # trick easy would give up (sighted.py), instead of as easy does throughout; measured
    # -0.08 +- 0.14 a deal (500 deals, 224 differ; the tenth pass): off, kept for such runs.
    sighted: bool = False
    # The bids searched: every legal number, or (off) only the lowest, as easy raises.
    # A jump pre-empts the others, and can push the seat's partner-to-be past what it
    # makes; off measured -0.57 +- 0.31 a deal (250 deals, 206 differ;
    # docs/history/bots-measurements.md, eleventh pass): on.
    jumps: bool = True
    # The others' trick play read by replaying it (play_replay.py): a sampled world is
    # this many times as likely for each play of another seat that easy would not have
    # made in it (1: not read so).  0.2 measured +0.18 +- 0.16 a deal at fixed samples
    # for 1.6 to 1.7 times the CPU, and +0.05 +- 0.18 at the same CPU (500 deals each;
    # docs/history/bots-measurements.md, thirteenth pass); from the best of 3 draws
    # (tries=3), cheaper, -0.00 +- 0.20 at the same CPU (fourteenth pass): off, kept
    # for such runs.
    play_mismatch: float = 1.0
    # The kitty discards compared: per trump suit, this many of the best that keep it
    # (candidates.discard_candidates), with easy's own.  2 measured +0.02 +- 0.07 a
    # deal (250 deals, 29 differ; docs/history/bots-measurements.md, thirteenth pass).
    discards_per_trump: int = 1
    # Once the bidder has named trumps, its bid bounds its hand in that suit
    # (sampling.Knowledge.weight), rather than in whichever suit its sampled hand plays best.
    trump_floor: bool = False
    # The others' samples keep every card above the called one in its suit with the
    # bidder or its discards, as easy calls the highest it lacks (play_inference.call_not_held).
    infer_call: bool = False
    # After the auction, the bidder's samples are weighed as easy's kept hands are: the
    # trump it named is the suit its hand plays best, and the hand reads about its bid
    # there (kept_hand.py), rather than only not far below it, and drawn
    # with more trumps (kept_hand.TRUMP_PULL); measured +0.07 +- 0.10 a deal alone (750
    # deals, 267 differ; docs/history/bots-measurements.md, fifteenth pass); strong reads
    # it with the other readings (``STRONG`` in __init__.py says what they measured).
    bidder_model: bool = False


__all__ = ["MARGIN", "SearchSettings"]
