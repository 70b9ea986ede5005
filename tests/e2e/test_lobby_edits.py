"""The host's changes in the lobby all count, however fast they come: a change made
before the server's answer to the one before is neither lost nor undone.

The server's frames to the host's page are held back (Playwright's WebSocket route) and
let through when the test says, so "before the answer" is an order of events, not a
race: the answer is waited for in the hold, the next edit made, then the answer let in.
Each test ends by loading the page again: what the server keeps is the truth.

- A number half typed when the answer to another change comes: the lobby used to be
  drawn anew, and the field with it; Chromium sent the half number as the field went,
  and the rest was typed into the new field.
- A field chosen (its number selected, to be typed over) when that answer comes: the
  new field's number was not selected, and the typed one went in beside it (most
  likely why a late joiner's test once ran with a grace of 300 s where it typed 0).
  Such a field is drawn anew (the answer must show), with its number selected.
- A control pressed with the mouse straight from such a field: the held lobby must
  not be drawn between the press and the release, and `Start`, whose press sends the
  number, must be there at the release though the answer is drawn before it.
- Two rules changed before the first one's answer: a `rules` message replaces the whole
  set, and the second used to be built on the set shown, undoing the first."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import expect

from .players import hand, open_room
from .socket_route import RoutedSocket
from .words import Words

EN = Words("en")


class HeldFrames(RoutedSocket):
    """The page's WebSocket to the real server; while ``held``, the server's frames wait
    here (``waiting``) until ``release`` lets them in, in their order."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.held = False
        self.waiting: list[str | bytes] = []
        self.views: list[dict[str, Any]] = []  # every state frame's, as the server sent it
        super().__init__(page)

    def from_server(self, message: str | bytes) -> None:
        frame = json.loads(message)
        if frame.get("type") == "state":
            self.views.append(frame["view"])
        if self.held:
            self.waiting.append(message)
        else:
            self.route.send(message)

    def wait_for_held(self, shows: Any, what: str) -> None:
        """Until a held state frame's view satisfies ``shows`` (Playwright delivers the
        route's messages while the page waits)."""
        deadline = time.monotonic() + 60
        while not any(shows(frame["view"]) for frame in map(json.loads, self.waiting)
                      if frame.get("type") == "state"):
            assert time.monotonic() < deadline, f"the server never answered: {what}"
            self.page.wait_for_timeout(20)

    def release(self) -> None:
        self.held = False
        for message in self.waiting:
            self.route.send(message)
        self.waiting.clear()


def hosts_lobby(new_page: Any) -> tuple[Any, HeldFrames, str]:
    ann = new_page("ann")
    frames = HeldFrames(ann)
    open_room(ann, "Ann", "Create room")
    ann.get_by_text(EN.t("lobby.change_rules")).click()
    return ann, frames, ann.url


def bo_joins(new_page: Any, url: str, ann: Any) -> None:
    """Bo takes a seat, and Ann's page shows it: every frame the server sent Ann before
    has been drawn by then."""
    bo = new_page("bo")
    bo.goto(url)
    bo.get_by_role("textbox", name=EN.t("form.your_name")).fill("Bo")
    bo.get_by_role("button", name=EN.t("home.join"), exact=True).click()
    expect(ann.locator("#seats")).to_contain_text("Bo")


def pause_while_fast_is_answered(new_page: Any) -> tuple[Any, HeldFrames, str]:
    """Ann sets the bots fast, and the server's answer is held back: her page, its
    frames and the room's link, as that answer is about to come."""
    ann, frames, url = hosts_lobby(new_page)
    pace = ann.get_by_role("combobox", name=EN.t("settings.bot_pace"))
    frames.held = True
    pace.select_option("fast")
    frames.wait_for_held(lambda view: view["room"]["settings"]["bot_pace"] == "fast", "bot pace")
    return ann, frames, url


def sent_pauses(frames: HeldFrames) -> set[int]:
    return {view["room"]["settings"]["next_deal_pause"] for view in frames.views}


def the_server_keeps(ann: Any, pause: str) -> None:
    ann.reload()
    ann.get_by_text(EN.t("lobby.change_rules")).click()
    expect(ann.get_by_role("spinbutton", name=EN.t("lobby.pause"))).to_have_value(pause)
    expect(ann.get_by_role("combobox", name=EN.t("settings.bot_pace"))).to_have_value("fast")


