"""Issue 38 in the browser: players without accounts, a club, its match, its page.

Ann names herself on the landing page (her player is made), makes a club and sets its
tables to one deal; Bob opens the invite link on his phone, in Norwegian, names himself
and joins; Ann opens a table of the club, Bob joins it by the room's link, two bots fill
the other seats and the deal is played to the match's end. Each language (en, nb, fr)
at each size (1366x768, 375x667) then sees the rating change on the match-end screen,
and on the club page the standings, the match's score sheet, the rating changes and
(made in the background by the easy bot) each seat's par beside its result: Ann and
Bob turn their pages to the other size, and Ann's key in a French browser loads the
finished table (as a reload does) and the club page. The replay says who beat par
most. Cai, with the room's link but no invite, watches the table and reads nothing of
the club. A device code moves Ann to a second browser. An empty club's page in
Norwegian and French on phones.
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


def signed_figure(words: Words) -> str:
    """A difference as the page writes it: "+3.2", "-1,5", "0"."""
    return f"[+-]?{words.number_pattern()}"


def changes_of(words: Words) -> str:
    """Ann's and Bob's rating changes, in seat order: "Ann +1.2, Bob -0.4"."""
    return ", ".join(words.pattern("club.change_of", whole=False, name=name,
                                   change=signed_figure(words)).pattern
                     for name in ("Ann", "Bob"))


def rating_change_at_match_end(page: Any, words: Words) -> None:
    """The match-end screen of the club's table, in the page's language and size."""
    expect(page.get_by_role("heading", name=words.t("result.match_heading"))).to_be_visible()
    expect(page.get_by_text(words.pattern("result.rating_changes", club="Thursdays",
                                          changes=changes_of(words)))).to_be_visible()
    no_horizontal_scroll(page)


def club_page_shows(page: Any, words: Words) -> None:
    """What a member reads of the match on the club page, in the page's language and size:
    the standings (one match, one deal, the rating, the points above par a deal), the
    score sheet, each player's rating change, and each seat's result beside its par
    (made in the background: the page asks again until it comes)."""
    standings = page.get_by_role("table", name=words.t("club.standings"), exact=True)
    expect(standings.get_by_role("row")).to_have_count(3)
    expect(standings.get_by_role("columnheader", name=words.t("club.above_par"))
           ).to_be_visible()
    rating = words.pattern("club.rating_value", mu=words.number_pattern(),
                           sigma=words.number_pattern())
    for name in ("Ann", "Bob"):
        cells = standings.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name=name, exact=True)).get_by_role("cell")
        expect(cells.nth(0)).to_have_text("1")
        expect(cells.nth(2)).to_have_text("1")
        expect(cells.nth(8)).to_have_text(rating)
        expect(cells.nth(9)).to_have_text(re.compile(f"^{signed_figure(words)}$"))
    if page.viewport_size["width"] >= LAPTOP["width"]:
        # a laptop sees every column: none behind the box's sideways scroll
        box = page.get_by_role("region", name=words.t("club.standings_scroll"))
        wide = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
        assert wide[0] <= wide[1], f"the standings scroll sideways on a laptop: {wide}"
    expect(page.get_by_role("table", name=words.pattern("club.sheet_of"))).to_be_visible()
    expect(page.get_by_text(words.pattern("club.rating_changes", changes=changes_of(words)))
           ).to_be_visible()
    # the bots' levels, each by its bare name and rating (not "Bot: easy 25.2 ± 7.7")
    level = "|".join(re.escape(words.t(f"club.level.{name}"))
                     for name in ("easy", "normal", "strong", "random"))
    figure = words.pattern("club.rating_value", whole=False, mu=words.number_pattern(),
                           sigma=words.number_pattern()).pattern
    one = f"(?:{level}) (?:{figure})"
    expect(page.get_by_text(words.pattern("club.bot_levels", levels=f"{one}(?:, {one})*"))
           ).to_be_visible()
    par = page.get_by_role("table", name=words.pattern("club.par_of"))
    # (the bots' seats named in the page's language, as at the table)
    expect(par.get_by_role("columnheader")).to_have_text(
        [words.t("scores.deal"), "Ann", "Bob", words.t("seat.bot", n=3), words.t("seat.bot", n=4)])
    row = par.get_by_role("row").filter(has=page.get_by_role("rowheader", name="1",
                                                             exact=True))
    cell = words.pattern("club.par_cell", points=r"[+-]?\d+", par=signed_figure(words))
    for seat in range(4):
        expect(row.get_by_role("cell").nth(seat)).to_have_text(cell)
    no_horizontal_scroll(page)


def par_shown(page: Any) -> dict[str, float]:
    """Who of Ann and Bob beat par in the deal, by how much (an English page, par shown)."""
    table = page.get_by_role("table", name=re.compile(r"^Result and par, deal by deal: "))
    row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name="1",
                                                               exact=True))
    names = table.get_by_role("columnheader").all_inner_texts()[1:]
    beat: dict[str, float] = {}
    for seat, text in enumerate(row.get_by_role("cell").all_inner_texts()):
        found = PAR_CELL.match(text)
        assert found, text
        diff = round(number(found.group(1)) - number(found.group(2)), 1)
        if names[seat] in ("Ann", "Bob") and diff > 0:
            beat[names[seat]] = diff
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
    # Ann may review her own play in it (from the club's record: the review itself, its
    # seconds of search, in tests/rooms/test_club_match_after_its_room.py)
    expect(replay.get_by_role("button", name="Review my play")).to_be_visible()


def test_a_club_match_from_invite_to_standings(new_page: Any, artifacts: Path) -> None:
    """Ann plays in English on a laptop, Bob in Norwegian on a phone; each then turns
    the other way (the same page at the other size), and Ann's key in a French browser
    opens the table at its match's end and the club page (a reload's path), at both
    sizes: the six languages and sizes see the rating change, the standings and par."""
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

    # Bob, a first visit, by the invite link on his phone, in Norwegian: he names
    # himself and joins.
    bob = new_page("bob", viewport=PHONE, locale="nb-NO")
    nb = Words("nb")
    bob.goto(invite)
    bob.get_by_role("textbox", name=nb.t("form.your_name")).fill("Bob")
    bob.get_by_role("button", name=nb.t("club.join")).click()
    expect(bob.get_by_role("heading", name="Thursdays", level=1)).to_be_visible()
    assert "invite" not in bob.url  # (it leaves the address bar)
    members = bob.get_by_role("list").filter(has_text=nb.t("club.host_member", name="Ann"))
    expect(members.get_by_role("listitem")).to_have_text([nb.t("club.host_member", name="Ann"),
                                                          "Bob"])

    # A table of the club: Ann opens it, Bob joins by the room's link, bots fill the rest.
    ann.get_by_role("button", name="New table").click()
    ann.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))
    room_url = ann.url
    bob.goto(room_url)
    bob.get_by_role("textbox", name=nb.t("form.your_name")).fill("Bob")
    bob.get_by_role("button", name=nb.t("home.join"), exact=True).click()
    expect(ann.get_by_text(of(ann).tn("center.waiting", 2, n=2))).to_be_visible()
    ann.get_by_role("button", name="Start").click()
    for page in (ann, bob):
        expect(hand(page).get_by_role("button")).to_have_count(12)
    play_until_deal_over([ann, bob], bidders={0})
    # The rating change at the match's end: en on a laptop, nb on a phone; then the
    # other size each; then Ann's key in a French browser, loading the finished table.
    rating_change_at_match_end(ann, words)
    rating_change_at_match_end(bob, nb)
    ann.set_viewport_size(PHONE)
    bob.set_viewport_size(LAPTOP)
    rating_change_at_match_end(ann, words)
    rating_change_at_match_end(bob, nb)
    fr = Words("fr")
    ann_fr = new_page("ann-fr", viewport=PHONE, locale="fr-FR",
                      storage_state=ann.context.storage_state())
    ann_fr.goto(room_url)
    rating_change_at_match_end(ann_fr, fr)
    ann_fr.set_viewport_size(LAPTOP)
    rating_change_at_match_end(ann_fr, fr)

    # Cai has the room's link, no invite: he sees the table, nothing of the club.
    cai = new_page("cai", viewport=LAPTOP, allow_http_errors=True)
    cai.goto(room_url)
    expect(cai.get_by_role("heading", name="Match over")).to_be_visible()
    expect(cai.get_by_text(re.compile("^Rating change"))).to_have_count(0)
    cai.goto(club_url)
    expect(cai.get_by_text(re.compile("^There is no such club"))).to_be_visible()
    expect(cai.get_by_text("Thursdays")).to_have_count(0)
    expect(cai.get_by_role("heading", name="Standings")).to_be_hidden()

    # The standings, the match and its par on the club page: en on a phone, nb and fr
    # on a laptop, then each at the other size.
    for page, language in ((ann, words), (bob, nb), (ann_fr, fr)):
        page.goto(club_url)
        club_page_shows(page, language)
    for page, language, size in ((ann, words, LAPTOP), (bob, nb, PHONE), (ann_fr, fr, PHONE)):
        page.set_viewport_size(size)
        club_page_shows(page, language)
    bob.screenshot(path=artifacts / "club-page-phone.png", full_page=True)
    replay_marks_who_beat_par(ann, par_shown(ann))
    audit = Audit()  # the club page with its standings and a match (axe, both sizes)
    audit(bob, "club page with a match")
    audit.assert_clean()
    # Bob's "You" panel: his club, the table to rejoin, his rating.
    bob.goto("/")
    expect(bob.get_by_role("link", name="Thursdays", exact=True)).to_be_visible()
    expect(bob.get_by_role("link", name=nb.pattern("you.table_of_club", code="[0-9a-z]+",
                                                   club="Thursdays"))).to_be_visible()
    rating = nb.pattern("club.rating_value", whole=False, mu=nb.number_pattern(),
                        sigma=nb.number_pattern())
    expect(bob.get_by_text(nb.pattern("you.rating_in", club="Thursdays", rating=rating.pattern))
           ).to_be_visible()

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
