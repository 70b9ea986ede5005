"""Issue 23: a late joiner's column starts at their first deal.  Ann starts a table with
bots and drops (her grace is 0: a bot plays for her at once); Cy joins in the first deal,
plays from the second, and the score sheet shows the first deal's points in Cy's column
as the bot's: faded, the column saying from which deal Cy plays, a note under the table,
and each such cell naming the bot to a screen reader.  Seen by Cy on a phone (375x667 and
320x568, where no header word may split: issue 39) and by a spectator on a laptop, each
in English, Norwegian and French."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import choose_language, hand, no_horizontal_scroll, open_room, take_turn
from .words import LANGUAGES, Words

# The words of the score sheet's headers that are split over two lines.
BROKEN_WORDS = """() => { const out = [];
  for (const th of document.querySelectorAll('#score-sheet thead th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) out.push(m[0]);
      } } }
  return out; }"""
# How far the current sheet reaches past its box (it scrolls sideways when above 0).
SHEET_SCROLLS = """() => { const w = document.querySelector('#score-sheet .score-wrap');
  return w.scrollWidth - w.clientWidth; }"""


def test_a_late_joiners_column_shows_the_bots_deals_before_theirs(new_page: Any) -> None:
    ann = new_page("ann", viewport=LAPTOP)
    open_room(ann, "Ann", "Create room")
    en = Words("en")
    ann.get_by_text(en.t("lobby.change_rules")).click()
    ann.get_by_role("combobox", name=en.t("settings.bot_pace")).select_option("fast")
    grace = ann.get_by_role("spinbutton", name=en.t("lobby.grace"))
    grace.fill("0")
    grace.press("Tab")
    pause = ann.get_by_role("spinbutton", name=en.t("lobby.pause"))
    pause.fill("1")  # the second deal soon after the first
    pause.press("Tab")
    ann.get_by_role("button", name=en.t("lobby.start")).click()
    expect(hand(ann).get_by_role("button")).to_have_count(12)
    # Ann bids: the first deal is under way and cannot be passed out (a redealt first
    # deal would be Cy's from its start), then she drops and a bot plays for her.
    deadline = time.monotonic() + 60
    while take_turn(ann, bid=True) != "bid":
        assert time.monotonic() < deadline, "Ann never bid"
        ann.wait_for_timeout(50)
    url = ann.url
    ann.goto("about:blank")

    cy = new_page("cy", viewport=PHONE, locale="nb-NO", has_touch=True, is_mobile=True)
    nb = Words("nb")
    cy.goto(url)
    cy.get_by_role("textbox", name=nb.t("form.your_name")).fill("Cy")
    cy.get_by_role("button", name=nb.t("home.join"), exact=True).click()
    expect(cy.get_by_text(nb.t("status.joining"))).to_be_visible()
    watcher = new_page("eve", viewport=LAPTOP)
    watcher.goto(url)  # (no seat's token: a spectator)
    # The bots play the first deal; Cy's first is the second (her turn waits for her).
    expect(hand(cy, nb).get_by_role("button")).to_have_count(12, timeout=60_000)

    for page, size in ((cy, PHONE), (cy, SMALL_PHONE), (watcher, LAPTOP)):
        page.set_viewport_size(size)
        for code in LANGUAGES:
            choose_language(page, code)
            column_marked(page, Words(code))
            # Headers wrap between words: "Donn/e" on a 320 px phone was issue 39's.
            assert page.evaluate(BROKEN_WORDS) == [], f"{code} {size}: words split"
            if size != LAPTOP:
                no_horizontal_scroll(page)
                assert page.evaluate(SHEET_SCROLLS) <= 0, f"{code} {size}: the sheet scrolls"


def column_marked(page: Any, w: Words) -> None:
    """Cy (the second seat, Bot 2's) plays from deal 2: the sheet's first row is Bot 2's
    in Cy's column."""
    sheet = page.get_by_role("region", name=w.t("room.score_sheet"))
    table = sheet.get_by_role("table", name=w.t("room.score_sheet"))
    cy = table.get_by_role("columnheader").filter(has_text=w.t("scores.from_deal", n=2))
    expect(cy).to_have_count(1)
    expect(cy).to_contain_text("Cy")
    bot = w.t("seat.bot", n=2)
    first = table.get_by_role("row").nth(1)  # (row 0: the names)
    # the row is named by its number (a Replay button may be in it)
    expect(first.get_by_role("rowheader")).to_have_accessible_name("1")
    cells = first.get_by_role("cell")
    played = cells.nth(1)  # Cy's (the row header is no cell)
    expect(played).to_contain_text(w.t("scores.played_by", bot=bot))
    expect(played).to_have_class(re.compile(r"\bby-bot\b"))
    for seat in (0, 2, 3):  # the others' seats were played by their players
        expect(cells.nth(seat)).not_to_contain_text(w.t("scores.played_by", bot=bot))
    expect(sheet.get_by_text(w.t("scores.joined", name="Cy", n=2, bot=bot),
                             exact=True)).to_be_visible()


LOCALES = {"en": "en-GB", "nb": "nb-NO", "fr": "fr-FR"}


def test_a_late_joiner_chooses_which_bots_seat_to_take(new_page: Any) -> None:
    """Issue 39: with every other seat a bot's, the watcher reads that joining works now
    (not "when a seat is free"), and takes the seat they choose with its own button; in
    English on a laptop, Norwegian on a phone, French on a small phone.  Ann, who only
    hosts, keeps one browser for the three (a context of her own in each made three, a
    renderer and a cold cache each); Cy gets one of his own in each, a new room each."""
    ann = new_page("ann", viewport=LAPTOP)
    for lang, viewport in (("en", LAPTOP), ("nb", PHONE), ("fr", SMALL_PHONE)):
        cy = late_joiner_takes_a_seat(new_page, ann, lang, viewport)
        cy.close()  # gone: his table does not play on beside the next one


def late_joiner_takes_a_seat(new_page: Any, ann: Any, lang: str,
                             viewport: dict[str, int]) -> Any:
    """One case, in a new room of Ann's: Cy's page at the end."""
    open_room(ann, "Ann", "Create room")
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(hand(ann).get_by_role("button")).to_have_count(12)

    w = Words(lang)
    cy = new_page("cy", viewport=viewport, locale=LOCALES[lang])
    cy.goto(ann.url)
    panel = cy.get_by_role("region", name=w.t("room.join_heading"))
    expect(panel).to_contain_text(w.tn("room.watching_bots", 3, n=3))
    expect(panel).not_to_contain_text(w.t("room.watching"))
    choices = panel.get_by_role("group", name=w.t("room.join_seats"))
    for seat in (2, 3, 4):
        expect(choices.get_by_role("button", name=w.t(
            "seat.take_bot", n=seat, bot=w.t("seat.bot", n=seat)), exact=True)).to_be_visible()
    expect(choices.get_by_role("button")).to_have_count(3)  # (not Ann's)
    if viewport != LAPTOP:
        no_horizontal_scroll(cy)

    cy.get_by_role("textbox", name=w.t("form.your_name")).fill("Cy")
    choices.get_by_role("button", name=w.t("seat.take_bot", n=3, bot=w.t("seat.bot", n=3)),
                        exact=True).click()
    # Cy holds seat 3 (index 2), the one chosen: drawn at the bottom, Cy's own.
    expect(panel).to_be_hidden()
    expect(cy.locator("#seats .seat.pos-bottom")).to_have_attribute("data-seat", "2")
    expect(ann.locator("#seats .seat[data-seat='2']")).to_contain_text("Cy")
    return cy
