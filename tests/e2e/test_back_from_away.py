"""A person back after a bot stood in for them is told what it did for them (issue 39):
a summary under the turn line, in their language, until they dismiss it (or make their
own next move); "Bob is back" is for the others, not for Bob."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import hand, open_room, take_turn, until_a_hang
from .words import of

# Bob's size and language at each return (the page's ?lang=).  Ann, who only hosts and
# plays on, keeps one browser for every case (a context of her own in each made four, a
# renderer and a cold cache each); Bob gets a browser of his own in each, a new room each.
CASES = [(PHONE, "en"), (LAPTOP, "nb"), (PHONE, "fr"), (SMALL_PHONE, "fr")]


def test_back_from_away_reads_what_the_stand_in_did(new_page: Any, artifacts: Path) -> None:
    ann = new_page("ann", viewport=LAPTOP)
    for viewport, lang in CASES:
        back_from_away(new_page, ann, artifacts, viewport, lang)


def back_from_away(new_page: Any, ann: Any, artifacts: Path, viewport: dict[str, int],
                   lang: str) -> None:
    """One case, in a new room of Ann's: Bob joins at ``viewport``, is away while the
    stand-in plays, comes back in ``lang`` and reads what it did for him."""
    open_room(ann, "Ann", "Create room")
    bob = new_page(f"bob-{lang}", viewport=viewport)
    bob.goto(ann.url)
    bob.get_by_role("textbox", name="Your name").fill("Bob")
    bob.get_by_role("button", name="Join", exact=True).click()
    expect(ann.locator("#chat-log").get_by_text("Bob took a seat.")).to_be_visible()
    ann.get_by_text("Change the rules").click()
    grace = ann.get_by_role("spinbutton", name="Seconds before a bot plays for someone away")
    grace.fill("0")  # the stand-in plays Bob's first turn at once
    grace.press("Tab")
    ann.get_by_role("button", name="Start").click()
    expect(hand(bob).get_by_role("button")).to_have_count(12)
    url, context = bob.url, bob.context
    bob.close()

    # Ann plays on until a trick is done: the stand-in has passed and played for Bob.
    away = ann.locator(".seat[aria-label='Bob']").get_by_text("away, a bot is playing")
    strip = ann.get_by_role("group", name="Last trick")
    for _ in until_a_hang():
        if away.count() and strip.is_visible():
            break
        take_turn(ann, bid=True)
        ann.wait_for_timeout(50)
    assert away.count() and strip.is_visible(), "the stand-in never played a trick for Bob"

    bob = context.new_page()
    # every text the page's notice shows, however briefly
    bob.add_init_script("""window.noticesSeen = [];
      addEventListener('DOMContentLoaded', () => {
        const notice = document.getElementById('room-notice');
        new MutationObserver(() => window.noticesSeen.push(notice.textContent))
          .observe(notice, {childList: true, characterData: true, subtree: true});
      });""")
    bob.goto(f"{url}?lang={lang}")
    words = of(bob)
    summary = bob.get_by_role("status").filter(has_text=words.t("standin.passed"))
    expect(summary).to_be_visible()
    played = words.t("standin.played", cards="").strip()
    expect(summary).to_contain_text(played)
    bob.screenshot(path=str(artifacts / f"back-from-away-{lang}-{viewport['width']}.png"))
    # Ann is told Bob is back; Bob is not told about himself.
    expect(ann.locator("#room-notice")).to_have_text("Bob is back.")
    seen = bob.evaluate("window.noticesSeen")
    assert words.t("notice.returned", name="Bob") not in seen, seen
    bob.get_by_role("button", name=words.t("standin.dismiss"), exact=True).click()
    expect(summary).to_have_count(0)
    bob.close()  # gone again, as Ann is: the table stops, not drawn beside the next case
