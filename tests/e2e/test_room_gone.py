"""A table that is gone (a room nobody played at for a long while is deleted; the club
keeps its matches) says so on its page: a club's finished match whose room is gone still
has its `Open the table` link, which leads to a page that says the table is gone, that
the club keeps its matches, with `Back to the club`; a gone room's own link says the
same without the club (a way home), in each language; axe finds nothing on it.

The server's rooms are deleted only after AMERIKANER_RETENTION_DAYS, so the club page's
answer is given one more finished match, at a room that does not exist (the page's
request to the real server, edited on its way back)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import choose_language
from .test_accessibility import Audit
from .test_clubs import make_club, name_yourself
from .words import of

GONE = "gnvrmyr234"  # a room code no room has (a room's is made of such letters)


def a_match_at_a_gone_room(page: Any) -> None:
    """The club page's matches get one more, finished 40 days ago at room GONE."""
    def add(route: Any) -> None:
        response = route.fetch()
        page_data = response.json()
        seats = [{"player": None, "name": name} for name in ("Ann", "Bot 2", "Bot 3", "Bot 4")]
        page_data["matches"].append({
            "room": GONE, "match": 1, "season": page_data["season"],
            "finished_at": time.time() - 40 * 86400, "seats": seats,
            "totals": [10, -5, 0, -5], "score_sheet": [[10, -5, 0, -5]]})
        route.fulfill(response=response, json=page_data)

    page.route(re.compile(r"/api/clubs/[^/?]+(\?.*)?$"), add)


@pytest.mark.parametrize(("viewport", "lang"), [(LAPTOP, "en"), (PHONE, "nb"),
                                                (SMALL_PHONE, "fr")],
                         ids=["en-1366x768", "nb-375x667", "fr-320x568"])
def test_a_gone_table_says_so_and_leads_back(new_page: Any, artifacts: Path,
                                             viewport: dict[str, int], lang: str) -> None:
    page = new_page(f"gone-{lang}", viewport=viewport)
    club_url = make_club(page, name_yourself(page, "Ann"), "Thursday players")
    a_match_at_a_gone_room(page)
    page.reload()
    choose_language(page, lang)
    words = of(page)
    table_link = page.get_by_role("link", name=re.compile(
        f"^{re.escape(words.t('club.open_table'))}: .*{GONE}"))
    expect(table_link).to_be_visible()
    table_link.click()
    page.wait_for_url(re.compile(rf"/r/{GONE}\?club="))

    heading = page.get_by_role("heading", name=words.t("room.gone_heading"), level=2)
    expect(heading).to_be_visible()
    expect(heading).to_be_focused()
    expect(page.get_by_text(words.t("room.gone_club"))).to_be_visible()
    expect(page.locator("#play-area")).to_be_hidden()
    expect(page.locator("#conn-status")).to_be_empty()
    expect(page.locator("#room-error")).to_be_empty()  # (the server's "no room" says less)
    expect(page.locator("#copy-link")).to_be_hidden()
    page.screenshot(path=str(artifacts / f"room-gone-{lang}-{viewport['width']}.png"))
    audit = Audit()  # (axe, at both sizes)
    audit(page, "a gone table of a club")
    audit.assert_clean()
    page.get_by_role("link", name=words.t("room.back_to_club"), exact=True).click()
    page.wait_for_url(club_url)
    expect(page.get_by_role("heading", name="Thursday players", level=1)).to_be_visible()

    # the room's own link, as kept or typed: the table is gone, and the way is home
    page.goto(f"/r/{GONE}")
    expect(heading).to_be_visible()
    expect(page.get_by_text(words.t("room.gone_text"))).to_be_visible()
    expect(page.get_by_text(words.t("room.gone_club"))).to_be_hidden()
    expect(page.get_by_role("link", name=words.t("room.back_to_club"))).to_have_count(0)
    home = page.locator("#room-gone").get_by_role("link", name=words.t("club.home"), exact=True)
    expect(home).to_have_attribute("href", "/")
