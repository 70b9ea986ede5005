"""The screenshots of docs/client.md: every phase of a game at 1366x768 and 375x667.

Skipped unless ``AMERIKANER_SCREENSHOTS`` is set (it adds nothing the other tests do not
check); the pictures land in test-artifacts/shots/ and are scaled and reduced for docs/img
with ImageMagick (see docs/client.md)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE
from .players import BID, CALL, deal_over, hand, take_turn

pytestmark = pytest.mark.skipif(not os.environ.get("AMERIKANER_SCREENSHOTS"),
                                reason="set AMERIKANER_SCREENSHOTS=1 to take the docs' pictures")


@pytest.mark.parametrize("size_name,size", [("laptop", LAPTOP), ("phone", PHONE)])
def test_every_phase(new_page: Any, artifacts: Path, size_name: str, size: dict[str, int]) -> None:
    folder = artifacts / "shots"
    folder.mkdir(exist_ok=True)

    def shot(name: str) -> None:
        page.evaluate("() => { scrollTo(0, 0); document.activeElement.blur(); }")
        page.wait_for_timeout(250)
        page.screenshot(path=folder / f"{name}-{size_name}.png")

    page = new_page(size_name, viewport=size, reduced_motion="reduce")
    page.goto("/")
    page.get_by_role("textbox", name="Your name").fill("Ann")
    shot("landing")
    page.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))
    page.get_by_text("Change the rules").click()
    page.get_by_role("combobox", name="Match length").select_option("deals:2")
    page.get_by_role("combobox", name="Turn time").select_option("120")  # 30 s here
    page.get_by_text("Change the rules").click()
    page.get_by_role("button", name="Nice!").click()
    shot("lobby")
    page.get_by_role("button", name="Start").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)

    taken: set[str] = set()
    deadline = time.monotonic() + 120
    while not deal_over(page) and time.monotonic() < deadline:
        phase = str(page.locator("#room").get_attribute("data-phase"))
        if phase == "auction" and page.get_by_role("button", name="Pass", exact=True).is_visible():
            if "auction" not in taken:
                taken.add("auction")
                shot("auction")
            page.get_by_role("button", name=BID, disabled=False).last.click()
        elif phase == "discard" and page.get_by_role("button", name="Discard").is_visible():
            cards = hand(page).get_by_role("button", pressed=False)
            cards.nth(0).click()
            cards.nth(4).click()
            shot("discard")
            take_turn(page, bid=False)
        elif phase == "lead" and page.locator("#hand button.playable").count():
            page.locator("#hand button.playable").first.click()
            expect(page.get_by_role("button", name=CALL).first).to_be_visible()
            shot("lead")
            take_turn(page, bid=False)
        elif (phase == "play" and "play" not in taken
              and page.locator("#hand button.playable").count()
              and page.locator("#last-trick:not([hidden])").count()
              and page.locator("#trick .played").count()):
            taken.add("play")
            shot("play")
        elif not take_turn(page, bid=False):
            page.wait_for_timeout(60)
    page.get_by_text("Deal log").click()
    shot("deal-over")
    page.get_by_role("button", name="Next deal").click()
    expect(page.get_by_role("button", name="Next deal")).to_be_hidden()
    deadline = time.monotonic() + 120
    while not page.get_by_role("button", name="Download record").is_visible():
        assert time.monotonic() < deadline
        if not take_turn(page, bid=False):
            page.wait_for_timeout(60)
    shot("match-over")
