"""Issue 23's items in English, Norwegian and French, at 1366x768, 375x667 and (issue 39)
320x568, found by role and accessible name, every text taken from the client's catalogues
(words.py).  Which test shows each item, in which languages and sizes: docs/client.md,
"Issue 23 in three languages and two sizes".

The table here: Ann (host, nb, laptop), Bob (fr, a 320 px phone) and Cai (en, phone) sit,
a bot plays the fourth seat, Dan (nb, phone), Eve (fr, laptop) and Fay (en, phone) watch.
One session shows, on every screen at once: the lobby's counted free seats, the start with
bots, both named waits (Cai drops on his turn, comes back, and his turn's time runs out:
the host shortens it, so that it runs out soon),
two match ends (a rematch with its countdown, then back to the lobby, where no trick is
left) and the earlier matches with their deal rows and records.  (A practice deal's
review read in all three languages on a phone: test_review.py.)
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import (
    deal_over,
    hand,
    no_horizontal_scroll,
    play_until_deal_over,
    take_turn,
)
from .words import Words


class Person:
    """One screen at the table: a page, its language and whether it sits."""

    def __init__(self, new_page: Any, name: str, code: str, viewport: dict[str, int],
                 seated: bool) -> None:
        phone = {"has_touch": True, "is_mobile": True} if viewport != LAPTOP else {}
        locale = {"en": "en-GB", "nb": "nb-NO", "fr": "fr-FR"}[code]
        self.page = new_page(name, viewport=viewport, locale=locale, **phone)
        self.name, self.words, self.seated = name, Words(code), seated

    def __repr__(self) -> str:
        return self.name

    def chat_line(self, key: str, name: str) -> None:
        chat = self.page.get_by_role("list", name=self.words.t("chat.heading"))
        expect(chat.get_by_text(self.words.t(key, name=name), exact=True)).to_be_visible()

    def status_with_seconds(self, key: str, name: str) -> None:
        """The status line: ``key``'s sentence with the seconds left of its clock."""
        sentence = re.escape(self.words.t(key, name=name).rstrip(".:"))
        seconds = self.words.pattern("clock.seconds", n=r"\d+", whole=False).pattern
        status = self.page.get_by_text(re.compile(rf"^{sentence} \({seconds}\)$"))
        expect(status).to_be_visible()
        # written out in full on a phone too, not cut at the screen's edge
        assert status.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), (
            f"{self}: the status line is cut: {status.inner_text()}")


