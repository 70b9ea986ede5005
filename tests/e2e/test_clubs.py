"""Issue 38 in the browser: players without accounts, a club, its match, its page.

Ann names herself on the landing page (her player is made), makes a club and sets its
tables to one deal; Bob opens the invite link, names himself and joins; Ann opens a
table of the club, Bob joins it by the room's link, two bots fill the other seats and
the deal is played to the match's end: both see their rating change there, and the
club page shows both in the standings with the match's score sheet, then (made in the
background by the easy bot) each seat's par beside its result, the points above par a
deal, and in the match's replay who beat par most. Cai, with the
room's link but no invite, watches the table and reads nothing of the club. A device
code moves Ann to a second browser. The club page in Norwegian and French on phones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import hand, no_horizontal_scroll, play_until_deal_over
from .test_accessibility import Audit
from .words import Words, of


def name_yourself(page: Any, name: str) -> Words:
    """On the landing page: type the name and save it (the player is made)."""
    page.goto("/")
    words = of(page)
    page.get_by_role("textbox", name=words.t("form.your_name")).fill(name)
    page.get_by_role("button", name=words.t("you.rename")).click()
    expect(page.get_by_text(words.t("you.renamed", name=name))).to_be_visible()
    expect(page.get_by_role("heading", name=words.t("you.clubs"), exact=True)).to_be_visible()
    return words


def make_club(page: Any, words: Words, name: str) -> str:
    page.get_by_role("textbox", name=words.t("you.club_name")).fill(name)
    page.get_by_role("button", name=words.t("you.make_club")).click()
    page.wait_for_url(re.compile(r"/c/[^/?]+$"))
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    return str(page.url)


def the_key_is_nowhere(page: Any) -> None:
    """The player's key is in localStorage only: not in the address, nor the page."""
    key = page.evaluate("JSON.parse(localStorage.getItem('amerikaner.player')).key")
    assert key and key not in page.url
    assert key not in page.content()


# (the points and par with the score sheet's signs: "-10 / -8.7")
PAR_CELL = re.compile(r"^([+-]?\d+) / ([+-]?[\d.]+)$")


def number(text: str) -> float:
    return float(text)  # (float reads "+3" and "-3")


def one_decimal(n: float) -> str:
    """As the page writes a difference: signed, one decimal at most (+3.2, -1, 0)."""
    text = f"{round(abs(n), 1):g}"
    return f"+{text}" if round(n, 1) > 0 else f"-{text}" if round(n, 1) < 0 else text


def par_shown(page: Any) -> dict[str, float]:
    """The club page's par (made in the background with the easy bot; the page asks
    again until it comes): each seat's result beside its par, and the players' points
    above par a deal in the standings. Answers who of Ann and Bob beat par, by how much."""
    table = page.get_by_role("table", name=re.compile(r"^Result and par, deal by deal: "))
    row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name="1",
                                                               exact=True))
    for cell in range(4):
        expect(row.get_by_role("cell").nth(cell)).to_have_text(PAR_CELL)
    names = table.get_by_role("columnheader").all_inner_texts()[1:]
    beat: dict[str, float] = {}
    for seat, text in enumerate(row.get_by_role("cell").all_inner_texts()):
        found = PAR_CELL.match(text)
        assert found, text
        diff = round(number(found.group(1)) - number(found.group(2)), 1)
        if names[seat] in ("Ann", "Bob") and diff > 0:
            beat[names[seat]] = diff
    standings = page.get_by_role("table", name="Standings")
    expect(standings.get_by_role("columnheader", name="Above par a deal")).to_be_visible()
    for name in ("Ann", "Bob"):
        cells = standings.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name=name, exact=True)).get_by_role("cell")
        expect(cells.nth(9)).to_have_text(re.compile(r"^[+-]?[\d.]+$"))
    return beat


def replay_marks_who_beat_par(page: Any, beat: dict[str, float]) -> None:
    """The match's replay says who beat par most on the deal shown (its only deal)."""
    page.get_by_role("button", name=re.compile(r"^Replay: ")).click()
    replay = page.locator("#replay-view")
    expect(replay.get_by_role("heading", name=re.compile(r"^Replay of deal 1"))).to_be_visible()
    for name, diff in beat.items():
        expect(replay.get_by_text(f"{name} beat par most here: {one_decimal(diff)}",
                                  exact=True)).to_be_visible()
    expect(replay.get_by_text(re.compile("beat par most here"))).to_have_count(len(beat))


