"""Issue 23, reviews that are never lost, in the pure room: a deal of an earlier match of
the room may be reviewed (the room no longer holds that match: it asks the adapter to
read the deal from the match's stored record), the view says which deals may be, a
match or deal that does not exist is refused with its own code, and the deal's double
dummy, found once, is handed to every later review of that deal."""

from __future__ import annotations

from typing import Any

from core_table import Table, play_until

from app.double_dummy import DoubleDummy
from app.rooms.core.effects import AskEarlierReview, AskReview, ReviewReady
from app.rooms.core.frames import Review
from app.rooms.core.views import reviewable as views_reviewable
from app.rules import Phase


def review_of(seat: int, tricks: int | None = 7, from_trick: int | None = 1) -> Review:
    return {"seat": seat, "decisions": [], "bidder": 1, "contract": 7, "side_tricks": 7,
            "double_dummy": tricks, "double_dummy_from_trick": from_trick,
            "double_dummy_skipped": None, "points": 0.0, "total_loss": 0.0}


def two_matches() -> tuple[Table, int]:
    """Ann (seat 0) and three bots: a match of two deals played, the second begun."""
    t = Table(rules={"preset": "guide", "match": "deals:2"})
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.finished, {0: ann})
    t.send(ann, {"type": "rematch"})
    assert t.core.state.match_number == 2
    return t, ann


def asked(step: Any, kind: type) -> list[Any]:
    return [e for e in step.effects if isinstance(e, kind)]


def test_a_deal_of_an_earlier_match_is_reviewed_from_its_stored_record() -> None:
    t, ann = two_matches()
    history = t.state_to(ann)["view"]["room"]["history"]
    assert [h["number"] for h in history] == [1]
    deals = history[0]["reviewable"]
    assert len(deals) == len(history[0]["score_sheet"]) == 2, "a row of the sheet a deal"
    number, record = t.records[-1]
    assert number == 1 and all(record["deals"][i]["actions"] for i in deals)

    step = t.send(ann, {"type": "review", "match": 1, "deal": deals[0]})
    [ask] = asked(step, AskEarlierReview)
    assert (ask.seat, ask.match, ask.deal, ask.double_dummy) == (0, 1, deals[0], None)
    assert not asked(step, AskReview), "the room no longer holds that match"
    t.send(ann, {"type": "review", "match": 1, "deal": deals[0]})  # a second tab
    assert not asked(t.last, AskEarlierReview), "asked once: it is on its way"

    step = t.handle(ReviewReady(0, 1, deals[0], review_of(0)))
    [frame] = [f for f in t.frames_to(ann, step) if f["type"] == "review"]
    assert (frame["match"], frame["deal"], frame["review"]) == (1, deals[0], review_of(0))
    again = t.send(ann, {"type": "review", "match": 1, "deal": deals[0]})
    assert [f["type"] for f in t.frames_to(ann, again)] == ["review"], "kept: sent at once"
    # "the last" of that match when no deal is named
    [last] = asked(t.send(ann, {"type": "review", "match": 1}), AskEarlierReview)
    assert last.deal == deals[-1]
    t.assert_consistent()


def test_a_match_or_deal_that_does_not_exist_is_refused_with_its_code() -> None:
    t, ann = two_matches()
    deals = t.state_to(ann)["view"]["room"]["history"][0]["reviewable"]
    t.refused(ann, {"type": "review", "match": 7, "deal": 0}, "no_record")
    t.refused(ann, {"type": "review", "match": 1, "deal": 9}, "no_deal")
    t.refused(ann, {"type": "review", "match": 1, "deal": max(deals) + 1}, "no_deal")
    t.refused(ann, {"type": "review", "match": 0, "deal": 0}, "bad_message")
    t.refused(ann, {"type": "review", "match": "1", "deal": 0}, "bad_message")
    # this match: the deal being played, and one that is not there
    t.refused(ann, {"type": "review", "match": 2, "deal": len(t.match.deals) - 1},
              "wrong_phase")
    t.refused(ann, {"type": "review", "match": 2, "deal": 40}, "no_deal")
    spectator = t.connect(None)
    t.refused(spectator, {"type": "review", "match": 1, "deal": deals[0]}, "not_seated")


def test_a_match_logged_before_this_feature_is_not_offered_and_is_refused() -> None:
    t, ann = two_matches()
    state = t.core.state
    old = {k: v for k, v in state.history[0].items() if k != "reviewable"}
    state.history[0] = old  # type: ignore[assignment]  # as an older log holds it
    err = t.refused(ann, {"type": "review", "match": 1, "deal": 0}, "no_deal")
    assert "before" in err.message


