"""On a phone the dock (the controls, the hint and the hand, stuck to the screen's bottom)
never covers the trick at our turn, whatever the table above it and the dock hold: the
longest names, every badge, the longest contract (a minus round, the secret partner's
words), a running clock, the longest hint, what a bot did while we were away, a lost
connection; at a table of four (a practice table), five and three.

A real table (a practice table; of three or five, bots in the other seats) is played
(the page's clock still: nothing moves unless we play) up to our turn with cards in the
trick; then each state is forced by editing the real server's state frame on its way to
the page (Playwright's WebSocket route) and sending it again, so that the client's own
renderers draw it; the test measures once the page shows that frame (its deal number),
not after a wait. A deal happened to reach these states now and then (issue: a French
320 px phone failed once in about fifteen runs).

The discard's dock is the tallest (the prompt, `Discard`, the hint naming four cards and
why, a hand of sixteen): there the kitty in the middle of the table must stay above it,
whatever the table above it holds (the longest names, every badge, the longest hint), as
the page's bidder sees it at a practice table it won the auction at."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, SMALL_PHONE
from .players import (
    bid_the_highest,
    choose_language,
    enabled_cards,
    hand,
    open_room,
    take_turn,
    until_a_hang,
)
from .socket_route import RoutedSocket
from .test_polish import win_the_auction
from .test_trick_display import our_turn_to_play, practice_on_a_still_clock
from .words import Words, of

# What the test does to a state frame's view (in place).
Force = Callable[[dict[str, Any]], None]

LONG_NAME = "Marie-Antoinette Hautecloque-Bé"  # 31 of the 32 characters a name may have
assert len(LONG_NAME) <= 32

# Whether, at the top of the page, the dock covers the trick's area, or what a bot did
# while we were away (over the top of the page on a phone) does; and what a failure shows.
# The area, not the cards in it: its rows are fixed, its box is where any card of a trick
# may lie (the bottom one ours, in a trick held), and no animation moves it.
UNDER_DOCK = """() => { scrollTo(0, 0);
  const dock = document.querySelector('.dock').getBoundingClientRect();
  const area = document.getElementById('trick').getBoundingClientRect();
  const banner = document.getElementById('stood-in');
  const over = banner.hidden ? 0 : banner.getBoundingClientRect().bottom;
  return {covered: area.bottom > dock.top + 0.5 || over > area.top + 0.5,
          trick: [area.top, area.bottom], over, dock_top: dock.top,
          cards: document.querySelectorAll('#trick .played').length,
          dock: document.querySelector('.dock').innerText.slice(0, 200),
          above: [...document.querySelectorAll(
            '#conn-status, #turn-status, #stood-in, #contract, .seat')].map(
            e => [e.id || e.className, Math.round(e.getBoundingClientRect().height)])}; }"""


class Frames(RoutedSocket):
    """The page's WebSocket to the real server, its state frames edited by ``force`` on
    the way in; ``again()`` sends the last one again under the current ``force``."""

    def __init__(self, page: Any) -> None:
        self.force: Force = lambda view: None
        self.hint: Force = lambda frame: None
        self.last: dict[str, Any] | None = None
        self.last_hint: dict[str, Any] | None = None
        super().__init__(page)

    def _edited(self, frame: dict[str, Any]) -> str:
        frame = copy.deepcopy(frame)
        if frame.get("type") == "state":
            self.force(frame["view"])
        elif frame.get("type") == "hint":
            self.hint(frame)
        return json.dumps(frame)

    def from_server(self, message: str | bytes) -> None:
        frame = json.loads(message)
        if frame.get("type") == "state":
            self.last = frame
        elif frame.get("type") == "hint":
            self.last_hint = frame
        self.route.send(self._edited(frame))

    def again(self, deal: int) -> None:
        """The last state's hint under ``hint``, then the state under ``force``, shown
        as deal ``deal`` (what the test waits for: the hint is in by then, as the page
        keeps a hint for the state it answers) and without its events (no card comes in
        again)."""
        assert self.last is not None
        frame = {**self.last, "events": []}
        if self.last_hint is not None and self.last_hint["game"] == frame["game"]:
            self.route.send(self._edited(self.last_hint))
        force = self.force

        def marked(view: dict[str, Any]) -> None:
            force(view)
            view["deal_number"] = deal

        self.force = marked
        try:
            self.route.send(self._edited(frame))
        finally:
            self.force = force


def long_names(view: dict[str, Any]) -> None:
    for seat in view["room"]["seats"]:
        seat.update(name=LONG_NAME, human=True, connected=True)


def every_badge(view: dict[str, Any]) -> None:
    """The most badges each seat can wear at once (beside the dealer's, the bidder's and
    the partner's the deal gave): every other seat after ours a person's for whom a bot
    plays (away; the first of them the host), the others a bot's that a person takes
    over at the next deal (the longest badge: the name in it)."""
    others = [s for s in view["room"]["seats"] if s["seat"] != view["you"]]
    for i, seat in enumerate(others):
        if i % 2 == 0:
            seat.update(human=True, host=i == 0, connected=False, away=True, joining=None)
        else:
            seat.update(human=False, host=False, away=False, takeover=True, joining=LONG_NAME)
    view["room"]["seats"][view["you"]]["host"] = False


def secret_partner(view: dict[str, Any]) -> None:
    view["you_are_partner"] = True
    if view.get("contract"):
        view["contract"]["partner"] = None


def minus_round(view: dict[str, Any]) -> None:
    view["minus_round"] = True


def turn_clock(now: float) -> Force:
    """Our turn's clock at its longest (120 s) from ``now``, the page's time."""
    def force(view: dict[str, Any]) -> None:
        view["room"]["clock"] = {"seat": view["you"], "until": now + 120, "kind": "turn"}

    return force


def stood_in(view: dict[str, Any]) -> None:
    view["room"]["stood_in"] = [{"bid": "pass"}, {"play": "QH"}, {"play": "TC"}]


def long_hint(frame: dict[str, Any]) -> None:
    frame.update(key="hint.play_throw", params={"card": frame["action"].get("play", "QS")})


def table_states(now: float) -> dict[str, Force]:
    """What the table above the trick and the dock can hold, each at its longest, and all
    of them that a deal can show at once (a minus round has no contract)."""
    states = {"long names": long_names, "every badge": every_badge,
              "secret partner": secret_partner, "minus round": minus_round,
              "turn clock": turn_clock(now)}

    def everything(view: dict[str, Any]) -> None:
        for force in states.values():
            if force is not minus_round:
                force(view)

    return {**states, "everything": everything}


def table_of(page: Any, players: int, lang: str) -> None:
    """A table of ``players`` in ``lang``, its cards dealt, the page's clock then still:
    four, a practice table; three or five, a table whose host (the page) sets that many
    players and no turn clock (no bot stands in while the test looks) before the start,
    bots in the other seats."""
    if players == 4:
        practice_on_a_still_clock(page, "Ida", lang)
        return
    page.clock.install()
    open_room(page, "Ida", "Create room")
    choose_language(page, lang)
    start_with_bots(page, players, of(page))
    page.clock.pause_at(datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1, UTC))


# The sizes and languages each table is measured at, switched in the page: a table of its
# own for each took five tables' play for the same measurements. The narrowest first, in
# the language of the longest words (fr), as the table is dealt.
TRICK_LOOKS = {4: [(SMALL_PHONE, "fr"), (PHONE, "fr"), (SMALL_PHONE, "nb"), (PHONE, "nb")],
               5: [(SMALL_PHONE, "fr")], 3: [(SMALL_PHONE, "nb")]}


def size_and_language(page: Any, viewport: dict[str, int], lang: str) -> Words:
    """The page at ``viewport`` in ``lang``: its words."""
    page.set_viewport_size(viewport)
    choose_language(page, lang)
    return of(page)


def forced(page: Any, frames: Frames, force: Force, number: int, words: Words) -> None:
    """The last state again as deal ``number`` under ``force``, once the page shows it."""
    frames.force = force
    frames.again(number)
    expect(page.locator("#contract .deal-no")).to_have_text(words.t("contract.deal", n=number))


def plain(page: Any, frames: Frames, number: int, words: Words) -> None:
    """The last state again as deal ``number``, unforced: nothing lies over the page."""
    forced(page, frames, lambda view: None, number, words)
    expect(page.locator("#stood-in")).to_be_hidden()


def look(viewport: dict[str, int], lang: str, label: str) -> str:
    return f"{lang} {viewport['width']}x{viewport['height']}: {label}"


@pytest.mark.parametrize("players", [4, 5, 3], ids=["four", "five", "three"])
def test_nothing_pushes_the_trick_under_the_dock(new_page: Any, players: int) -> None:
    looks = TRICK_LOOKS[players]
    viewport, lang = looks[0]
    page = new_page(f"dock-{players}", viewport=viewport, reduced_motion="no-preference")
    frames = Frames(page)
    table_of(page, players, lang)
    # our turn in the play with a card or more in the trick: as long as the bots take
    # (a count of tries ran out on a busy machine while five seats' bots bid)
    for _ in until_a_hang():
        if our_turn_to_play(page) and page.locator("#trick .played").count():
            break
        take_turn(page, bid=False)
        page.wait_for_timeout(50)
    assert our_turn_to_play(page), "never our turn with cards in the trick"
    if players != 4:
        # (only a practice table has hints: the page is given one, as it would be)
        assert frames.last is not None
        view = frames.last["view"]
        frames.last_hint = {"type": "hint", "game": frames.last["game"], "seat": view["you"],
                            "action": {"play": view["hand"][0]}, "key": "hint.play",
                            "params": {}}
        frames.again(90)
    # its hint (a line of the dock) comes after the state: the longest one from now on
    hint = page.locator("#controls .hint-box")
    expect(hint).to_be_visible()
    frames.hint = long_hint
    words = of(page)
    covered = []
    number = 91
    for viewport, lang in looks:
        if number > 91:  # (the stood-in banner lies over the phone's menu: a plain state)
            plain(page, frames, number, words)
            number += 1
        words = size_and_language(page, viewport, lang)
        longest = words.pattern("hint.play_throw", whole=False).pattern
        longest_hint = words.pattern("hint.reason", reason=longest)
        states: list[tuple[str, Force]] = [
            ("the longest hint", lambda view: None),
            *table_states(page.evaluate("Date.now() / 1000")).items(),
            ("stood in", stood_in)]
        for label, force in states:
            forced(page, frames, force, number, words)
            expect(hint).to_have_text(longest_hint)
            expect(enabled_cards(page).first).to_be_visible()
            shown = page.evaluate(UNDER_DOCK)
            if shown["covered"]:
                covered.append((look(viewport, lang, label), shown))
            number += 1
    # the connection lost (its line above the table; the page's retry waits on its clock)
    plain(page, frames, number, words)
    frames.route.close()
    expect(page.locator("#conn-status")).to_have_text(words.t("conn.lost"))
    shown = page.evaluate(UNDER_DOCK)
    if shown["covered"]:
        covered.append((look(viewport, lang, "connection lost"), shown))
    assert covered == [], "the dock covers the trick:\n" + "\n".join(map(str, covered))


# Whether, at the top of the page, the dock covers any of the kitty's row in the discard;
# and what a failure shows.
KITTY_UNDER_DOCK = """() => { scrollTo(0, 0);
  const dock = document.querySelector('.dock').getBoundingClientRect();
  const row = document.querySelector('#center-panel .kitty-row');
  if (!row) return {covered: true, kitty: 'no kitty shown'};
  const kitty = row.getBoundingClientRect();
  return {covered: kitty.bottom > dock.top + 0.5, kitty: [kitty.top, kitty.bottom],
          dock_top: dock.top, dock: document.querySelector('.dock').innerText.slice(0, 300),
          above: [...document.querySelectorAll('#turn-status, #contract, .seat')].map(
            e => [e.id || e.className, Math.round(e.getBoundingClientRect().height)])}; }"""


def longest_discard_hint(words: Words, discards: int) -> tuple[Force, str]:
    """The discard's longest hint in ``words``' language (the reason with the most words,
    naming the ``discards`` cards and the trump whose names are longest there): what
    forces it on a hint frame, and its text on the page."""
    def in_sentence(card: str) -> str:
        return words.t("card.in_sentence", rank=words.t(f"rank.in_sentence.{card[0]}"),
                       suit=words.t(f"suit.{card[1]}"))

    cards = sorted((rank + suit for rank in "23456789TJQKA" for suit in "SHDC"),
                   key=lambda card: -len(in_sentence(card)))[:discards]
    trump = max("SHDC", key=lambda suit: len(words.t(f"suit.{suit}")))

    def force(frame: dict[str, Any]) -> None:
        frame.update(key="hint.discard_void", params={"cards": cards, "trump": trump})

    reason = words.t("hint.discard_void", cards=", ".join(map(in_sentence, cards)),
                     trump=words.t(f"suit.{trump}"))
    return force, words.t("hint.reason", reason=reason)


def we_discard(frames: Frames) -> bool:
    """Whether the last state is the discard of the page's player (the auction's winner)."""
    view = frames.last["view"] if frames.last else None
    return bool(view and view["phase"] == "discard" and view["contract"]
                and view["contract"]["bidder"] == view["you"])


def start_with_bots(page: Any, players: int, words: Words) -> None:
    """As the host in the lobby: ``players`` seats, no turn clock (no bot stands in while
    the test looks), then the start, bots in the other seats; until the cards show."""
    page.locator("#lobby details.rules-details > summary").click()
    page.locator('[data-key="rule:players"]').select_option(str(players))
    page.locator('[data-setting="turn_seconds"]').select_option("0")
    # (the server takes the messages in turn: Start comes after both)
    page.get_by_role("button", name=words.t("lobby.start"), exact=True).click()
    expect(hand(page).get_by_role("button").first).to_be_visible()


def win_an_auction_of(page: Any, frames: Frames, players: int) -> None:
    """Tables of ``players`` (the page's host, bots in the other seats, no turn clock),
    until the page's player wins the auction (bidding the highest number at once) and
    must discard: a new table whenever a bot wins it or nobody bids."""
    for _ in range(8):
        open_room(page, "Ida", "Create room")
        start_with_bots(page, players, Words("en"))
        if bid_the_highest(page, lambda: we_discard(frames)):
            return
    raise AssertionError(f"never won an auction at a table of {players} in eight tables")


# As TRICK_LOOKS, for the discard: each table of its own took a won auction each.
KITTY_LOOKS = {4: [(SMALL_PHONE, "fr"), (SMALL_PHONE, "nb"), (SMALL_PHONE, "en"), (PHONE, "nb")],
               5: [(SMALL_PHONE, "fr")]}


@pytest.mark.parametrize("players", [4, 5], ids=["four", "five"])
def test_nothing_pushes_the_kitty_under_the_dock(new_page: Any, players: int) -> None:
    looks = KITTY_LOOKS[players]
    viewport, lang = looks[0]
    page = new_page(f"kitty-{players}", viewport=viewport, has_touch=True, is_mobile=True,
                    reduced_motion="no-preference")
    frames = Frames(page)
    if players == 4:
        win_the_auction(page)  # a practice table: a hint follows each of our turns
    else:
        win_an_auction_of(page, frames, players)
    words = size_and_language(page, viewport, lang)
    expect(page.get_by_role("button", name=words.t("discard.button"), exact=True)) \
        .to_be_visible()
    assert frames.last is not None
    if players != 4:
        # (only a practice table has hints: the page is given one, as it would be)
        view = frames.last["view"]
        frames.last_hint = {"type": "hint", "game": frames.last["game"], "seat": view["you"],
                            "action": {"discard": view["hand"][:len(view["kitty"])]},
                            "key": "hint.discard", "params": {"cards": []}}
        frames.again(90)
    hint = page.locator("#controls .hint-box")
    expect(hint).to_be_visible(timeout=60_000)  # (a practice hint is a bot's search)
    assert we_discard(frames)
    discards = len(frames.last["view"]["kitty"])

    def both(view: dict[str, Any]) -> None:
        long_names(view)
        every_badge(view)

    covered = []
    number = 91
    for viewport, lang in looks:
        words = size_and_language(page, viewport, lang)
        frames.hint, longest_hint = longest_discard_hint(words, discards)
        now = page.evaluate("Date.now() / 1000")
        states: list[tuple[str, Force]] = [
            ("the longest hint", lambda view: None), ("long names", long_names),
            ("every badge", every_badge), ("turn clock", turn_clock(now)), ("both", both)]
        for label, force in states:
            forced(page, frames, force, number, words)
            expect(hint).to_have_text(longest_hint)
            shown = page.evaluate(KITTY_UNDER_DOCK)
            if shown["covered"]:
                covered.append((look(viewport, lang, label), shown))
            number += 1
    assert covered == [], "the dock covers the kitty:\n" + "\n".join(map(str, covered))