def test_a_club_match_from_invite_to_standings(new_page: Any, artifacts: Path) -> None:
    ann = new_page("ann", viewport=LAPTOP)
    words = name_yourself(ann, "Ann")
    club_url = make_club(ann, words, "Thursdays")
    the_key_is_nowhere(ann)
    # The club's tables: one deal.
    ann.get_by_role("checkbox", name="Single round (one deal)").check()
    ann.get_by_role("button", name="Save the rules").click()
    expect(ann.get_by_text(words.t("club.rules_saved"))).to_be_visible()
    invite = ann.get_by_role("textbox", name="Invite link").input_value()
    assert "?invite=" in invite

    # Bob, a first visit, by the invite link: he names himself and joins.
    bob = new_page("bob", viewport=LAPTOP)
    bob.goto(invite)
    bob.get_by_role("textbox", name="Your name").fill("Bob")
    bob.get_by_role("button", name="Join the club").click()
    expect(bob.get_by_role("heading", name="Thursdays", level=1)).to_be_visible()
    assert "invite" not in bob.url  # (it leaves the address bar)
    members = bob.get_by_role("list").filter(has_text="(host)")
    expect(members.get_by_role("listitem")).to_have_text(["Ann (host)", "Bob"])

    # A table of the club: Ann opens it, Bob joins by the room's link, bots fill the rest.
    ann.get_by_role("button", name="New table").click()
    ann.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))
    room_url = ann.url
    bob.goto(room_url)
    bob.get_by_role("textbox", name="Your name").fill("Bob")
    bob.get_by_role("button", name="Join", exact=True).click()
    expect(ann.get_by_text(of(ann).tn("center.waiting", 2, n=2))).to_be_visible()
    ann.get_by_role("button", name="Start").click()
    for page in (ann, bob):
        expect(hand(page).get_by_role("button")).to_have_count(12)
    play_until_deal_over([ann, bob], bidders={0})
    for page in (ann, bob):
        expect(page.get_by_role("heading", name="Match over")).to_be_visible()
        expect(page.get_by_text(re.compile(r"^Rating change in Thursdays: "
                                           r"Ann [+-]?[\d.]+, Bob [+-]?[\d.]+$"))
               ).to_be_visible()

    # Cai has the room's link, no invite: he sees the table, nothing of the club.
    cai = new_page("cai", viewport=LAPTOP, allow_http_errors=True)
    cai.goto(room_url)
    expect(cai.get_by_role("heading", name="Match over")).to_be_visible()
    expect(cai.get_by_text(re.compile("^Rating change"))).to_have_count(0)
    cai.goto(club_url)
    expect(cai.get_by_text(re.compile("^There is no such club"))).to_be_visible()
    expect(cai.get_by_text("Thursdays")).to_have_count(0)
    expect(cai.get_by_role("heading", name="Standings")).to_be_hidden()

    # The standings and the match, on both members' club pages.
    for page in (ann, bob):
        page.goto(club_url)
        standings = page.get_by_role("table", name="Standings")
        expect(standings.get_by_role("row")).to_have_count(3)
        for name in ("Ann", "Bob"):
            row = standings.get_by_role("row").filter(
                has=page.get_by_role("rowheader", name=name, exact=True))
            # one match, one deal; the rating with its uncertainty
            expect(row.get_by_role("cell").nth(0)).to_have_text("1")
            expect(row.get_by_role("cell").nth(2)).to_have_text("1")
            expect(row.get_by_role("cell").nth(8)).to_have_text(re.compile(r"^[\d.]+ ± [\d.]+$"))
        expect(page.get_by_role("table", name=re.compile(r"^Score sheet: Table .*, match 1, "))
               ).to_be_visible()
        expect(page.get_by_text(re.compile(r"^Rating change: Ann "))).to_be_visible()
    beat = par_shown(ann)
    replay_marks_who_beat_par(ann, beat)
    audit = Audit()  # the club page with its standings and a match (axe, both sizes)
    audit(bob, "club page with a match")
    audit.assert_clean()
    bob.set_viewport_size(PHONE)
    no_horizontal_scroll(bob)
    bob.screenshot(path=artifacts / "club-page-phone.png", full_page=True)
    # Bob's "You" panel: his club, the table to rejoin, his rating.
    bob.goto("/")
    expect(bob.get_by_role("link", name="Thursdays", exact=True)).to_be_visible()
    expect(bob.get_by_role("link", name=re.compile(r"^Rejoin table [0-9a-z]+ \(Thursdays\)$"))
           ).to_be_visible()
    expect(bob.get_by_text(re.compile(r"^Thursdays: [\d.]+ ± [\d.]+$"))).to_be_visible()

    # Ann moves to her phone with a one-time code.
    ann.goto("/")
    ann.get_by_role("button", name="Use on another device").click()
    shown = ann.get_by_text(re.compile(r"^Type [A-Z0-9]+ on your other device"))
    expect(shown).to_be_visible()
    code = re.search(r"Type ([A-Z0-9]+) ", shown.inner_text())
    assert code
    phone = new_page("ann-phone", viewport=PHONE)
    phone.goto("/")
    phone.get_by_text("Play as you on this device").click()
    phone.get_by_role("textbox", name="Code from your other device").fill(code.group(1))
    phone.get_by_role("button", name="Use the code").click()
    expect(phone.get_by_text("This device plays as you now.")).to_be_visible()
    expect(phone.get_by_role("textbox", name="Your name")).to_have_value("Ann")
    expect(phone.get_by_role("link", name="Thursdays", exact=True)).to_be_visible()
    no_horizontal_scroll(phone)
    phone.screenshot(path=artifacts / "you-panel-phone.png", full_page=True)