def test_the_double_dummy_found_once_is_handed_to_the_deal_s_later_reviews() -> None:
    t = Table(rules={"preset": "guide", "match": "deals:3"})
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.phase == Phase.DEAL_OVER, {0: ann, 1: bo})
    deal = len(t.match.deals) - 1
    [first] = asked(t.send(ann, {"type": "review", "deal": deal}), AskReview)
    assert first.double_dummy is None
    [second] = asked(t.send(bo, {"type": "review", "deal": deal}), AskReview)
    assert second.double_dummy is None, "asked before the first one came back"
    t.handle(ReviewReady(0, 1, deal, review_of(0, tricks=None, from_trick=None)))
    t.handle(ReviewReady(1, 1, deal, review_of(1, tricks=8, from_trick=5)))
    assert t.core.rt.double_dummies[(1, deal)] == DoubleDummy(8, 5)
    # a failed review is asked again: now with the deal's double dummy
    t.core.rt.reviews.pop((1, deal, 0))
    [third] = asked(t.send(ann, {"type": "review", "deal": deal}), AskReview)
    assert third.double_dummy == DoubleDummy(8, 5)
    # one from the first lead is better than one from a later trick, not the reverse
    t.handle(ReviewReady(0, 1, deal, review_of(0, tricks=9, from_trick=1)))
    t.handle(ReviewReady(1, 1, deal, review_of(1, tricks=8, from_trick=5)))
    assert t.core.rt.double_dummies[(1, deal)] == DoubleDummy(9, 1)


def test_an_earlier_match_is_reviewed_only_by_whoever_held_the_seat_at_its_end() -> None:
    """Issue 36: Di leaves after match 1 and Cy takes her seat; in match 2 Cy's review of
    match 1 is refused (it would show Di's hand and decisions), Bo's of his own seat
    is asked; a review Di never saw is not sent to Cy either."""
    t = Table(rules={"preset": "guide", "match": "deals:2"})
    t.join("Bo", 1)
    t.join("Di", 2)
    ann, bo, di = t.connect(0), t.connect(1), t.connect(2)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.finished, {0: ann, 1: bo, 2: di})
    deals = views_reviewable(t.match)
    t.send(di, {"type": "review", "match": 1, "deal": deals[0]})  # this match: hers
    t.send(di, {"type": "leave"})
    t.disconnect(di)
    t.disconnect(bo)  # back for match 2, with the newcomer
    t.join("Cy", 2)
    t.send(ann, {"type": "rematch"})
    assert t.core.state.match_number == 2
    bo, cy = t.connect(1), t.connect(2)

    # issue 39: the view offers match 1's reviews to Bo, who held his seat, and not to
    # Cy (nor to a spectator), whom the room would refuse
    spectator = t.connect(None)
    said = t.send(ann, {"type": "chat", "text": "welcome, Cy"})  # a state to everyone

    def offered(conn: int) -> list[int]:
        [match_1] = t.state_to(conn, said)["view"]["room"]["history"]
        return list(match_1["reviewable"])

    assert offered(bo) == deals and offered(ann) == deals
    assert offered(cy) == [] and offered(spectator) == []
    err = t.refused(cy, {"type": "review", "match": 1, "deal": deals[0]}, "not_your_match")
    assert "did not play this seat in match 1" in err.message
    t.refused(cy, {"type": "review", "match": 1}, "not_your_match")
    [ask] = asked(t.send(bo, {"type": "review", "match": 1, "deal": deals[0]}),
                  AskEarlierReview)
    assert (ask.seat, ask.match) == (1, 1)
    # Di's review of match 1, asked while it was the match now, comes back late: kept,
    # not sent to Cy, who holds her seat now
    step = t.handle(ReviewReady(2, 1, deals[0], review_of(2)))
    assert not [f for f in t.frames_to(cy, step) if f["type"] == "review"]
    t.refused(cy, {"type": "review", "match": 1, "deal": deals[0]}, "not_your_match")
    t.assert_consistent()  # who held the seats is in the checkpoint of match 2
    assert t.replayed().holders == t.core.state.holders


def test_a_match_whose_holders_were_not_logged_is_not_reviewed() -> None:
    t, ann = two_matches()
    t.core.state.holders.clear()  # as a log written before issue 36 rebuilds it
    err = t.refused(ann, {"type": "review", "match": 1, "deal": 0}, "not_your_match")
    assert "before" in err.message
    said = t.send(ann, {"type": "chat", "text": "and now?"})  # issue 39: none offered
    assert t.state_to(ann, said)["view"]["room"]["history"][0]["reviewable"] == []
