"""Keyboard only: create a practice table, bid and play a whole trick with Tab and Enter.
Practice shows hints; switching to French names the cards in French.  The table runs on a
1366x768 laptop screen, where the table, the controls and the whole hand fit on one screen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP
from .players import enabled_cards, focus_by_tab, hand, on_first_screen, tab_until, until_a_hang

ENABLED_CARD = ("el => el.closest('#hand') !== null && el.tagName === 'BUTTON'"
                " && el.getAttribute('aria-disabled') === 'false'")


def tricks_taken(page: Any) -> int:
    texts = page.get_by_text(re.compile(r"^Tricks: \d+$")).all_inner_texts()
    return sum(int(t.split()[-1]) for t in texts)


def your_turn_fits(page: Any) -> None:
    """The table, what you can do and your last card are all seen without scrolling."""
    on_first_screen(page, page.get_by_role("region", name="Table", exact=True), "the table")
    on_first_screen(page, page.get_by_role("region", name="Your move"), "the controls")
    on_first_screen(page, hand(page).get_by_role("button").last, "the last card of the hand")


def test_keyboard_only_practice(new_page: Any, artifacts: Path) -> None:
    page = new_page("solo", viewport=LAPTOP)
    page.goto("/")
    focus_by_tab(page, page.get_by_role("textbox", name="Your name"))
    page.keyboard.type("Kim")
    focus_by_tab(page, page.get_by_role("button", name="Practice"))
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))

    # A practice table starts at once: three bots, no chat, no joining.
    expect(hand(page).get_by_role("button")).to_have_count(12)
    expect(page.get_by_text("Bot 2", exact=True).first).to_be_visible()

    # Pass by keyboard when asked to bid (bots may take the contract).
    played = False
    for _ in until_a_hang():
        if page.get_by_role("button", name="Pass", exact=True).is_visible():
            # the strong bot's bid, and why ("Hint: Pass: your side would take ...")
            expect(page.get_by_text(re.compile("^Hint: (Pass|Bid|Amerikaner)"))).to_be_visible()
            your_turn_fits(page)
            tab_until(page, "el => el.textContent === 'Pass'")
            page.keyboard.press("Enter")
        elif page.get_by_role("button", name="Discard", exact=True).is_visible():
            raise AssertionError("a pass cannot win the auction")
        elif enabled_cards(page).count():
            before = tricks_taken(page)
            expect(page.get_by_text(re.compile("^Hint: "))).to_be_visible()
            your_turn_fits(page)
            tab_until(page, ENABLED_CARD)
            page.keyboard.press("Enter")
            played = True
            # The trick is finished by the bots; the focus stays in the hand.
            expect(hand(page).get_by_role("button")).to_have_count(11)
            page.wait_for_function(
                "n => [...document.querySelectorAll('.seat .won')].map(e => +e.textContent"
                ".replace(/\\D/g, '')).reduce((a, b) => a + b, 0) > n", arg=before)
            assert page.evaluate("document.activeElement.closest('#hand') !== null")
            break
        page.wait_for_timeout(100)
    assert played, "never got to play a card"
    page.screenshot(path=artifacts / "practice-desktop.png", full_page=True)

    # The four-colour deck: diamonds turn blue, clubs green.
    diamond = hand(page).get_by_role("button", name=re.compile(" of (diamonds|clubs)$")).first
    red = diamond.evaluate("el => getComputedStyle(el).color")
    page.get_by_role("checkbox", name="Four-colour deck").check()
    assert diamond.evaluate("el => getComputedStyle(el).color") != red

    # French: the cards are named in French.
    page.get_by_role("combobox", name="Language").select_option("fr")
    french_hand = page.get_by_role("region", name="Votre main")
    expect(french_hand.get_by_role("button").first).to_have_accessible_name(
        re.compile(r"^(.+ de (pique|cœur|carreau|trèfle)|Joker)$"))
    expect(page.get_by_role("heading", name="Feuille de marque")).to_be_visible()
