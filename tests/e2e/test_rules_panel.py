"""The lobby's panels (`<details>`: the host's rules, what the bot levels mean) open and
close at the first click even when the page is redrawn between the click and the panel's
`toggle` event, which the browser fires a task later: a frame arriving then (the answer
to a rule just changed, another setting) drew the rules panel again with its old state,
and the click was lost, as it was for the earlier matches' panel (scoresheet.js); the
bot levels' panel closed at any redraw. The redraw is made to come exactly there: a
listener on the window, which a click reaches after the page's own, redraws the page at
once (as a change of language does)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, SMALL_PHONE
from .players import open_room
from .words import of

# Every click on a lobby panel's summary redraws the page before its `toggle` fires.
REDRAW_AT_THE_CLICK = """() => window.addEventListener('click', (event) => {
  if (event.target instanceof Element && event.target.closest('#lobby details > summary'))
    document.dispatchEvent(new Event('languagechange'));
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, SMALL_PHONE], ids=["1280x900", "320x568"])
def test_the_lobby_panels_keep_the_click(new_page: Any, viewport: dict[str, int]) -> None:
    page = new_page("rules-panel", viewport=viewport)
    open_room(page, "Ann", "Create room")
    words = of(page)
    panel = page.locator("#lobby details.rules-details")
    summary = panel.locator("summary")
    expect(summary).to_have_text(words.t("lobby.change_rules"))
    page.evaluate(REDRAW_AT_THE_CLICK)
    form = panel.locator(".rules-form")
    summary.click()
    expect(panel).to_have_attribute("open", "")
    expect(form).to_be_visible()
    # and by the keyboard, closed again, the focus still on it (the redraw made it anew)
    summary.focus()
    page.keyboard.press("Enter")
    expect(panel).not_to_have_attribute("open", "")
    expect(form).to_be_hidden()
    expect(summary).to_be_focused()

    levels = page.locator("#lobby details.bot-levels")
    levels.locator("summary").click()
    expect(levels).to_have_attribute("open", "")
    expect(levels.locator("dl")).to_be_visible()
    # and it stays open when the host's next change of the rules draws the lobby again
    summary.click()
    expect(form).to_be_visible()
    form.get_by_role("combobox", name=words.t("lobby.preset")).select_option("norsk")
    expect(page.locator("#lobby .rules-summary li").first).to_have_text(
        words.t("preset.label.norsk"))
    expect(levels).to_have_attribute("open", "")
    expect(form).to_be_visible()
