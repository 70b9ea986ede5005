"""Issue 39: sounds for your turn, a trick taken and the deal's end, off until the player
turns them on and remembered across a reload; and reactions that show without an emoji
font (the test machine's Chromium has none).  The page's audio is a stub that writes
down the notes asked of it (an init script replaces ``AudioContext``), so the test knows
which sound played when, by events, never by time."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE
from .players import choose_language, deal_over, open_room, take_turn, until_a_hang
from .words import Words, of

# sound.js's SOUNDS: each sound's notes
SOUNDS = {"trick": [494, 392], "deal_end": [523, 659, 784], "turn": [660, 880]}
AUDIO_STUB = """
window.__notes = [];
class Param { setValueAtTime() {} exponentialRampToValueAtTime() {} }
class Node { connect(next) { return next; } }
class Oscillator extends Node {
  constructor() { super(); this.frequency = { set value(v) { window.__notes.push(v); } }; }
  start() {} stop() {}
}
class Gain extends Node { constructor() { super(); this.gain = new Param(); } }
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = new Node(); }
  resume() { return Promise.resolve(); }
  createOscillator() { return new Oscillator(); }
  createGain() { return new Gain(); }
};
"""


def sounds_played(page: Any) -> list[str]:
    """The sounds the page played since it loaded."""
    notes: list[float] = page.evaluate("window.__notes")
    names: list[str] = []
    while notes:
        name = next((n for n, tune in SOUNDS.items() if notes[:len(tune)] == tune), None)
        assert name is not None, f"notes of no sound: {notes}"
        names.append(name)
        notes = notes[len(SOUNDS[name]):]
    return names


def sound_switch(page: Any, words: Words) -> Any:
    return page.get_by_role("checkbox", name=words.t("settings.sound"), exact=True)


def test_sounds_are_off_until_chosen_then_remembered_and_follow_the_table(
        new_page: Any) -> None:
    page = new_page("sound", viewport=LAPTOP)
    page.add_init_script(AUDIO_STUB)
    open_room(page, "Sia", "Practice", single_round=True)
    words = of(page)
    # off by default: the first turn comes in silence
    expect(page.get_by_role("button", name=words.t("bid.pass"), exact=True)).to_be_visible()
    switch = sound_switch(page, words)
    expect(switch).not_to_be_checked()
    assert sounds_played(page) == []

    switch.check()  # the player hears what a sound is like
    assert sounds_played(page) == ["turn"]
    page.reload()
    expect(sound_switch(page, words)).to_be_checked()  # remembered
    # the turn the page finds on loading is a new turn to it: it says so
    expect(page.get_by_role("button", name=words.t("bid.pass"), exact=True)).to_be_visible()
    assert sounds_played(page) == ["turn"]

    moves = 0
    for _ in until_a_hang():
        if deal_over(page):
            break
        if take_turn(page, bid=False) is None:
            page.wait_for_timeout(40)
        else:
            moves += 1
    assert deal_over(page)
    heard = sounds_played(page)
    # the table's sounds, in the order the table went: a turn for each of ours (a turn
    # may hold two moves: the discard and the lead), a trick taken for each but the last,
    # whose sound is the deal's end
    assert heard[-1] == "deal_end" and heard.count("deal_end") == 1, heard
    tricks = page.locator("#deal-log li.log-trick").count()
    assert tricks >= 10 and heard.count("trick") >= tricks - 1, (tricks, heard)
    assert moves / 2 <= heard.count("turn") <= moves + 1, (moves, heard)


def test_reactions_are_drawn_without_an_emoji_font(new_page: Any) -> None:
    """One browser context for the three cases (a context each made three, a renderer and
    a cold cache each): at each, the window is set first and a new room opened from the
    landing page, in English again (the language chosen before is put back)."""
    page = new_page("reactions", viewport=PHONE)
    for viewport, lang in ((PHONE, "en"), (LAPTOP, "nb"), (PHONE, "fr")):
        page.set_viewport_size(viewport)
        reactions_drawn(page, lang)
        choose_language(page, "en")  # (open_room speaks English)


def reactions_drawn(page: Any, lang: str) -> None:
    open_room(page, "Rae", "Create room")
    choose_language(page, lang)
    words = Words(lang)
    # the sounds' switch speaks the page's language too (in the menu on a phone)
    menu = page.locator("#menu-button")
    if menu.is_visible():
        menu.click()
    expect(page.locator("#sound-toggle")).to_have_accessible_name(words.t("settings.sound"))
    if menu.is_visible():
        menu.click()
    buttons = page.locator("#reactions button")
    expect(buttons).to_have_count(5)
    for i, reaction in enumerate(("nice", "oops", "thanks", "wow", "gg")):
        button = buttons.nth(i)
        expect(button).to_have_accessible_name(words.t(f"reaction.{reaction}"))
        icon = button.locator("svg.reaction-icon use")
        expect(icon).to_have_count(1)
        # the icon is drawn (its symbol loaded: its shapes have a size)...
        area = 0.0
        for _ in until_a_hang(60):
            area = icon.evaluate("u => { const b = u.getBBox(); return b.width * b.height; }")
            if area > 0:
                break
            page.wait_for_timeout(50)
        assert area > 0, reaction
        # ...and shows: the button looks different without it
        drawn = button.screenshot()
        icon.evaluate("u => { u.closest('svg').style.visibility = 'hidden'; }")
        blank = button.screenshot()
        icon.evaluate("u => { u.closest('svg').style.visibility = ''; }")
        assert drawn != blank, reaction
        assert button.inner_text().strip() == ""  # no emoji, no text to miss a font
    buttons.nth(2).click()
    line = page.locator("#chat-log li.reaction")
    expect(line).to_contain_text(words.t("reaction.thanks"))
    expect(line.locator("svg.reaction-icon use")).to_have_count(1)
    assert re.search(r"#thanks$", line.locator("use").get_attribute("href") or "")
