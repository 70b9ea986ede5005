"""A finished trick stays in view long enough to be seen (issue 39): at least 1.2 s (up to
2 s at the slowest bot pace) even when a bot leads the next trick at once, unless the
player moves on: `Next trick` (a click on the trick, or the keyboard) or playing their
own card. The deal's last trick offers no `Next trick`: there is none to move on to.
The page's clock is Playwright's fake one, paused: the hold's time passes only when the
test says so, whatever the machine's speed (bots here act within 0.05 s)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import (
    choose_language,
    deal_over,
    enabled_cards,
    hand,
    open_room,
    take_turn,
    until_a_hang,
)
from .words import of

# The cards the trick area shows, and whether one of them is marked as the winner (a
# finished trick held in the middle).
TRICK_SHOWN = """() => {
  const area = document.getElementById('trick');
  const cards = [...area.querySelectorAll('.played')];
  const won = cards.find(c => c.classList.contains('winner'));
  return {count: cards.length, held: !!won, ours: !!won && won.classList.contains('pos-bottom'),
          card: won ? won.dataset.card : null};
}"""

# Every moment the page showed `Next trick` with nothing left to play: our hand played
# out, or the deal over (recorded as it happens, so that a flash between states counts).
NEXT_AFTER_THE_LAST = """() => {
  window.nextAfterTheLast = [];
  new MutationObserver(() => {
    const next = document.querySelector('#trick .trick-next');
    const phase = document.getElementById('room').dataset.phase;
    const cards = document.querySelectorAll('#hand button').length;
    if (next && (cards === 0 || phase === 'deal_over' || phase === 'match_over'))
      window.nextAfterTheLast.push(`${phase}, ${cards} cards`);
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""

# Whether the phone's dock (the controls, the hint and the hand, fixed at the bottom)
# covers the trick's area: its rows are fixed, its box is where any card of a trick may
# lie, and no animation moves it (a trick being collected slides its cards, not it).
# Null when it does not; else, read in the same moment (a later look may see another
# state), the window, the phase, the dock's top, height and words, the trick's area
# and cards, and the height of each thing above the trick.
# Measured only while the page still offers a card to play, checked in the same task as
# the measure: the state after our last card (the deal over, the result shown) may come
# between the test's look at the page and this.
TRICK_UNDER_DOCK = """() => { scrollTo(0, 0);
  if (!document.querySelector('#hand button.playable')) return null;
  const dock = document.querySelector('.dock');
  const box = dock.getBoundingClientRect();
  const area = document.getElementById('trick').getBoundingClientRect();
  if (area.bottom <= box.top + 0.5) return null;
  return {window: [innerWidth, innerHeight, scrollY],
          phase: document.getElementById('room').dataset.phase,
          dock_top: box.top, dock_height: box.height, dock_text: dock.innerText,
          area: [area.top, area.bottom],
          trick: [...document.querySelectorAll('#trick .played')].map(
            p => [p.dataset.card, p.getBoundingClientRect().bottom]),
          above: [...document.querySelectorAll(
            '.topbar, #conn-status, #turn-status, #stood-in, #contract, .seat')].map(
            e => [e.id || e.className, Math.round(e.getBoundingClientRect().height)])}; }"""


def our_turn_to_play(page: Any) -> bool:
    words = of(page)
    return bool(enabled_cards(page).count()
                and not page.get_by_role("button", name=words.t("bid.pass"), exact=True).count()
                and not page.get_by_role("button", name=words.t("discard.button"), exact=True)
                .count())


def practice_on_a_still_clock(page: Any, name: str, lang: str) -> tuple[Any, Any]:
    """A practice table in ``lang``, its 12 cards dealt, the page's clock then stopped (it
    moves only when the test runs it); the page and its `Next trick` button."""
    page.clock.install()
    open_room(page, name, "Practice")
    choose_language(page, lang)
    words = of(page)
    expect(hand(page).get_by_role("button")).to_have_count(12)
    # (a second on: a date, as Playwright's Python reads a number as seconds, and the
    # page's milliseconds were a date some 50,000 years on)
    page.clock.pause_at(datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1, UTC))
    next_trick = page.locator("#trick").get_by_role("button", name=words.t("trick.next"),
                                                    exact=True)
    return page, next_trick


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "en"), (LAPTOP, "nb"), (PHONE, "fr"),
                                                (SMALL_PHONE, "nb")])
