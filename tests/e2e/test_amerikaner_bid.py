"""Issue 39: the Amerikaner bid never commits on one press.  Its button says what the bid
is (every trick alone, no trump, no partner, and its points either way) and asks once: a
question under the bids with `Yes, bid Amerikaner` and `No, back to the bids`.  Tried by
mouse (a click, a double click), by touch (a tap) and by keyboard (Enter, Escape), in
English, Norwegian and French, on a laptop and a phone; the bid goes only on `Yes`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import choose_language, open_room
from .words import Words

CASES = [("en", LAPTOP, "keyboard"), ("nb", PHONE, "touch"), ("fr", PHONE, "mouse"),
         ("fr", SMALL_PHONE, "touch")]


def focused_name(page: Any) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.textContent"))


def test_the_amerikaner_bid_says_what_it_is_and_asks_once(
        new_page: Any, artifacts: Path) -> None:
    """One browser context (with touch) for the four cases (a context each made four, a
    renderer and a cold cache each): at each, the window is set first and a new practice
    table opened from the landing page, in English again (the language chosen before is
    put back)."""
    page = new_page("amerikaner", viewport=CASES[0][1], has_touch=True)
    for lang, viewport, commit in CASES:
        page.set_viewport_size(viewport)
        ask_and_bid(page, artifacts, lang, viewport, commit)
        choose_language(page, "en")  # (open_room speaks English)


def ask_and_bid(page: Any, artifacts: Path, lang: str, viewport: dict[str, int],
                commit: str) -> None:
    open_room(page, "Kim", "Practice", single_round=True)
    choose_language(page, lang)
    words = Words(lang)
    pass_button = page.get_by_role("button", name=words.t("bid.pass"), exact=True)
    expect(pass_button).to_be_visible()  # our turn in the auction
    amerikaner = page.get_by_role("button", name=words.t("bid.amerikaner"), exact=True)
    expect(amerikaner).to_be_enabled()
    # what the bid is, in the rules' figures: the tricks of a hand and 52 points
    about = words.pattern("auction.amerikaner_about", hand_size=r"\d+", points="52")
    expect(amerikaner).to_have_accessible_description(about)
    expect(amerikaner).to_have_attribute("aria-expanded", "false")
    question = page.get_by_role("group", name=words.pattern(
        "auction.amerikaner_question", whole=False))
    yes = page.get_by_role("button", name=words.t("auction.amerikaner_yes"), exact=True)
    no = page.get_by_role("button", name=words.t("auction.amerikaner_no"), exact=True)

    def asked(*, focus: bool = True) -> None:
        expect(question).to_be_visible()
        expect(question).to_contain_text(words.pattern(
            "auction.amerikaner_about", whole=False, hand_size=r"\d+", points="52"))
        expect(amerikaner).to_have_attribute("aria-expanded", "true")
        if focus:  # (the second press of a double click focuses what it lands on)
            expect(no).to_be_focused()  # the safe answer first
        expect(pass_button).to_be_visible()  # nothing was bid

    def taken_back() -> None:
        expect(question).to_have_count(0)
        expect(amerikaner).to_be_focused()
        expect(pass_button).to_be_visible()

    # mouse: a click asks, `No` takes it back
    amerikaner.click()
    asked()
    page.screenshot(path=artifacts / f"amerikaner-question-{lang}-{viewport['width']}.png")
    no.click()
    taken_back()
    # a double click asks once: its second click acts on nothing (not the question's Yes,
    # nor a bid the question moved under the pointer)
    amerikaner.dblclick()
    asked(focus=False)
    no.click()
    taken_back()
    # touch: a tap asks, a tap on `No` takes it back
    amerikaner.tap()
    asked()
    no.tap()
    taken_back()
    # keyboard: Enter asks, Escape takes it back
    amerikaner.focus()
    page.keyboard.press("Enter")
    asked()
    page.keyboard.press("Escape")
    taken_back()

    # the second press, on Yes, bids it
    if commit == "keyboard":
        page.keyboard.press("Enter")
        asked()
        page.keyboard.press("Shift+Tab")
        expect(yes).to_be_focused()
        page.keyboard.press("Enter")
    elif commit == "touch":
        amerikaner.tap()
        asked()
        yes.tap()
    else:
        amerikaner.click()
        asked()
        yes.click()
    expect(pass_button).to_be_hidden()
    expect(page.locator("#contract")).to_contain_text(
        words.t("contract.bid", name="Kim", bid=words.t("bid.amerikaner")))
