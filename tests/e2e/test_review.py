"""Issue 11, the deal review in the browser: after a practice deal the person asks for a
review of their own decisions; the strong bot's verdict comes back as sentences a player
reads (the double-dummy line, then the clear losses, or a "well played"), with every
placeholder filled and bids worded as bids."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP
from .players import open_room, play_until_deal_over

DECISION = re.compile(
    r"^(Bidding|Kitty|First lead|Trick \d+): you chose .+; the strong bot would choose .+ "
    r"\(about \d+(?:\.\d)? points? better on average\)\.$")


def test_a_person_reviews_their_deal(new_page: Any) -> None:
    page = new_page("reviewer", viewport=LAPTOP)
    open_room(page, "Kim", "Practice", single_round=True)
    play_until_deal_over([page], bidders={0})

    page.get_by_role("button", name="Review my play").click()
    panel = page.locator("#result section.review")  # (Your reviews has it too, folded)
    expect(panel.get_by_role("heading", name="Your decisions, by the strong bot")).to_be_visible()
    # made off the loop in a worker process: a few seconds
    expect(panel.get_by_text("Reviewing your decisions")).to_have_count(0, timeout=60_000)
    text = panel.inner_text()
    assert "undefined" not in text and "{" not in text, text
    assert "could not be made" not in text, text
    lines = panel.locator("li").all_inner_texts()
    assert lines or "well played" in text, text
    for line in lines:
        assert DECISION.match(line.strip()), line
        assert not re.search(r"would choose \d", line), line  # a bid reads "bid 9"
    # asked once: the button is spent (the review is kept with the room)
    expect(page.get_by_role("button", name="Review my play")).to_be_disabled()
