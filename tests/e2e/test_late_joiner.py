"""Issue 23: a late joiner's column starts at their first deal.  Ann starts a table with
bots and drops (her grace is 0: a bot plays for her at once); Cy joins in the first deal,
plays from the second, and the score sheet shows the first deal's points in Cy's column
as the bot's: faded, the column saying from which deal Cy plays, a note under the table,
and each such cell naming the bot to a screen reader.  Seen by Cy on a phone and by a
spectator on a laptop, each in English, Norwegian and French."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE
from .players import choose_language, hand, no_horizontal_scroll, open_room, take_turn
from .words import LANGUAGES, Words


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

    for page, size in ((cy, PHONE), (watcher, LAPTOP)):
        for code in LANGUAGES:
            choose_language(page, code)
            column_marked(page, Words(code))
            if size == PHONE:
                no_horizontal_scroll(page)


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
