"""Issue 23's polish in real browsers: the discard by keyboard ends on Discard and the
first lead's calls start at the call the hint would make (1366x768, 375x667 and 320x568),
with the kitty in view while discarding; the calls name the card with its article in French and
in lower case in Norwegian; the vibration switch (labelled in three languages, kept over
a reload, and a turn that does not vibrate while it is off); counted phrases in their
plural form ("1 seat free") and hint figures with the language's decimal comma."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import (
    bid_the_highest,
    choose_language,
    deal_over,
    hand,
    no_horizontal_scroll,
    open_room,
    tab_until,
    take_turn,
)
from .words import LANGUAGES, Words

ENABLED_CARD = ("el => el.closest('#hand') !== null && el.tagName === 'BUTTON'"
                " && el.getAttribute('aria-disabled') === 'false'")
# A playable card the hint does not point at (so the calls start at the rule's card).
UNHINTED_CARD = ("el => el.closest('#hand') !== null && el.tagName === 'BUTTON'"
                 " && el.getAttribute('aria-disabled') === 'false'"
                 " && !el.classList.contains('hinted')")
ANY_HAND_CARD = "el => el.closest('#hand') !== null && el.tagName === 'BUTTON'"

# The call the focus should start at, from the page alone: the hinted call, else the
# highest call by rank, else the first button (Play alone); and the one that has it.
CALL_START = """() => {
  const calls = [...document.querySelectorAll('#controls .calls button')];
  const withCall = calls.filter(b => b.dataset.call);
  const ranks = '23456789TJQKA';
  const rank = b => ranks.indexOf(b.dataset.call[0]);
  const hinted = withCall.find(b => b.classList.contains('hinted'));
  const highest = withCall.reduce((a, b) => (!a || rank(b) > rank(a) ? b : a), null);
  const want = hinted || highest || calls[0];
  const name = b => b ? b.querySelector('.sr-only')?.textContent || b.textContent : null;
  return { want: name(want), focused: name(calls.find(b => b === document.activeElement)),
           lowest: name(withCall[0]), calls: withCall.length }; }"""

# Each kitty card in the middle of the table: inside the table and the window, and on top
# at its centre (not under the sticky hand and controls of a phone).
KITTY_HIDDEN = """() => { scrollTo(0, 0);
  const table = document.getElementById('table').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#center-panel .kitty-row .card')];
  if (!cards.length) return ['no kitty shown'];
  const problems = [];
  for (const c of cards) {
    const r = c.getBoundingClientRect();
    if (r.left < table.left - 0.5 || r.right > table.right + 0.5 || r.top < table.top - 0.5
        || r.bottom > table.bottom + 0.5) problems.push(`${c.dataset.card} outside the table`);
    if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
      problems.push(`${c.dataset.card} outside the window`);
      continue;
    }
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!top || !c.contains(top)) problems.push(`${c.dataset.card} covered`);
  }
  return problems; }"""

# The two phones share a browser context (mobile, with touch), each size with a new
# practice table opened at it: a context a size made three, a renderer and a cold cache
# each.
VIEWPORTS = [pytest.param([LAPTOP], id="1366x768"),
             pytest.param([PHONE, SMALL_PHONE], id="375x667-and-320x568")]


def phone_options(viewport: dict[str, int]) -> dict[str, Any]:
    return {"has_touch": True, "is_mobile": True} if viewport != LAPTOP else {}


def win_the_auction(page: Any) -> None:
    """Practice single rounds until this page's player wins the auction (by bidding the
    highest number at once) and must discard."""
    discard = page.get_by_role("button", name="Discard", exact=True)

    def discarding() -> bool:
        if page.locator("#room").get_attribute("data-phase") != "discard":
            return False
        try:  # (a bot's discard has no Discard button for us)
            discard.wait_for(timeout=3000)
        except PlaywrightError:
            return False
        return True

    for _ in range(8):
        open_room(page, "Kim", "Practice", single_round=True)
        expect(hand(page).get_by_role("button")).to_have_count(12)
        if bid_the_highest(page, discarding):
            return
    raise AssertionError("never won an auction in eight rounds")


@pytest.mark.parametrize("viewports", VIEWPORTS)
def test_discard_and_first_lead_by_keyboard(new_page: Any,
                                            viewports: list[dict[str, int]]) -> None:
    page = new_page("bidder", viewport=viewports[0], **phone_options(viewports[0]))
    for viewport in viewports:
        page.set_viewport_size(viewport)
        discard_and_first_lead(page)


def discard_and_first_lead(page: Any) -> None:
    win_the_auction(page)

    # The kitty is in view in the middle of the table while the bidder discards, with the
    # hint under the table (the dock at its tallest).
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible(timeout=60_000)
    assert page.evaluate(KITTY_HIDDEN) == [], "the kitty is not all in view"

    # Choose the discards with Enter and the arrow keys: the last one moves the focus to
    # Discard, one Enter away.
    prompt = page.get_by_text(re.compile(r"^Choose \d+ cards? to discard\.$")).inner_text()
    count = int(re.findall(r"\d+", prompt)[0])
    tab_until(page, ANY_HAND_CARD)
    discard = page.get_by_role("button", name="Discard", exact=True)
    for i in range(count):
        page.keyboard.press("Enter")
        if i < count - 1:
            expect(discard).not_to_be_focused()
            page.keyboard.press("ArrowRight")
    expect(hand(page).get_by_role("button", pressed=True)).to_have_count(count)
    expect(discard).to_be_focused()
    page.keyboard.press("Enter")

    # The first lead: Enter on a card, and the calls start at the card the hint would
    # call (the highest card of the suit that another player holds), not the lowest.
    expect(page.locator("#room")).to_have_attribute("data-phase", "lead")
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible(timeout=60_000)
    tab_until(page, ENABLED_CARD)
    arrow_until(page, UNHINTED_CARD)
    page.keyboard.press("Enter")
    calls = page.get_by_role("group", name="Call a card")
    expect(calls.get_by_role("button").first).to_be_visible()
    start = page.evaluate(CALL_START)
    assert start["focused"] == start["want"], start
    expect(calls.get_by_role("button", name=start["want"], exact=True)).to_be_focused()

    # The calls in Norwegian and French name the card as a sentence does.
    choose_language(page, "nb")
    nb_names = calls_names(page, "Rop et kort")
    assert nb_names and all(re.fullmatch(
        r"Rop (spar|hjerter|ruter|kløver) (to|tre|fire|fem|seks|sju|åtte|ni|ti|knekt|dame"
        r"|konge|ess)|Spill alene", n) for n in nb_names), nb_names
    # The hand's cards are named anew too (hand.js keeps a button only in its language).
    names = hand(page).get_by_role("button").evaluate_all("bs => bs.map(b => b.textContent)")
    assert names and all(re.match(r"(?i)(spar|hjerter|ruter|kløver) ", n) for n in names), names
    choose_language(page, "fr")
    fr_names = calls_names(page, "Appeler une carte")
    assert fr_names and all(re.fullmatch(
        r"Appeler (le (deux|trois|quatre|cinq|six|sept|huit|neuf|dix|valet|roi)|la dame|l'as)"
        r" de (pique|cœur|carreau|trèfle)|Jouer seul", n) for n in fr_names), fr_names
    choose_language(page, "en")


def arrow_until(page: Any, predicate: str, limit: int = 16) -> None:
    """Press the right arrow (inside a roving group: the hand) until ``predicate`` holds for
    the focused element, or every item was tried (then the focus stays where it is)."""
    check = f"({predicate})(document.activeElement)"
    for _ in range(limit):
        if page.evaluate(check):
            return
        page.keyboard.press("ArrowRight")


def calls_names(page: Any, group: str) -> list[str]:
    """The accessible names of the call buttons in the group named ``group``."""
    buttons = page.get_by_role("group", name=group).get_by_role("button")
    expect(buttons.first).to_be_visible()
    names: list[str] = buttons.evaluate_all(
        "bs => bs.map(b => b.querySelector('.sr-only')?.textContent || b.textContent.trim())")
    return names


RECORD_VIBRATIONS = """
  window.__vibrations = [];
  Object.defineProperty(Navigator.prototype, 'vibrate', { configurable: true,
    value: function (pattern) { window.__vibrations.push(pattern); return true; } });
