"""The host's rules panel in the lobby (a `<details>`) opens and closes at the first click
even when the page is redrawn between the click and the panel's `toggle` event, which the
browser fires a task later: a frame arriving then (the answer to a rule just changed,
another setting) drew the panel again with its old state, and the click was lost, as it
was for the earlier matches' panel (scoresheet.js). The redraw is made to come exactly
there: a listener on the window, which a click reaches after the page's own, redraws the
page at once (as a change of language does)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, SMALL_PHONE
from .players import open_room
from .words import of

# Every click on the rules panel's summary redraws the page before its `toggle` fires.
REDRAW_AT_THE_CLICK = """() => window.addEventListener('click', (event) => {
  if (event.target instanceof Element && event.target.closest('#lobby .rules-details > summary'))
    document.dispatchEvent(new Event('languagechange'));
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, SMALL_PHONE], ids=["1280x900", "320x568"])
def test_the_rules_panel_keeps_the_click(new_page: Any, viewport: dict[str, int]) -> None:
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
