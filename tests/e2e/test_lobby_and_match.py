"""The host's rules panel (every option explained; a bad combination is refused with the
option named), a single-round practice match to its end: winners, the record download and
a rematch."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import PHONE
from .players import hand, open_room, play_until_deal_over


def test_host_rules_panel(new_page: Any, artifacts: Path) -> None:
    host = new_page("host")
    host.goto("/")
    host.get_by_role("textbox", name="Your name").fill("Ann")
    host.get_by_role("combobox", name="Rules").select_option("guide")
    host.get_by_role("button", name="Create room").click()
    host.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))
    expect(host.get_by_text("4 players, 12 cards each, kitty 4, bids 6 to 12")).to_be_visible()

    host.get_by_text("Change the rules").click()
    # Every option has a control and a one-line explanation.
    expect(host.get_by_role("combobox", name="Players")).to_have_value("4")
    expect(host.get_by_text("Number of seats at the table.")).to_be_visible()
    expect(host.get_by_role("checkbox", name="Grand")).not_to_be_checked()

    # A bad combination: the server's answer names the option and it is shown next to it.
    host.get_by_role("spinbutton", name="Highest bid").fill("14")
    host.get_by_role("spinbutton", name="Highest bid").press("Enter")
    host.get_by_role("spinbutton", name="Highest bid").blur()
    expect(host.get_by_text(re.compile(r"^max_bid: .*14 cannot be bid"))).to_be_visible()
    expect(host.get_by_role("spinbutton", name="Highest bid")).to_have_attribute(
        "aria-invalid", "true")

    # A good change goes through: three players, three seats.
    host.get_by_role("combobox", name="Players").select_option("3")
    expect(host.get_by_text(re.compile(r"^3 players, 16 cards each"))).to_be_visible()
    expect(host.get_by_role("combobox", name=re.compile("^Bot level for seat"))).to_have_count(2)
    host.get_by_role("checkbox", name="Grand").check()
    expect(host.get_by_text("Grand: on")).to_be_visible()
    host.screenshot(path=artifacts / "lobby-rules-desktop.png", full_page=True)


def test_single_round_practice_to_the_end(new_page: Any) -> None:
    page = new_page("solo")
    open_room(page, "Kim", "Practice", single_round=True)
    expect(hand(page).get_by_role("button")).to_have_count(12)

    play_until_deal_over([page], bidders={0})
    expect(page.get_by_role("heading", name="Match over")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^(Winner|Shared victory): "))).to_be_visible()

    download_button = page.get_by_role("button", name="Download record")
    expect(download_button).to_be_enabled()
    with page.expect_download() as info:
        download_button.click()
    record = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record["rules"]["match"] == "single_deal"

    page.get_by_role("button", name="Rematch").click()
    expect(hand(page).get_by_role("button")).to_have_count(12)
    expect(page.get_by_role("heading", name="Match over")).to_be_hidden()


def test_the_bot_levels_say_what_to_expect(new_page: Any) -> None:
    page = new_page("ann", viewport=PHONE)
    page.goto("/")
    opponents = page.get_by_role("combobox", name="Opponents")
    opponents.select_option("strong")
    expect(opponents).to_have_accessible_description(re.compile("the strongest"))
    opponents.select_option("random")
    expect(opponents).to_have_accessible_description(re.compile("for learning the rules"))
    open_room(page, "Ann", "Create room")
    page.get_by_text("What the bot levels mean").click()
    levels = page.locator("#lobby .bot-levels dt")
    expect(levels).to_have_text(["Bot: random", "Bot: easy", "Bot: normal", "Bot: strong"])