def test_a_finished_trick_stays_until_seen(new_page: Any, artifacts: Path,
                                           viewport: dict[str, int], lang: str) -> None:
    page, next_trick = practice_on_a_still_clock(
        new_page(f"trick-{lang}", viewport=viewport, reduced_motion="no-preference"), "Fay", lang)

    waited = clicked = 0
    for _ in until_a_hang():
        if deal_over(page) or (waited and clicked):
            break
        if our_turn_to_play(page) and hand(page).get_by_role("button").count() < 12:
            shown = page.evaluate(TRICK_SHOWN)
            if shown["held"] and shown["count"] == 4 and not shown["ours"] and not waited:
                # The trick just finished is still there though its winner led: 1.15 s on
                # it has not gone; once its time (at most 2 s) and the collecting are
                # over, it has, and what was led (if anything) is on the table.
                expect(next_trick).to_be_visible()
                page.screenshot(path=str(artifacts / f"trick-held-{lang}-{viewport['width']}.png"))
                page.clock.run_for(1150)
                assert page.evaluate(TRICK_SHOWN)["held"], "the trick went before 1.2 s"
                page.clock.run_for(1300)
                expect(next_trick).to_have_count(0)
                assert not page.evaluate(TRICK_SHOWN)["held"], "the trick stayed on"
                waited += 1
            elif shown["held"] and shown["count"] == 4:
                # Seen enough: `Next trick` by the keyboard, or a click on the trick's
                # cards (on the phone), takes it away at once.
                if viewport != LAPTOP:
                    page.locator("#trick .played.winner").click()
                else:
                    next_trick.focus()
                    page.keyboard.press("Enter")
                expect(next_trick).to_have_count(0)
                assert not page.evaluate(TRICK_SHOWN)["held"], "Next trick did nothing"
                clicked += 1
        held = page.evaluate(TRICK_SHOWN)["card"]
        if take_turn(page, bid=False) == "play" and held:
            # Playing our own card is moving on too: the held trick gives way to it (a
            # trick our card ends is held anew, without the old one's winning card).
            expect(page.locator(f"#trick .played.winner[data-card='{held}']")).to_have_count(0)
        page.wait_for_timeout(50)
    assert waited and clicked, f"saw a held trick at our turn {waited} + {clicked} times"


# (The dock at every size and language, whatever the table holds: test_phone_dock.py.)
@pytest.mark.parametrize(("viewport", "lang"), [(LAPTOP, "en"), (SMALL_PHONE, "fr")],
                         ids=["en-1366x768", "fr-320x568"])
def test_the_last_trick_offers_no_next_trick(new_page: Any, artifacts: Path,
                                             viewport: dict[str, int], lang: str) -> None:
    # The clock stands still: whatever the deal's last trick shows stays shown.
    page, next_trick = practice_on_a_still_clock(
        new_page(f"last-{lang}", viewport=viewport, reduced_motion="no-preference"), "Gus", lang)
    page.evaluate(NEXT_AFTER_THE_LAST)
    for _ in until_a_hang():
        if deal_over(page):
            break
        if viewport != LAPTOP and our_turn_to_play(page):
            # the trick to follow is above the dock, hint and all (a 320 px phone's
            # contract took three lines and pushed it under)
            covered = page.evaluate(TRICK_UNDER_DOCK)
            assert covered is None, f"the dock covers the trick: {covered}"
        take_turn(page, bid=False)
        page.wait_for_timeout(50)
    assert deal_over(page), "the deal did not end"
    expect(hand(page).get_by_role("button")).to_have_count(0)
    page.screenshot(path=str(artifacts / f"last-trick-{lang}-{viewport['width']}.png"))
    expect(next_trick).to_have_count(0)
    assert page.locator("#trick").get_attribute("data-action") is None, \
        "a click on the last trick would move on"
    page.clock.run_for(2500)  # its hold's time over: still nothing to move on to
    expect(next_trick).to_have_count(0)
    assert page.evaluate("window.nextAfterTheLast") == [], "Next trick showed after the last"
