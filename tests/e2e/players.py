"""A person at the table, driven through the page only by roles and accessible names.

``take_turn`` looks at what the page offers right now and does the obvious thing: bid the
lowest legal number (or pass), pick discards until ``Discard`` is enabled (and wait for
its answer), pick a lead and call the first offered card, or play the first enabled card.
The names are the page's language's (its catalogue, words.py): a page in Norwegian or
French plays as well.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .words import Words, of

BID = re.compile(r"^Bid \d+$")
CALL = re.compile(r"^(Call .+|Play alone)$")
SHORT = 1500  # ms: an element may vanish when the next state arrives
HANG = 300  # s: longer than any healthy machine takes, however busy


def until_a_hang(seconds: float = HANG) -> Iterator[None]:
    """The turns of a loop that waits on the page: as many as fit in ``seconds``, so that
    only a hang ends it (a count of tries depends on the machine's speed: a busy machine
    ran out of 400 before the bots brought a turn)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        yield


def bid_names(words: Words) -> re.Pattern[str]:
    return words.pattern("bid.number", n=r"\d+")


def call_names(words: Words) -> re.Pattern[str]:
    call, alone = words.pattern("lead.call"), words.pattern("lead.alone")
    return re.compile(f"{call.pattern}|{alone.pattern}")


def hand(page: Any, words: Words | None = None) -> Any:
    return page.get_by_role("region", name=(words or of(page)).t("room.your_hand"))


def enabled_cards(page: Any, words: Words | None = None) -> Any:
    return hand(page, words).get_by_role("button", disabled=False)


def deal_over(page: Any) -> bool:
    words = of(page)
    return bool(page.get_by_role("button", name=words.t("result.next_deal"), exact=True)
                .is_visible()
                or page.get_by_role("button", name=words.t("result.download"), exact=True)
                .is_visible())


def take_turn(page: Any, *, bid: bool) -> str | None:
    """Do one thing if it is this page's turn; return what was done (None: nothing)."""
    try:
        words = of(page)
        pass_button = page.get_by_role("button", name=words.t("bid.pass"), exact=True)
        if pass_button.is_visible():
            numbers = page.get_by_role("button", name=bid_names(words), disabled=False)
            if bid and numbers.count():
                numbers.first.click(timeout=SHORT)
                return "bid"
            pass_button.click(timeout=SHORT)
            return "pass"
        discard = page.get_by_role("button", name=words.t("discard.button"), exact=True)
        if discard.is_visible():
            while discard.is_disabled():
                hand(page, words).get_by_role("button", pressed=False).first.click(timeout=SHORT)
            discard.click(timeout=SHORT)
            # Only our Discard ends this phase (the bidder alone discards). Until its answer
            # the page still shows the discard; the lead's state could then come between a
            # caller's next reads, and a card clicked would be a lead choice, which takes the
            # focus to the calls (a busy run's failure): the answer is waited for here.
            expect(page.locator("#room")).not_to_have_attribute("data-phase", "discard")
            return "discard"
        calls = page.get_by_role("button", name=call_names(words))
        if calls.count():
            calls.first.click(timeout=SHORT)
            return "call"
        cards = enabled_cards(page, words)
        if cards.count():
            cards.first.click(timeout=SHORT)
            return "play"
    except PlaywrightError:
        return None  # the page moved on under us; look again
    return None


def play_until_deal_over(pages: list[Any], bidders: set[int], timeout: float = 150,
                         midway: Callable[[], None] | None = None) -> list[str]:
    """Let every page act until all of them show the deal's end; the moves made.
    ``midway`` is called once, after the fourth card a person played."""
    moves: list[str] = []
    deadline = time.monotonic() + timeout
    while not all(deal_over(p) for p in pages):
        if time.monotonic() > deadline:
            raise AssertionError(f"the deal did not end; moves so far: {moves}")
        acted = False
        for i, page in enumerate(pages):
            move = take_turn(page, bid=i in bidders)
            if move:
                moves.append(f"{i}:{move}")
                acted = True
                if midway and sum(m.endswith(":play") for m in moves) == 4:
                    midway()
        if not acted:
            pages[0].wait_for_timeout(80)
    return moves


def open_room(page: Any, name: str, button: str, *, single_round: bool = False) -> None:
    """From the landing page, as ``name``: ``Create room`` or ``Practice`` (a match of one
    deal with ``single_round``)."""
    page.goto("/")
    page.get_by_role("textbox", name="Your name").fill(name)
    if single_round:
        page.get_by_role("checkbox", name="Single round (one deal)").check()
    page.get_by_role("button", name=button).click()
    page.wait_for_url(re.compile(r"/r/[0-9a-z]+$"))


def bid_the_highest(page: Any, discarding: Callable[[], bool]) -> bool:
    """At each of the page's turns in the auction (in English), bid the highest number at
    once, until ``discarding()`` says the page's player won and must discard (True), or
    the auction went elsewhere: a bot won it, nobody bid, or the highest number was bid
    already (False: the caller opens another table)."""
    for _ in until_a_hang():
        if discarding():
            return True
        if page.locator("#room").get_attribute("data-phase") not in ("auction", "lobby"):
            return False
        if page.get_by_role("button", name="Pass", exact=True).is_visible():
            bids = page.get_by_role("button", name=BID, disabled=False)
            if not bids.count():
                return False
            # (the next state may come under the click: then look again)
            with contextlib.suppress(PlaywrightError):
                bids.last.click(timeout=SHORT)
        page.wait_for_timeout(60)
    return False


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    client = page.evaluate("document.documentElement.clientWidth")
    assert width <= client, f"horizontal scroll: content {width}px wide in {client}px"


def on_first_screen(page: Any, locator: Any, what: str) -> None:
    """``locator`` is seen without scrolling: its box, measured from the top of the page,
    lies within the window's height."""
    box = locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return {top: r.top + scrollY, bottom: r.bottom + scrollY, height: innerHeight}; }")
    assert box["top"] >= 0 and box["bottom"] <= box["height"], (
        f"{what} is not on the first screen: {box}")


def focus_by_tab(page: Any, locator: Any, limit: int = 80) -> None:
    """Press Tab until ``locator`` has the focus (keyboard-only navigation); none when it
    has it already (the landing page starts in its name box)."""
    if locator.evaluate("el => el === document.activeElement"):
        return
    for _ in range(limit):
        page.keyboard.press("Tab")
        if locator.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError("could not reach the control with Tab")


def tab_until(page: Any, predicate: str, limit: int = 80, *, press_first: bool = False) -> None:
    """Press Tab until ``predicate`` (a JS function of the focused element) holds
    (``press_first``: at least once, so that the focus surely came from the keyboard)."""
    check = f"({predicate})(document.activeElement)"
    if not press_first and page.evaluate(check):
        return
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(check):
            return
    raise AssertionError(f"could not reach a control with Tab: {predicate}")


def choose_language(page: Any, code: str) -> None:
    """The language from the top bar, and wait until the page speaks it (in its menu on a phone)."""
    menu = page.locator("#menu-button")
    if menu.is_visible():
        menu.click()
    page.locator("#lang-select").select_option(code)
    if menu.is_visible():
        menu.click()
    expect(page.locator("html")).to_have_attribute("lang", code)