def test_a_number_half_typed_when_another_change_is_answered_is_kept(new_page: Any) -> None:
    ann, frames, url = pause_while_fast_is_answered(new_page)
    pause = ann.get_by_role("spinbutton", name=EN.t("lobby.pause"))
    pause.fill("1")  # typed, not sent: the field still has the focus
    frames.release()
    bo_joins(new_page, url, ann)
    expect(pause).to_be_focused()
    expect(pause).to_have_value("1")
    pause.press_sequentially("5")
    pause.press("Tab")  # sent
    # The lobby is drawn again once the field lets go: the first change shows.
    expect(ann.locator("#lobby .rules-summary")).to_contain_text(EN.t("pace.fast"))
    expect(pause).to_have_value("15")
    the_server_keeps(ann, "15")
    assert 1 not in sent_pauses(frames), "the half-typed number was sent"


def test_a_number_chosen_to_type_over_when_another_change_is_answered(new_page: Any) -> None:
    ann, frames, url = pause_while_fast_is_answered(new_page)
    pause = ann.get_by_role("spinbutton", name=EN.t("lobby.pause"))
    pause.select_text()  # (as a tap or Tab into the field does)
    frames.release()
    bo_joins(new_page, url, ann)
    pause.press_sequentially("8")
    pause.press("Tab")
    the_server_keeps(ann, "8")


def test_a_field_with_the_focus_and_nothing_typed_lets_the_lobby_be_drawn(
        new_page: Any) -> None:
    """Only a field holding a typed number holds the lobby back: one the person is merely
    in (Tab from the field before brings them there) lets the answers be drawn."""
    ann, frames, url = pause_while_fast_is_answered(new_page)
    pause = ann.get_by_role("spinbutton", name=EN.t("lobby.pause"))
    pause.focus()
    frames.release()
    bo_joins(new_page, url, ann)
    expect(ann.locator("#lobby .rules-summary")).to_contain_text(EN.t("pace.fast"))
    expect(pause).to_be_focused()


def press(page: Any, target: Any) -> None:
    """The mouse's button down on ``target`` (scrolled into view), and every task the
    press queued run (timers of 0 run in order); ``page.mouse.up()`` releases it."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => new Promise((resolve) => setTimeout(resolve))")


def test_a_checkbox_pressed_from_a_number_typed_in_is_ticked(new_page: Any) -> None:
    """The lobby held while a number was typed is drawn once the mouse that took the
    focus from the field is released: drawn at the press, the checkbox pressed would be
    replaced, and Chromium sends no click to it then."""
    ann, frames, url = pause_while_fast_is_answered(new_page)
    ann.get_by_role("spinbutton", name=EN.t("lobby.pause")).fill("4")
    frames.release()
    bo_joins(new_page, url, ann)  # the lobby is held: fast is not drawn yet
    chat = ann.get_by_role("checkbox", name=EN.t("settings.spectator_chat"))
    expect(chat).to_be_checked()
    press(ann, chat)
    ann.mouse.up()
    expect(chat).not_to_be_checked()
    expect(ann.locator("#lobby .rules-summary")).to_contain_text(EN.t("pace.fast"))


def test_start_pressed_as_the_lobby_is_drawn_starts(new_page: Any) -> None:
    """A number typed, then `Start` pressed with the mouse: the press sends the number,
    and its answer comes before the release.  The lobby waits for the release, so the
    click reaches it."""
    ann, frames, url = pause_while_fast_is_answered(new_page)
    ann.get_by_role("spinbutton", name=EN.t("lobby.pause")).fill("4")
    frames.release()
    bo_joins(new_page, url, ann)
    frames.held = True
    press(ann, ann.get_by_role("button", name=EN.t("lobby.start")))  # the number is sent
    frames.wait_for_held(lambda view: view["room"]["settings"]["next_deal_pause"] == 4, "4")
    frames.release()  # the answer comes in under the pressed button
    ann.evaluate("() => new Promise((resolve) => setTimeout(resolve))")
    ann.mouse.up()
    expect(hand(ann).get_by_role("button")).to_have_count(12)


def test_a_rule_changed_before_the_last_ones_answer_keeps_it(new_page: Any) -> None:
    ann, frames, url = hosts_lobby(new_page)
    grand = ann.get_by_role("checkbox", name=EN.t("opt.grand.name"))
    shown = ann.get_by_role("checkbox", name=EN.t("opt.show_kitty.name"))
    expect(grand).not_to_be_checked()
    expect(shown).not_to_be_checked()
    frames.held = True
    grand.check()
    frames.wait_for_held(lambda view: view["room"]["rules"].get("grand") is True, "grand")
    shown.check()  # the server has taken grand; the page has not been told yet
    frames.wait_for_held(lambda view: view["room"]["rules"].get("show_kitty") is True,
                         "show the kitty")
    frames.release()
    bo_joins(new_page, url, ann)
    expect(grand).to_be_checked()
    expect(shown).to_be_checked()

    ann.reload()
    ann.get_by_text(EN.t("lobby.change_rules")).click()
    expect(grand).to_be_checked()
    expect(shown).to_be_checked()