"""


def play_turns(page: Any, turns: int) -> int:
    """Take up to ``turns`` turns (passing, any card) as they come; how many were taken."""
    taken = 0
    deadline = time.monotonic() + 120
    while taken < turns and not deal_over(page) and time.monotonic() < deadline:
        if take_turn(page, bid=False):
            taken += 1
        else:
            page.wait_for_timeout(60)
    return taken


def test_vibration_switch(new_page: Any) -> None:
    page = new_page("phone", viewport=PHONE, has_touch=True, is_mobile=True)
    page.add_init_script(RECORD_VIBRATIONS)
    open_room(page, "Kim", "Practice")
    expect(hand(page).get_by_role("button")).to_have_count(12)
    page.get_by_role("button", name="Menu").click()
    switch = page.get_by_role("checkbox", name="Vibrate on your turn")
    expect(switch).to_be_checked()  # on by default, as before the switch
    switch.uncheck()
    page.get_by_role("button", name="Menu").click()
    # (a turn that began before the switch went off may have vibrated already)
    page.evaluate("window.__vibrations = []")

    # Off: new turns come (and the page has been touched), nothing vibrates.
    assert play_turns(page, 3) >= 2
    assert page.evaluate("window.__vibrations") == []

    # Kept over a reload; on again, the next turn vibrates.
    page.reload()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    page.get_by_role("button", name="Menu").click()
    switch = page.get_by_role("checkbox", name="Vibrate on your turn")
    expect(switch).not_to_be_checked()
    switch.check()
    page.get_by_role("button", name="Menu").click()
    deadline = time.monotonic() + 120
    while not page.evaluate("window.__vibrations.length") and time.monotonic() < deadline:
        if deal_over(page):
            break
        if not take_turn(page, bid=False):
            page.wait_for_timeout(60)
    vibrations = page.evaluate("window.__vibrations")
    assert vibrations and set(vibrations) == {120}, vibrations

    # Labelled in each language; on a laptop too (the browser can vibrate).
    choose_language(page, "nb")
    page.get_by_role("button", name="Meny").click()
    expect(page.get_by_role("checkbox", name="Vibrer når det er din tur")).to_be_checked()
    page.get_by_role("button", name="Meny").click()
    choose_language(page, "fr")
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_role("checkbox", name="Vibrer à votre tour")).to_be_checked()
    laptop = new_page("laptop", viewport=LAPTOP)
    laptop.goto(page.url)
    for code in LANGUAGES:  # in the top bar, which its longer labels do not widen
        choose_language(laptop, code)
        switch = laptop.get_by_role("checkbox", name=Words(code).t("settings.vibrate"))
        expect(switch).to_be_visible()
        no_horizontal_scroll(laptop)


def test_counted_phrases_and_decimal_commas(new_page: Any) -> None:
    host = new_page("host", viewport=LAPTOP)
    open_room(host, "Ann", "Create room")
    expect(host.get_by_text("Waiting for players: 3 seats free.")).to_be_visible()
    for name in ("Bob", "Cai"):
        guest = new_page(name, viewport=PHONE)
        guest.goto(host.url)
        guest.get_by_role("textbox", name="Your name").fill(name)
        guest.get_by_role("button", name="Join", exact=True).click()
        expect(host.get_by_text(f"{name} took a seat.")).to_be_visible()
    expect(host.get_by_text("Waiting for players: 1 seat free.")).to_be_visible()
    choose_language(host, "nb")
    expect(host.get_by_text("Venter på spillere: 1 ledig plass.")).to_be_visible()
    choose_language(host, "fr")
    expect(host.get_by_text("En attente des joueurs : 1 place libre.")).to_be_visible()

    # A practice hint's figures: "10,9 stikk", "10,9 plis", never "10.9".
    solo = new_page("solo", viewport=LAPTOP)
    open_room(solo, "Kim", "Practice")
    expect(hand(solo).get_by_role("button")).to_have_count(12)
    words = {"nb": (r"^Tips: ", r"omtrent (\d+(,\d)?) stikk"),
             "fr": (r"^Conseil : ", r"environ (\d+(,\d)?) plis?")}
    for code, (start, figure) in words.items():
        choose_language(solo, code)
        hint = solo.get_by_text(re.compile(start))
        expect(hint).to_be_visible(timeout=60_000)
        text = hint.inner_text()
        assert not re.search(r"\d\.\d", text), text
        if re.search(r"(omtrent|environ) \d", text):
            assert re.search(figure, text), text
