"""What a replay (the room's dialog, the /replay page) must do wherever it is shown
(issue 39): its step counter has a box wide enough to read and the table is on the first
screen, at any size and in any language; and the keyboard reaches every step, forward and
back, with the focus kept on a control that works: at the last step (whose `Next step`
does nothing), and after a redraw of the auction's summary."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .players import no_horizontal_scroll
from .words import Words

# The counter's box and the trick's, measured in the window: a box one word wide is not
# read, and the trick is the table the replay is about.
BOXES = """(el) => {
  const where = el.querySelector('.replay-where').getBoundingClientRect();
  const trick = el.querySelector('.replay-trick').getBoundingClientRect();
  const line = parseFloat(getComputedStyle(el.querySelector('.replay-where')).lineHeight);
  return { width: where.width, height: where.height, line,
           trickTop: trick.top, trickBottom: trick.bottom, window: innerHeight };
}"""


def counter(scope: Any) -> Any:
    return scope.get_by_role("status")


def last_step(scope: Any, words: Words) -> int:
    found = words.pattern("replay.step", whole=False, i=r"\d+", n=r"(\d+)").search(
        counter(scope).inner_text())
    assert found, counter(scope).inner_text()
    return int(found.group(1))


def at_step(scope: Any, words: Words, i: int, last: int) -> None:
    expect(counter(scope)).to_have_text(
        re.compile(re.escape(words.t("replay.step", i=i, n=last)) + "$"))


def check_layout(page: Any, scope: Any, words: Words, what: str) -> None:
    """At the first card of the first trick: the counter is at least 200 px wide and at
    most three lines tall, the trick is within the window, nothing scrolls sideways."""
    first_card = words.pattern("replay.where.trick", whole=False, n="1", k="1")
    page.keyboard.press("Home")
    for _ in range(40):  # the auction and the kitty come first
        if first_card.search(counter(scope).inner_text()):
            break
        page.keyboard.press("ArrowRight")
        expect(counter(scope)).not_to_have_text("")
    else:
        raise AssertionError("no step shows the first card of the first trick")
    expect(scope.get_by_role("group", name=words.t("replay.trick", n=1))).to_be_visible()
    box = scope.evaluate(BOXES)
    assert box["width"] >= 200 and box["height"] <= 3 * box["line"] + 2, (what, box)
    assert box["trickTop"] >= 0 and box["trickBottom"] <= box["window"], (what, box)
    no_horizontal_scroll(page)


def walk_by_keyboard(page: Any, scope: Any, words: Words) -> None:
    """From the first step with the focus on `Next step` as the replay opened: Enter to
    the last step, where the focus stays on `Next step` (doing nothing) and Home and End
    work; back to the first with the left arrow and forward with the right one; then the
    auction's summary, opened by keyboard, keeps the focus (and stays open) while the
    arrows step on, the table being drawn anew at each step."""
    nxt = scope.get_by_role("button", name=words.t("replay.next"), exact=True)
    expect(nxt).to_be_focused()
    at_step(scope, words, 0, last := last_step(scope, words))
    for i in range(1, last + 1):
        page.keyboard.press("Enter")
        at_step(scope, words, i, last)
    expect(nxt).to_be_focused()
    expect(nxt).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Enter")  # nothing: the last step
    at_step(scope, words, last, last)
    page.keyboard.press("Home")
    at_step(scope, words, 0, last)
    page.keyboard.press("End")
    at_step(scope, words, last, last)
    for i in range(last - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        at_step(scope, words, i, last)
    for i in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        at_step(scope, words, i, last)
    summary = scope.locator(".replay-auction summary")
    auction = scope.locator(".replay-auction")
    expect(summary).to_have_text(words.t("replay.auction"))
    summary.focus()
    chosen = not auction.evaluate("d => d.open")
    page.keyboard.press("Space")  # opened or closed by the person: kept at every step
    expect(auction).to_have_js_property("open", chosen)
    for i in range(last - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        at_step(scope, words, i, last)
        expect(summary).to_be_focused()
        expect(auction).to_have_js_property("open", chosen)
    page.keyboard.press("End")
    at_step(scope, words, last, last)
    expect(summary).to_be_focused()
    expect(auction).to_have_js_property("open", chosen)
