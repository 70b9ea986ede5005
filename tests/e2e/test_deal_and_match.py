"""Issue 12, the deal in full and the match's end: a finished trick stays on the table
(2 s, or until the next card is led) and then shows in the "Last trick" strip; the deal
log lists the bids, the contract, the kitty and every trick with its winner; the result
counts the kitty trick; the score chart labels all four lines even where totals tie; at
the match's end "Play again" starts the next match, earlier matches stay in the sheet,
and the host can go back to the lobby (where no last trick is left), change a rule and
start again."""

from __future__ import annotations

import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE
from .players import (
    deal_over,
    hand,
    on_first_screen,
    open_room,
    play_until_deal_over,
    take_turn,
    until_a_hang,
)

# In one look at the page (no new state can come in between): a trick we won is in the
# middle, its winner marked, and it is our lead ("held"); else, on our turn in play, the
# card the practice hint suggests (the strong bot's: it wins tricks) is played
# ("played"); while the hint is still being thought out, nothing ("thinking"), unless
# ``anyway`` (it is taking too long).
PLAY_OR_HOLD = """(anyway) => {
  if (document.getElementById('room').dataset.phase !== 'play') return null;
  const cards = [...document.querySelectorAll('#hand button.playable')];
  if (!cards.length) return null;
  if (document.querySelector('#trick .played.winner.pos-bottom')) return 'held';
  const hinted = cards.find(c => c.classList.contains('hinted'));
  if (!hinted && !anyway) return 'thinking';
  (hinted || cards[0]).click();
  return 'played'; }"""


def test_deal_in_full(new_page: Any) -> None:
    page = new_page("solo", viewport=LAPTOP)
    open_room(page, "Kim", "Practice", single_round=True)
    expect(hand(page).get_by_role("button")).to_have_count(12)

    # A trick we won stays in the middle while we think (more than 2 s), then, once we
    # lead, it goes to the "Last trick" strip on the table.
    held = False
    # generous: only a hang ends it (a busy machine took minutes for a deal's hints)
    deadline = time.monotonic() + 600
    waited = 0
    while not held and time.monotonic() < deadline:
        if deal_over(page):
            # The deal is random: we won no trick to lead from. A new single round.
            open_room(page, "Kim", "Practice", single_round=True)
            expect(hand(page).get_by_role("button")).to_have_count(12)
            continue
        done = page.evaluate(PLAY_OR_HOLD, waited > 60)  # ~3 s for a hint, then any card
        waited = waited + 1 if done == "thinking" else 0
        if done == "held":
            page.wait_for_timeout(2500)
            expect(page.locator("#trick .played.winner.pos-bottom")).to_have_count(1)
            expect(page.locator("#trick .played")).to_have_count(4)
            held = True
            before = hand(page).get_by_role("button").count()
            for _ in until_a_hang():
                if take_turn(page, bid=False):
                    break
                page.wait_for_timeout(50)
            expect(hand(page).get_by_role("button")).to_have_count(before - 1)
            # Collected, it is in the strip (or, if the next trick is already finished
            # and held in the middle, the strip shows the one before it: ours).
            expect(page.get_by_role("group", name="Last trick").locator(".card")).to_have_count(4)
        elif done in ("played", "thinking"):
            page.wait_for_timeout(50 if done == "thinking" else 100)
        elif page.locator("#room[data-phase=play]").count() or not take_turn(page, bid=True):
            page.wait_for_timeout(50)
    assert held, "we never won a trick to lead from"
    play_until_deal_over([page], bidders={0})
    # The last trick of the deal stays in the middle, its winner marked.
    expect(page.locator("#trick .played.winner")).to_have_count(1)

    # The deal log: the bids, the contract, the kitty (we bid: we may see it), 12 tricks.
    page.get_by_text("Deal log").click()
    log = page.locator("#deal-log")
    expect(log.get_by_role("heading", name="Auction")).to_be_visible()
    expect(log.locator(".history li").first).to_have_text(re.compile(r"^(Kim|Bot \d): "))
    expect(log.get_by_role("heading", name="Contract")).to_be_visible()
    tricks = log.locator(".log-tricks li")
    expect(tricks).to_have_count(12)
    for text in tricks.all_inner_texts():
        assert re.match(r"^Trick \d+: .* won by (Kim|Bot \d)$", text, re.S), text
    bidder = page.locator("#contract").inner_text()
    if "Kim bid" in bidder:
        expect(log.get_by_role("heading", name="Kitty")).to_be_visible()

    # The result counts the kitty trick (standard rules) for the bidder's side.
    side = page.locator("#result .side-tricks")
    if side.count():
        text = side.inner_text()
        match = re.search(r": ([\d + ]+) \+ 1 for the kitty = (\d+)\.$", text)
        assert match, text
        counted = sum(int(n) for n in match.group(1).split(" + "))
        assert counted + 1 == int(match.group(2)), text
        expect(page.locator("#result").get_by_text("+ 1 (kitty)")).to_be_visible()

    # The chart: four lines, each labelled at its end with its name; lines whose totals
    # tie are drawn apart, and no label lies on another.
    chart = page.locator("#score-sheet .chart").first
    expect(chart.locator("polyline.line")).to_have_count(4)
    labels = chart.locator("text.end-label")
    expect(labels).to_have_count(4)
    names = " ".join(labels.all_text_contents())
    for name in ("Kim", "Bot 2", "Bot 3", "Bot 4"):
        assert name in names, names
    points = chart.locator("polyline.line").evaluate_all(
        "ls => ls.map(l => l.getAttribute('points'))")
    assert len(set(points)) == 4, f"two lines lie on each other: {points}"
    boxes = labels.evaluate_all(
        "ls => ls.map(l => { const b = l.getBBox(); return [b.y, b.height]; })")
    boxes.sort()
    for (y1, h1), (y2, _) in itertools.pairwise(boxes):
        assert y2 >= y1 + h1 - 1, f"chart labels overlap: {boxes}"


