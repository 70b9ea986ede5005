"""The landing page by keyboard (issue 39): the name box, the first thing the page asks
for, is at most two Tabs from the page's start (it took seven, behind the top bar), at
1366x768, 375x667 and 320x568, in English, Norwegian and French; the top bar stays
reachable (Shift+Tab). On a touch phone the box is not focused by itself: its on-screen
keyboard would cover the page before the player chose to type."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .words import Words

LOCALES = {"en": "en-GB", "nb": "nb-NO", "fr": "fr-FR"}
FOCUSED_NAME = "el => el === document.activeElement"


@pytest.mark.parametrize(("lang", "viewport"), [("en", LAPTOP), ("nb", PHONE), ("fr", SMALL_PHONE)],
                         ids=["en-1366x768", "nb-375x667", "fr-320x568"])
def test_the_name_box_is_at_most_two_tabs_away(new_page: Any, lang: str,
                                               viewport: dict[str, int]) -> None:
    page = new_page(f"landing-{lang}", viewport=viewport, locale=LOCALES[lang])
    page.goto("/")
    w = Words(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    name = page.get_by_role("textbox", name=w.t("form.your_name"))
    tabs = 0
    while not name.evaluate(FOCUSED_NAME):
        assert tabs < 2, f"the name box is more than 2 Tabs away ({lang}, {viewport})"
        page.keyboard.press("Tab")
        tabs += 1
    page.keyboard.type("Kim")
    expect(name).to_have_value("Kim")
    # The language picker (or the menu that holds it on a phone) is behind, by Shift+Tab.
    picker = page.locator("#lang-select" if viewport == LAPTOP else "#menu-button")
    for _ in range(8):
        page.keyboard.press("Shift+Tab")
        if picker.evaluate(FOCUSED_NAME):
            break
    expect(picker).to_be_focused()


def test_a_touch_phone_does_not_open_its_keyboard_by_itself(new_page: Any) -> None:
    page = new_page("touch", viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto("/")
    expect(page.get_by_role("textbox", name="Your name")).not_to_be_focused()
