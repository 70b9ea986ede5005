"""One judgement for hints and reviews (issue 23): a practice player who follows every
hint is never told by the review that one of those decisions was a mistake, and a
decision is listed only when its loss is clear of the noise (bids, which have no error
estimate, by a margin).

The hints are the real ones (``hint_job``, the strong bot's search, as the search pool
runs it, stopped sooner); the review is the real ``review_deal`` on the deal the room hands it."""

from __future__ import annotations

import random
import time
from typing import Any

from core_table import Table, play_until
from example_budget import examples

from app.bots.review import BID_MARGIN, Decision, review_deal
from app.rooms.core.effects import AskReview
from app.rules import Phase, RuleSet
from app.rules.record import deal_to_record

# followed hints, over as many deals as it takes (about 8: every phase's decisions, bids,
# discards, leads with calls and plays, several times each; a tenth in the quick loop).
# Each costs a real hint's search and each deal a review's: 200 took 40 s.
DECISIONS = examples(100)
# The hints' search here stops at this (wall) time rather than the server's 0.5 s: the review
# reads only which action each hint named (a followed one is never searched again, nor a
# mistake), not how long the strong bot searched to name it.
HINT_SECONDS = 0.1


def test_a_followed_hint_is_never_a_review_mistake() -> None:
    t = Table(rules={"preset": "standard", "match": "target"}, practice=True,
              hint_seconds=HINT_SECONDS)
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    followed = reviewed = 0
    between = (Phase.DEAL_OVER, Phase.MATCH_OVER)
    while reviewed < DECISIONS:
        if t.match.phase in between:
            reviewed += check_review(t, ann)
            if t.match.finished:
                t.send(ann, {"type": "rematch"})
            else:
                t.send(ann, {"type": "ready"})
        elif t.match.turn == 0:
            hint = t.core.rt.hint
            if hint is None or hint["game"] != t.core.state.game:
                t.answer_hint()  # the strong bot's hint for this position
                continue
            t.act(ann, dict(hint["action"]))
            followed += 1
        else:  # the bots, until it is Ann's turn or the deal is over
            play_until(t, lambda: t.match.turn == 0 or t.match.phase in between, {})
    assert followed >= reviewed >= DECISIONS


def check_review(t: Table, ann: int) -> int:
    """The review of the deal just over: no mistake, every decision a followed hint; how
    many decisions it judged."""
    asked = [e for e in t.send(ann, {"type": "review"}).effects if isinstance(e, AskReview)]
    assert len(asked) == 1
    job = asked[0]
    assert isinstance(job.record.get("hints"), dict), "the room hands the review its hints"
    review = review_deal(job.rules, job.record, 0, random.Random(1), time.monotonic() + 1.0)
    mistakes = [d.to_json() for d in review.decisions if d.clear]
    assert mistakes == []
    assert all(d.hinted for d in review.decisions), [d.to_json() for d in review.decisions]
    return len(review.decisions)


def test_only_a_loss_clear_of_the_noise_is_a_mistake() -> None:
    def decision(loss: float, error: float | None, hinted: bool = False) -> Decision:
        return Decision(0, Phase.AUCTION, None, {"bid": 8}, {"bid": 9}, 1.0, 1.0 + loss,
                        loss, error, 40, hinted)

    assert decision(1.0, 0.3).clear and not decision(0.5, 0.3).clear  # 2 errors
    assert not decision(0.04, None).clear, "a bid's 0.0 points better is no mistake"
    assert not decision(BID_MARGIN - 0.1, None).clear and decision(BID_MARGIN, None).clear
    assert not decision(5.0, 0.1, hinted=True).clear, "a followed hint is never one"
    assert decision(1.0, 0.3).to_json()["clear"] is True


def test_the_review_reads_the_hints_it_is_given_and_ignores_broken_ones() -> None:
    rules = RuleSet("standard", match="single_deal")
    t = Table(rules={"preset": "standard", "match": "single_deal"})
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER), {0: ann})
    record: dict[str, Any] = deal_to_record(t.match.deals[-1])
    ours = [i for i, a in enumerate(record["actions"]) if a["seat"] == 0]
    record["hints"] = {str(i): {k: v for k, v in record["actions"][i].items() if k != "seat"}
                       for i in ours}
    record["hints"]["x"] = {"play": "nonsense"}
    review = review_deal(rules, record, 0, random.Random(1), time.monotonic() + 1.0)
    assert review.decisions and all(d.hinted and d.samples == 0 for d in review.decisions)