@pytest.mark.parametrize(("locale", "viewport"), [("nb-NO", PHONE), ("fr-FR", SMALL_PHONE)])
def test_the_club_page_in_other_languages_on_phones(new_page: Any, locale: str,
                                                    viewport: dict[str, int],
                                                    artifacts: Path) -> None:
    page = new_page(locale, viewport=viewport, locale=locale)
    words = name_yourself(page, "Åse")
    make_club(page, words, "Torsdager")
    for key in ("club.standings", "club.matches", "club.members", "club.invite_heading",
                "club.season_heading", "club.rules_heading"):
        expect(page.get_by_role("heading", name=words.t(key))).to_be_visible()
    expect(page.get_by_role("button", name=words.t("club.new_table"))).to_be_visible()
    expect(page.get_by_role("button", name=words.t("club.copy_invite"))).to_be_visible()
    expect(page.get_by_role("combobox", name=words.t("club.season"))).to_have_value("1")
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / f"club-page-{locale}.png", full_page=True)
    # The host opens the next season; the first stays readable.
    page.get_by_role("button", name=words.t("club.next_season")).click()
    page.get_by_role("button", name=words.t("club.next_season_confirm")).click()
    season = page.get_by_role("combobox", name=words.t("club.season"))
    expect(season).to_have_value("2")
    season.select_option("1")
    expect(page.get_by_text(words.t("club.no_standings"))).to_be_visible()
    page.goto("/")
    expect(page.get_by_role("link", name="Torsdager", exact=True)).to_be_visible()
    no_horizontal_scroll(page)
    # Their data, downloaded; then they delete themselves (after a second question).
    with page.expect_download() as info:
        page.get_by_role("button", name=words.t("you.export")).click()
    data = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert data["name"] == "Åse" and [c["name"] for c in data["clubs"]] == ["Torsdager"]
    assert "key" not in data
    page.get_by_role("button", name=words.t("you.delete")).click()
    page.get_by_role("button", name=words.t("you.delete_confirm")).click()
    expect(page.get_by_text(words.t("you.deleted"))).to_be_visible()
    expect(page.get_by_role("heading", name=words.t("you.clubs"), exact=True)).to_be_hidden()
    assert page.evaluate("localStorage.getItem('amerikaner.player')") is None