def test_a_table_in_three_languages_at_both_sizes(new_page: Any) -> None:
    ann = Person(new_page, "Ann", "nb", LAPTOP, seated=True)
    w = ann.words
    ann.page.goto("/")
    ann.page.get_by_role("textbox", name=w.t("form.your_name")).fill("Ann")
    ann.page.get_by_role("checkbox", name=w.t("form.single_round")).check()
    ann.page.get_by_role("button", name=w.t("home.create")).click()
    ann.page.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))
    url = ann.page.url
    ann.page.get_by_text(w.t("lobby.change_rules")).click()
    # 120 s of turn time last 30 s here (AMERIKANER_TURN_TIME_SCALE, conftest.py)
    ann.page.get_by_role("combobox", name=w.t("settings.turn_seconds")).select_option("120")
    grace = ann.page.get_by_role("spinbutton", name=w.t("lobby.grace"))
    grace.fill("30")  # long enough to be seen counting on a busy machine
    grace.press("Tab")
    expect(ann.page.get_by_text(w.tn("center.waiting", 3, n=3))).to_be_visible()

    bob = Person(new_page, "Bob", "fr", SMALL_PHONE, seated=True)
    cai = Person(new_page, "Cai", "en", PHONE, seated=True)
    dan = Person(new_page, "Dan", "nb", PHONE, seated=False)
    eve = Person(new_page, "Eve", "fr", LAPTOP, seated=False)
    fay = Person(new_page, "Fay", "en", PHONE, seated=False)
    people = [ann, bob, cai, dan, eve, fay]
    players = [ann, bob, cai]
    watchers = [p for p in people if p is not cai]
    for person in (bob, dan, eve, fay):
        person.page.goto(url)
    bob.page.get_by_role("textbox", name=bob.words.t("form.your_name")).fill("Bob")
    bob.page.get_by_role("button", name=bob.words.t("home.join"), exact=True).click()
    # Counted phrases in each language's plural form, on both sizes.
    for person in watchers:
        expect(person.page.get_by_text(person.words.tn("center.waiting", 2, n=2))).to_be_visible()
    cai.page.goto(url)
    cai.page.get_by_role("textbox", name=cai.words.t("form.your_name")).fill("Cai")
    cai.page.get_by_role("button", name=cai.words.t("home.join"), exact=True).click()
    for person in people:
        words = person.words
        expect(person.page.get_by_text(words.tn("center.waiting", 1, n=1))).to_be_visible()
        # the rules' summary: "Turn time: 120 s", in French "Temps par coup : 120 s"
        turn_time = words.t("line.label_value", label=words.t("settings.turn_seconds"),
                            value=words.t("clock.seconds", n=120))
        expect(person.page.get_by_text(turn_time, exact=True)).to_be_visible()

    ann.page.get_by_role("button", name=w.t("lobby.start")).click()
    for person in people:
        person.chat_line("chat.system.started_with_bots", "Ann")
    for person in players:
        expect(hand(person.page, person.words).get_by_role("button")).to_have_count(12)

    # Ann and Bob pass until it is Cai's turn (the auction's first round asks everyone).
    cai_pass = cai.page.get_by_role("button", name=cai.words.t("bid.pass"), exact=True)
    deadline = time.monotonic() + 120  # only a hang reaches it
    while not cai_pass.is_visible():
        assert time.monotonic() < deadline, "Cai never had a turn in the auction"
        if not any(take_turn(p.page, bid=False) for p in (ann, bob)):
            ann.page.wait_for_timeout(60)

    # Cai drops on his turn: every other screen names the wait, with its seconds.
    cai.page.goto("about:blank")
    for person in watchers:
        person.status_with_seconds("status.waiting_for", "Cai")
        person.chat_line("chat.system.waiting_for", "Cai")
    # He comes back; his turn's clock runs out: a bot bids for him, and every screen says so.
    cai.page.goto(url)
    cai.status_with_seconds("status.you_bid", "Cai")
    for person in watchers:
        person.status_with_seconds("status.other_bid", "Cai")
    # Seen on every screen: the host shortens the turn time to 30 s (7.5 s here), which
    # starts Cai's clock anew, and it runs out.
    ann.page.get_by_text(w.t("settings.heading"), exact=True).click()
    turn_time = ann.page.locator("#settings-box").get_by_role(
        "combobox", name=w.t("settings.turn_seconds"))
    turn_time.select_option("30")
    for person in people:  # (the notice goes after 6 s: each is looked at once it came)
        notice = person.page.get_by_role("status").filter(
            has_text=person.words.t("notice.timed_out", name="Cai"))
        expect(notice).to_be_visible(timeout=60_000)
    for person in people:
        person.chat_line("chat.system.timed_out", "Cai")
    turn_time.select_option("120")  # the matches' play as before: 30 s a turn

    play_until_deal_over([p.page for p in players], bidders=set())
    for person in people:
        expect(person.page.get_by_role(
            "heading", name=person.words.t("result.match_heading"))).to_be_visible()

    # A rematch: a notice with its countdown and a chat line on every screen, the final
    # sheet kept meanwhile.
    ann.page.get_by_role("button", name=w.t("result.rematch")).click()
    for person in people:
        notice = person.page.get_by_role("status").filter(
            has_text=person.words.t("result.new_match_in"))
        expect(notice).to_be_visible()
        expect(notice.get_by_role("timer")).to_have_text(
            person.words.pattern("clock.seconds", n=r"\d"))
        person.chat_line("chat.system.new_match", "Ann")
        expect(person.page.get_by_role(
            "heading", name=person.words.t("result.match_heading"))).to_be_visible()
        no_horizontal_scroll(person.page)  # (the longer words of nb and fr on a phone)
    for person in players:
        expect(hand(person.page, person.words).get_by_role("button")).to_have_count(12)

    # The match before keeps its deal rows, and its record for those who sat.
    for person in people:
        earlier(person, 1)
    with bob.page.expect_download() as info:
        bob.page.get_by_role("button", name=bob.words.t("scores.match_download", n=1)).click()
    record = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record["players"][:3] == ["Ann", "Bob", "Cai"], record["players"]

    # The second match's end: back to the lobby, said in the chat, with no trick left.
    play_until_deal_over([p.page for p in players], bidders=set())
    for person in people:
        expect(person.page.get_by_role(
            "group", name=person.words.t("room.last_trick"))).to_be_visible()
    ann.page.get_by_role("button", name=w.t("result.lobby")).click()
    for person in people:
        person.chat_line("chat.system.back_to_lobby", "Ann")
        expect(person.page.get_by_role(
            "group", name=person.words.t("room.last_trick"))).to_be_hidden()
        earlier(person, 2)
        no_horizontal_scroll(person.page)
    assert not any(deal_over(p.page) for p in players)


def earlier(person: Person, n: int) -> None:
    """The earlier matches, ``n`` of them, each with its deal rows (and its record download
    for a person who sits)."""
    page, w = person.page, person.words
    summary = page.get_by_text(w.t("scores.history", n=n), exact=True)
    expect(summary).to_be_visible()
    if summary.evaluate("s => !s.parentElement.open"):
        summary.click()
    totals = page.get_by_role("region", name=w.t("room.score_sheet")).get_by_role(
        "listitem").filter(has_text=w.pattern("line.label_value", label="Ann", value=r"-?\d+"))
    expect(totals).to_have_count(n)  # (each match's totals, as the language writes them)
    for match in range(1, n + 1):
        sheet = page.get_by_role("table", name=w.t("scores.match_sheet", n=match))
        expect(sheet.get_by_role("rowheader", name="1", exact=True)).to_be_visible()
        download = page.get_by_role("button", name=w.t("scores.match_download", n=match))
        expect(download).to_have_count(1 if person.seated else 0)