def test_play_again_and_back_to_lobby(new_page: Any) -> None:
    page = new_page("host", viewport=LAPTOP)
    open_room(page, "Ann", "Create room", single_round=True)
    page.get_by_role("button", name="Start").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)
    play_until_deal_over([page], bidders=set())

    # The match's end: every choice on the first screen of a laptop.
    expect(page.get_by_role("heading", name="Match over")).to_be_visible()
    for name in ("Play again", "Rematch", "Back to lobby", "Download record"):
        button = page.get_by_role("button", name=name)
        expect(button).to_be_visible()
        on_first_screen(page, button, name)
    # Ann is the only person: her "Play again" starts the next match by itself.
    page.get_by_role("button", name="Play again").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)
    expect(page.get_by_role("heading", name="Match over")).to_be_hidden()
    expect(page.get_by_text("Earlier matches (1)")).to_be_visible()

    play_until_deal_over([page], bidders=set())
    expect(page.get_by_role("group", name="Last trick")).to_be_visible()
    page.get_by_role("button", name="Back to lobby").click()
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    expect(page.locator("#chat-log").get_by_text(
        "Ann took the table back to the lobby.")).to_be_visible()
    # The lobby shows no trick of the match before (issue 23).
    expect(page.get_by_role("group", name="Last trick")).to_be_hidden()
    expect(page.get_by_text("Earlier matches (2)")).to_be_visible()
    page.get_by_text("Change the rules").click()
    page.get_by_role("checkbox", name="Grand").check()
    expect(page.get_by_text("Grand: on")).to_be_visible()
    page.get_by_role("button", name="Start").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)
    page.get_by_text(re.compile(r"^Earlier matches")).click()
    for n in (1, 2):  # each with its deal row and its record
        expect(page.get_by_role("heading", name=f"Match {n}")).to_be_visible()
        sheet = page.get_by_role("table", name=f"Score sheet of match {n}")
        expect(sheet.get_by_role("rowheader", name="1", exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=f"Download the record of match {n}")).to_be_enabled()


def test_a_rematch_counts_down_on_every_screen_and_the_match_before_stays(
        new_page: Any) -> None:
    ann = new_page("ann", viewport=LAPTOP)
    open_room(ann, "Ann", "Create room", single_round=True)
    bob = new_page("bob", viewport=PHONE)
    bob.goto(ann.url)
    bob.get_by_role("textbox", name="Your name").fill("Bob")
    bob.get_by_role("button", name="Join", exact=True).click()
    expect(ann.locator("#chat-log").get_by_text("Bob took a seat.")).to_be_visible()
    ann.get_by_role("button", name="Start").click()
    for page in (ann, bob):
        expect(page.locator("#chat-log").get_by_text(
            "Ann started the match: bots play the empty seats.")).to_be_visible()
    play_until_deal_over([ann, bob], bidders=set())
    expect(bob.get_by_role("heading", name="Match over")).to_be_visible()

    ann.get_by_role("button", name="Rematch").click()
    for page in (ann, bob):  # the notice, its countdown and the chat line, on both screens
        notice = page.get_by_role("status").filter(has_text="New match in")
        expect(notice).to_be_visible()
        expect(notice.locator("[role=timer]")).to_have_text(re.compile(r"^\d s$"))
        expect(page.locator("#chat-log").get_by_text("Ann starts a new match.")).to_be_visible()
    for page in (ann, bob):  # the final sheet stays until the new match starts
        expect(page.get_by_role("heading", name="Match over")).to_be_visible()
    for page in (ann, bob):
        expect(hand(page).get_by_role("button")).to_have_count(12)

    # The match before keeps its deal rows and its record.
    bob.get_by_text(re.compile(r"^Earlier matches")).click()
    sheet = bob.get_by_role("table", name="Score sheet of match 1")
    expect(sheet.get_by_role("rowheader", name="1", exact=True)).to_be_visible()
    with bob.expect_download() as info:
        bob.get_by_role("button", name="Download the record of match 1").click()
    record = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record["rules"]["match"] == "single_deal"
    assert record["players"][:2] == ["Ann", "Bob"], record["players"]


def test_a_review_asked_in_the_pause_is_shown_after_the_next_deal_starts(
        new_page: Any) -> None:
    page = new_page("ann", viewport=LAPTOP)
    open_room(page, "Ann", "Create room")
    page.get_by_text("Change the rules").click()
    page.get_by_role("combobox", name="Match length").select_option("deals:2")
    page.get_by_role("button", name="Start").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)
    play_until_deal_over([page], bidders={0})
    page.get_by_role("button", name="Review my play").click()
    page.get_by_role("button", name="Next deal").click()  # at once: the review comes later
    expect(page.get_by_role("heading", name=re.compile(r"^Deal \d+ is over$"))).to_be_hidden()
    expect(hand(page).get_by_role("button")).to_have_count(12)

    box = page.locator("#reviews-box")
    box.get_by_text("Your reviews").click()
    review = box.locator("section.review").first
    expect(review.get_by_role("heading", name=re.compile(r"^Deal \d+$"))).to_be_visible()
    # the strong bot's verdict, and where the line with every card known comes from
    expect(review).to_contain_text(re.compile(r"well played|you chose"), timeout=90_000)
    if review.get_by_text(re.compile("bidder's side|every card known")).count() == 0:
        raise AssertionError(f"no double-dummy line and no word of it: {review.inner_text()}")
