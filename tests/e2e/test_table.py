"""Two people and two bots play a deal in real browsers: landing, create, join by link,
start, a whole deal by clicking, the score sheet; reload keeps the seat and the hand; a
spectator sees no hand; a hostile name shows as text; a phone has no horizontal scroll."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import PHONE
from .players import hand, no_horizontal_scroll, open_room, play_until_deal_over

HOSTILE = "<img src=x onerror=alert(1)>"


def card_ids(page: Any) -> list[str]:
    buttons = hand(page).get_by_role("button")
    return sorted(buttons.evaluate_all("els => els.map(e => e.dataset.card)"))


def test_two_people_play_a_deal(new_page: Any, artifacts: Path) -> None:
    host = new_page("host", reduced_motion="no-preference")
    open_room(host, "Ann", "Create room")
    link = host.url

    guest = new_page("guest", viewport=PHONE, is_mobile=True, has_touch=True,
                     reduced_motion="reduce")
    guest.goto(link)
    guest.get_by_role("textbox", name="Your name").fill(HOSTILE)
    guest.get_by_role("button", name="Join", exact=True).click()
    expect(guest.get_by_role("button", name="Join", exact=True)).to_be_hidden()

    # The hostile name is text on both pages, never markup.
    expect(host.get_by_text(HOSTILE, exact=True)).to_be_visible()
    expect(guest.get_by_text(HOSTILE, exact=True)).to_be_visible()
    assert host.locator("img").count() == 0 and guest.locator("img").count() == 0
    no_horizontal_scroll(guest)
    host.screenshot(path=artifacts / "lobby-desktop.png", full_page=True)
    guest.screenshot(path=artifacts / "lobby-mobile.png", full_page=True)

    host.get_by_role("button", name="Start", exact=True).click()
    expect(hand(host).get_by_role("button")).to_have_count(12)
    expect(hand(guest).get_by_role("button")).to_have_count(12)

    # A reload keeps the seat and the hand (nobody has played a card yet).
    before = card_ids(guest)
    guest.reload()
    expect(hand(guest).get_by_role("button")).to_have_count(12)
    assert card_ids(guest) == before
    expect(guest.get_by_text(HOSTILE, exact=True)).to_be_visible()

    # A spectator sees the table but no hand and no card button.
    watcher = new_page("spectator")
    watcher.goto(link)
    expect(watcher.get_by_role("region", name="Table", exact=True)).to_be_visible()
    expect(watcher.get_by_role("button", name="Join", exact=True)).to_be_visible()
    expect(watcher.get_by_role("region", name="Your hand")).to_have_count(0)
    card_name = re.compile(r" of (spades|hearts|diamonds|clubs)$")
    assert watcher.get_by_role("button", name=card_name).count() == 0

    def midway() -> None:
        host.screenshot(path=artifacts / "play-desktop.png", full_page=True)
        guest.screenshot(path=artifacts / "play-mobile.png", full_page=True)
        no_horizontal_scroll(guest)

    moves = play_until_deal_over([host, guest], bidders={0}, midway=midway)
    assert any(m.endswith(":play") for m in moves)
    no_horizontal_scroll(guest)

    # The score sheet shows the deal on every page, the spectator's too.
    for page in (host, guest, watcher):
        sheet = page.get_by_role("table", name="Score sheet", exact=True)
        expect(sheet.get_by_role("rowheader", name="1", exact=True)).to_be_visible()
        expect(page.get_by_role("img", name="Line chart of the running totals")).to_be_visible()
    host.screenshot(path=artifacts / "deal-over-desktop.png", full_page=True)
    guest.screenshot(path=artifacts / "deal-over-mobile.png", full_page=True)

    # Chat lines are text too.
    guest.get_by_role("textbox", name="Message").fill("<b>well played</b>")
    guest.get_by_role("button", name="Send").click()
    expect(host.get_by_text("<b>well played</b>", exact=True)).to_be_visible()
    assert host.locator("#chat-log b").count() == 0

    # Both are ready: the next deal is dealt.
    host.get_by_role("button", name="Next deal").click()
    guest.get_by_role("button", name="Next deal").click()
    expect(hand(host).get_by_role("button")).to_have_count(12, timeout=15_000)
    expect(host.get_by_text("Deal 2")).to_be_visible()

    # Someone who leaves is shown as away to the others.
    guest.close()
    expect(host.get_by_text("disconnected", exact=True)).to_be_visible()
