"""Notices float over the top bar, never over the turn line or the table (issue 39: on a
phone "Link copied" hid "Your turn" for 6 s), on a phone and a laptop, in en, nb, fr."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import choose_language, hand, open_room
from .words import of

# The two elements' boxes overlap (in the window's coordinates).
OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
}"""


CASES = [(PHONE, "en"), (LAPTOP, "nb"), (PHONE, "fr"), (LAPTOP, "en"), (SMALL_PHONE, "fr")]


def test_a_notice_covers_neither_the_turn_line_nor_the_table(
        new_page: Any, artifacts: Path) -> None:
    """One browser context for the five cases (a context each made five, a renderer and
    a cold cache each): at each, the window is set first and a new room opened from the
    landing page, in English again (the language chosen before is put back)."""
    page = new_page("toast", viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    for viewport, lang in CASES:
        page.set_viewport_size(viewport)
        notice_beside_the_table(page, artifacts, viewport, lang)
        choose_language(page, "en")  # (open_room speaks English)


def notice_beside_the_table(page: Any, artifacts: Path, viewport: dict[str, int],
                            lang: str) -> None:
    open_room(page, "Ann", "Create room")
    page.get_by_role("button", name="Start").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)
    choose_language(page, lang)
    words = of(page)
    expect(page.locator("#turn-status")).not_to_be_empty()
    page.get_by_role("button", name=words.t("room.copy_link"), exact=True).click()
    notice = page.locator("#room-notice")
    expect(notice).to_have_text(words.t("room.link_copied"))
    page.screenshot(path=str(artifacts / f"toast-{lang}-{viewport['width']}.png"))
    for what in ("#turn-status", "#table", "#hand"):
        assert not page.evaluate(OVERLAP, ["#room-notice", what]), f"the notice covers {what}"
