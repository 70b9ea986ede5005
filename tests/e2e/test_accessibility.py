"""An accessibility audit with axe-core (WCAG 2.1 A and AA rules and axe's best practices)
of every page and the main states of a game: the landing and rules pages, a room's lobby
as its host and as a visitor who has not taken a seat, and a practice game during the
auction, the discard and the first lead (when we win the contract), play on our turn and
the deal's end, with the four-colour deck, in English, Norwegian and French, at desktop
(1280x900) and phone (375x667) sizes.

No violation of impact "serious" or "critical" is allowed, nor any moderate or minor one
that docs/client.md does not list with its reason (ACCEPTED, empty today).  A failure
prints every violation with its nodes, so it says what to fix where.

axe cannot judge text on the felt (a radial gradient), so the table is audited a second
time for contrast with the felt painted in its lightest colour, the worst case for its
light text.  Three things axe does not check are measured here: disabled buttons stay
readable (4.5:1, WCAG exempts them, but the bid range they show is information), the
practice hint's dashed outline and the keyboard focus ring keep 3:1 against the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .players import (
    BID,
    CALL,
    deal_over,
    enabled_cards,
    hand,
    open_room,
    play_until_deal_over,
    tab_until,
    take_turn,
    until_a_hang,
)

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
BLOCKING = {"serious", "critical"}
# Moderate or minor findings that stay, rule id -> why; each is listed in docs/client.md.
ACCEPTED: dict[str, str] = {}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# axe-core in the page: put there once per document (the library's Axe.run evaluates its
# 570 KB script again at every run, about 0.08 s of CPU each, and the file runs axe about
# 80 times, mostly on pages it ran on already), then run through its own API.
AXE_LOADED = "() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"
AXE_RUN = "([context, options]) => axe.run(context === null ? document : context, options)"

# The colours a person sees for the buttons that are disabled, outside the felt.
DISABLED_COLOURS = """() => [...document.querySelectorAll('button:disabled')]
  .filter(b => b.checkVisibility() && !b.closest('.table'))
  .map(b => { const s = getComputedStyle(b);
    return {what: b.textContent, color: s.color, background: s.backgroundColor,
            opacity: s.opacity}; })"""

# An outline (the hint's, or the focus ring) and the page colour around the element.
OUTLINE = """el => { const s = getComputedStyle(el);
  let around = el.parentElement, bg = 'rgba(0, 0, 0, 0)';
  while (around) { bg = getComputedStyle(around).backgroundColor;
    if (!/rgba\\(.*, 0\\)$/.test(bg)) break; around = around.parentElement; }
  return {what: (el.querySelector('.sr-only') || el).textContent, style: s.outlineStyle,
          width: parseFloat(s.outlineWidth), color: s.outlineColor, background: bg}; }"""

# OUTLINE of each hinted card outside the table (the hand's), in one evaluation
HINT_OUTLINES = ("() => [...document.querySelectorAll('.hinted')]"
                 f".filter(el => el.closest('.table') === null).map({OUTLINE})")


def _rgb(css: str) -> tuple[float, float, float]:
    numbers = [float(n) for n in re.findall(r"[\d.]+", css)[:3]]
    return numbers[0], numbers[1], numbers[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two opaque CSS colours (``rgb(...)``)."""
    def luminance(css: str) -> float:
        channels = [c / 255 for c in _rgb(css)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def describe(violation: dict[str, Any], where: str) -> str:
    lines = [f"{where}: {violation['id']} [{violation['impact']}] {violation['help']}",
             f"  {violation['helpUrl']}"]
    for node in violation["nodes"]:
        lines.append(f"  - {' '.join(map(str, node['target']))}")
        lines.append(f"      {node['html'][:200]}")
        for summary in (node.get("failureSummary") or "").splitlines():
            lines.append(f"      {summary}")
    return "\n".join(lines)


class Audit:
    """Runs axe and the extra measurements on a page in each language and size asked for,
    and keeps every finding, so that one report at the end names them all."""

    def __init__(self) -> None:
        self.axe = axe_sync.Axe()
        self.findings: list[str] = []
        self.audited: list[str] = []
        self.disabled_measured = 0

    def __call__(self, page: Any, where: str, languages: Iterable[str] | None = None,
                 phase: str | None = None) -> None:
        """Audit ``page`` as it is now, in each of ``languages`` (switched with the page's
        language picker; None: the page's own) at both sizes.  With ``phase``, the room
        must stay in that phase throughout (a view that moves on is not the one audited)."""
        start_lang = page.evaluate("document.documentElement.lang")
        start_size = page.viewport_size
        for lang in languages or [start_lang]:
            self._use_language(page, lang)
            for size_name, size in SIZES.items():
                page.set_viewport_size(size)
                page.evaluate(NEXT_FRAME)
                self._run(page, f"{where} ({lang}, {size_name})", phase)
        self._use_language(page, start_lang)
        page.set_viewport_size(start_size)
        page.evaluate(NEXT_FRAME)

    def _use_language(self, page: Any, lang: str) -> None:
        if page.evaluate("document.documentElement.lang") != lang:
            # On a phone the language picker is in the top bar's menu.
            menu = page.locator("#menu-button")
            opened = not page.locator("#lang-select").is_visible() and menu.is_visible()
            if opened:
                menu.click()
            page.locator("#lang-select").select_option(lang)
            if opened:
                menu.click()
        # The lang attribute follows the chosen language (screen readers pick their voice).
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.evaluate(NEXT_FRAME)

    def _run(self, page: Any, where: str, phase: str | None) -> None:
        self._check_phase(page, phase, where)
        self.audited.append(where)
        results = self._axe(page, {"runOnly": {"type": "tag", "values": TAGS},
                                   "resultTypes": ["violations"]})
        for violation in results["violations"]:
            if violation["impact"] in BLOCKING or violation["id"] not in ACCEPTED:
                self.findings.append(describe(violation, where))
        self._felt_contrast(page, where)
        self._disabled_contrast(page, where)
        self._hint_outlines(page, where)
        self._check_phase(page, phase, where)

    def _axe(self, page: Any, options: dict[str, Any],
             context: str | None = None) -> dict[str, Any]:
        """axe-core's results on ``page`` (``context``: a selector; None: the document)."""
        if not page.evaluate(AXE_LOADED):
            page.evaluate(self.axe.axe_script)
        results: dict[str, Any] = page.evaluate(AXE_RUN, [context, options])
        return results

    def _check_phase(self, page: Any, phase: str | None, where: str) -> None:
        if phase is None:
            return
        now = page.locator("#room").get_attribute("data-phase")
        assert now == phase, f"{where}: the room moved on to {now} during the audit"

    def _felt_contrast(self, page: Any, where: str) -> None:
        """Contrast on the table, with the felt painted in the gradient's lightest colour
        (through the CSSOM, which the CSP allows) and put back afterwards."""
        painted = page.evaluate("""() => { const t = document.getElementById('table');
            if (!t || !t.checkVisibility()) return 'no table';
            t.style.background = getComputedStyle(document.documentElement)
              .getPropertyValue('--felt-light');
            return t.style.background ? 'painted' : 'no colour'; }""")
        if painted == "no table":
            return
        if painted == "no colour":
            self.findings.append(f"{where}: app.css defines no --felt-light (the lightest "
                                 "colour of the felt), so contrast on the felt is unchecked")
            return
        try:
            results = self._axe(page, {"runOnly": {"type": "rule", "values": ["color-contrast"]},
                                       "resultTypes": ["violations"]}, context="#table")
        finally:
            page.evaluate("document.getElementById('table').style.background = ''")
        for violation in results["violations"]:
            self.findings.append(describe(violation, f"{where}, felt at its lightest"))

    def _disabled_contrast(self, page: Any, where: str) -> None:
        for b in page.evaluate(DISABLED_COLOURS):
            self.disabled_measured += 1
            ratio = contrast(b["color"], b["background"])
            if b["opacity"] != "1" or ratio < 4.5:
                self.findings.append(
                    f"{where}: disabled button {b['what']!r} is hard to read: {b['color']} on "
                    f"{b['background']} ({ratio:.2f}:1, opacity {b['opacity']}); needs 4.5:1")

    def _hint_outlines(self, page: Any, where: str) -> None:
        # Measured in one evaluation: between a locator's finding an element and its
        # evaluating it, a frame may draw the hand anew, and a card no longer in the page
        # has no style to measure (a busy machine's run once failed so).
        for o in page.evaluate(HINT_OUTLINES):
            self._judge_outline(o, f"{where}: the hint's outline", focused=False)

    def focus_ring(self, page: Any, predicate: str, what: str) -> None:
        """Tab to a control ``predicate`` (a JS function of an element) picks: its focus
        ring is drawn and keeps 3:1 against the page around it (WCAG 1.4.11).  Measured
        in one evaluation, only while the control has the keyboard's focus: between a
        locator's finding the focused control and its measuring it, a new state may draw
        it anew (a busy machine's run once measured a control no longer in the page);
        then it is tabbed to again."""
        measure = (f"() => {{ const el = document.activeElement;"
                   f" if (!el || !el.matches(':focus-visible') || !({predicate})(el))"
                   f" return null; return ({OUTLINE})(el); }}")
        for _ in until_a_hang(60):
            tab_until(page, predicate, press_first=True)
            measured = page.evaluate(measure)
            if measured is not None:
                self._judge_outline(measured, what, focused=True)
                return
        raise AssertionError(f"{what}: the control never kept the focus to be measured")

    def _judge_outline(self, o: dict[str, Any], what: str, focused: bool) -> None:
        ratio = contrast(o["color"], o["background"])
        if o["style"] == "none" or o["width"] < 2 or ratio < 3:
            kind = "focus ring" if focused else "outline"
            self.findings.append(
                f"{what} on {o['what']!r}: {kind} {o['style']} {o['width']}px {o['color']} "
                f"on {o['background']} ({ratio:.2f}:1); needs 2px and 3:1")

    def assert_clean(self) -> None:
        assert self.audited, "nothing was audited"
        if self.findings:
            pytest.fail(f"{len(self.findings)} accessibility findings in {len(self.audited)} "
                        "audits:\n\n" + "\n\n".join(self.findings), pytrace=False)


@pytest.fixture
def audit() -> Iterator[Audit]:
    yield Audit()


@pytest.mark.parametrize("locale,lang", [("en-GB", "en"), ("nb-NO", "nb"), ("fr-FR", "fr")])
def test_landing_and_rules(new_page: Any, audit: Audit, locale: str, lang: str) -> None:
    """The page takes the browser's language, and says so in its lang attribute."""
    page = new_page(f"pages-{lang}", locale=locale, reduced_motion="reduce")
    page.goto("/")
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    audit(page, "landing")
    # A bad submission shows its error message (role=alert) next to the fields.
    page.locator("[data-action=create]").click()
    expect(page.get_by_role("alert")).not_to_be_empty()
    audit(page, "landing with an error")
    page.goto("/rules")
    expect(page.locator("#options-list dt").first).to_be_visible()
    audit(page, "rules")
    audit.assert_clean()


def test_you_panel_and_club_page(new_page: Any, audit: Audit) -> None:
    """Issue 38: the landing page's "You" panel of a player with a club, and the club's
    page (its host's: every section shown)."""
    page = new_page("member", reduced_motion="reduce")
    page.goto("/")
    page.get_by_role("textbox", name="Your name").fill("Ann")
    page.get_by_role("button", name="Save name").click()
    page.get_by_role("textbox", name="New club's name").fill("Thursdays")
    page.get_by_role("button", name="Make a club").click()
    expect(page.get_by_role("heading", name="Thursdays", level=1)).to_be_visible()
    page.get_by_role("button", name="Close the season and open the next").click()
    expect(page.get_by_role("button", name="Open the next season")).to_be_focused()
    audit(page, "club page", ["en", "nb", "fr"])
    expect(page.get_by_role("heading", name="Thursdays", level=1)).to_be_visible()
    page.goto("/")
    expect(page.get_by_role("link", name="Thursdays")).to_be_visible()
    page.get_by_role("button", name="Use on another device").click()
    page.get_by_role("button", name="Delete me").click()
    page.get_by_text("Play as you on this device").click()
    audit(page, "landing with the You panel", ["en", "fr"])
    audit.assert_clean()


def test_lobby_as_host_and_as_visitor(new_page: Any, audit: Audit) -> None:
    host = new_page("host", reduced_motion="reduce")
    open_room(host, "Ann", "Create room")
    host.get_by_text("Change the rules").click()
    expect(host.get_by_role("combobox", name="Players")).to_be_visible()
    # Enough chat for the log to scroll: it must then be reachable by keyboard.
    for i in range(14):
        host.get_by_role("textbox", name="Message").fill(f"line {i}")
        host.get_by_role("textbox", name="Message").press("Enter")
    expect(host.get_by_text("line 13", exact=True)).to_be_visible()
    audit(host, "lobby as host, rules open", ["en", "fr"], phase="lobby")

    visitor = new_page("visitor", viewport=PHONE, locale="nb-NO", reduced_motion="reduce")
    visitor.goto(host.url)
    expect(visitor.locator("#join-panel")).to_be_visible()
    audit(visitor, "room as a visitor", ["nb", "en"], phase="lobby")
    audit.assert_clean()


def test_practice_game(new_page: Any, audit: Audit) -> None:
    page = new_page("practice", reduced_motion="reduce")
    open_room(page, "Kim", "Practice")
    expect(hand(page).get_by_role("button")).to_have_count(12)

    # Our first turn in the auction (it comes before any card is played).
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_visible(timeout=30_000)
    audit(page, "auction, our turn", ["en", "nb"], phase="auction")
    audit.focus_ring(page, "el => el.dataset.action === 'bid' && !el.disabled",
                     "auction: a bid button")
    # The highest bid, to be shown the discard and the first lead as well.
    page.get_by_role("button", name=BID, disabled=False).last.click()

    page.get_by_role("checkbox", name="Four-colour deck").check()
    # The host holds the next deal back for 300 s (the most the settings allow), so the
    # audit of the finished deal below, in three languages and two sizes, is not cut
    # short by the next deal however slow the machine is.
    page.get_by_text("Table settings").click()
    pause = page.locator("#settings-box").get_by_role("spinbutton", name="Seconds between deals")
    pause.fill("300")
    pause.press("Tab")
    expect(pause).to_have_value("300")
    page.get_by_text("Table settings").click()
    done: set[str] = set()
    for _ in until_a_hang():
        if deal_over(page):
            break
        phase = page.locator("#room").get_attribute("data-phase")
        discard = page.get_by_role("button", name="Discard", exact=True)
        trick = page.get_by_role("group", name="Trick", exact=True).locator(".card")
        if "discard" not in done and discard.is_visible():
            done.add("discard")
            audit(page, "discard, four-colour deck", ["en"], phase="discard")
        elif "lead" not in done and page.get_by_role("button", name=CALL).count():
            done.add("lead")
            audit(page, "first lead, calls shown, four-colour deck", ["en"], phase="lead")
        elif ("play" not in done and phase == "play" and enabled_cards(page).count()
              and trick.count()):
            done.add("play")
            audit(page, "play, our turn, four-colour deck", ["en", "fr"], phase="play")
            audit.focus_ring(page, "el => el.closest('#hand') !== null"
                                   " && el.getAttribute('aria-disabled') === 'false'",
                             "play: a card in the hand")
        if not take_turn(page, bid=False):
            page.wait_for_timeout(80)
    assert deal_over(page), "the deal did not end"
    assert "play" in done, "never played into a trick on our turn"

    # The next deal waits 300 s (set above): the audit fits on any machine.
    left = page.evaluate("Number(document.querySelector("
                         "'#result .next-deal-clock [data-until]').dataset.until)"
                         " - Date.now() / 1000")
    assert left > 60, f"the pause between deals was not lengthened ({left:.0f} s left)"
    audit(page, "deal over, four-colour deck", ["en", "nb", "fr"], phase="deal_over")
    assert audit.disabled_measured, "no disabled button was seen (bids or Discard)"
    audit.assert_clean()


def test_second_pass_screens(new_page: Any, audit: Audit) -> None:
    """Issue 12's new screens: the turn timer in the lobby, the deal log, the table settings,
    the seat clock, the result with the kitty trick and the next deal's countdown, the match
    end with Play again and the earlier matches, the phone's menu, chat with reactions.

    Each screen in one language, in turn, at both sizes: every language is audited on
    these screens, and the screens whose words change most (landing, rules, lobby,
    auction, play, deal over) in two or three languages above. All three languages on
    each screen here took 30 audits instead of 10, the file's longest test."""
    host = new_page("host", reduced_motion="reduce")
    open_room(host, "Ann", "Create room")
    host.get_by_text("Change the rules").click()
    host.get_by_role("combobox", name="Match length").select_option("single_deal")
    host.get_by_role("combobox", name="Turn time").select_option("120")
    host.get_by_role("button", name="Nice!").click()
    expect(host.locator("#chat-log .reaction")).to_have_count(1)
    audit(host, "lobby with turn time and a reaction", ["nb"], phase="lobby")
    host.get_by_role("button", name="Start").click()
    expect(hand(host).get_by_role("button")).to_have_count(12)
    host.get_by_text("Deal log").click()
    host.get_by_text("Table settings").click()
    host.wait_for_function("() => document.title.startsWith('Your turn')", timeout=20_000)
    expect(host.locator(".seat-clock")).to_be_visible()
    audit(host, "our turn with the clock, deal log and settings open", ["fr"])
    play_until_deal_over([host], bidders={0})
    expect(host.get_by_role("button", name="Play again")).to_be_visible()
    audit(host, "match over", ["en"], phase="match_over")
    host.get_by_role("button", name="Play again").click()
    expect(host.locator("#room")).not_to_have_attribute("data-phase", "match_over")
    host.get_by_text(re.compile(r"^Earlier matches")).click()
    audit(host, "second match, earlier matches open", ["nb"])

    host.set_viewport_size(PHONE)
    host.locator("#menu-button").click()
    expect(host.get_by_role("checkbox", name=re.compile("^Sounds"))).to_be_visible()
    audit(host, "the phone's menu open", ["fr"])
    audit.assert_clean()
