"""When it is your turn to follow, the table shows the trick you are following: a trick
that has just been won may linger a moment for the eye, but never while you must answer
the next one (bots here act within 0.05 s, so they lead the next trick at once)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP
from .players import deal_over, enabled_cards, hand, open_room, take_turn

# The cards the trick area shows, and whether one of them is marked as the winner by
# someone else (then that player leads next: if it is our turn, they have led already).
TRICK_SHOWN = """() => {
  const area = document.getElementById('trick');
  const cards = [...area.querySelectorAll('.played')];
  const won = cards.find(c => c.classList.contains('winner'));
  return {count: cards.length, wonByOther: !!won && !won.classList.contains('pos-bottom')};
}"""


def test_the_trick_to_follow_is_on_the_table(new_page: Any) -> None:
    page = new_page("follower", viewport=LAPTOP)
    open_room(page, "Fay", "Practice")
    expect(hand(page).get_by_role("button")).to_have_count(12)

    followed = 0
    for _ in range(600):
        if deal_over(page) or followed >= 4:
            break
        if enabled_cards(page).count() and not page.get_by_role("button", name="Pass").count():
            page.wait_for_timeout(150)  # what the page settles on for this turn
            shown = page.evaluate(TRICK_SHOWN)
            cards_left = hand(page).get_by_role("button").count()
            if shown["count"] and cards_left < 12:
                # A trick we won may stay a moment while we lead; one won by another
                # player may not: they have led the trick we must follow.
                assert not shown["wonByOther"], "a finished trick hides the one to follow"
                followed += 1
        take_turn(page, bid=False)
        page.wait_for_timeout(50)
    assert followed, "never had to follow a trick after the first one"
