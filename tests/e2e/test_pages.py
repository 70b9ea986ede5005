"""The pages' safety and completeness: the CSP forbids inline script and style and the
templates need neither; no script inserts markup; every language has every text; the
rules page is built from the engine's rule set (GET /api/rules)."""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from shared_helpers import HTTP, catalogue

from app.rules import RuleSet
from app.rules.ruleset import PRESETS

from .conftest import PHONE
from .players import no_horizontal_scroll

STATIC = Path(__file__).resolve().parents[2] / "app" / "static"


class InlineFinder(HTMLParser):
    """Collects inline scripts, event-handler attributes, style attributes and outside URLs;
    the one inline script allowed is the import map, by its hash in the CSP (``hashes``)."""

    def __init__(self, hashes: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.hashes = hashes
        self._in_script = False
        self._importmap: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "script":
            self._in_script = True
            if ("type", "importmap") in attrs:
                self._importmap = []
            elif "src" not in names:
                self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{name}= attribute on <{tag}>")
            if name == "style":
                self.problems.append(f"style= attribute on <{tag}>")
            if name in ("src", "href") and value and re.match(r"^(https?:)?//", value):
                self.problems.append(f"outside URL {value}")

    def handle_data(self, data: str) -> None:
        if self._importmap is not None:
            self._importmap.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False
            if self._importmap is not None:
                digest = hashlib.sha256("".join(self._importmap).encode()).digest()
                if f"'sha256-{base64.b64encode(digest).decode()}'" not in self.hashes:
                    self.problems.append("an import map the CSP does not name by its hash")
                self._importmap = None


def test_pages_are_safe_under_the_csp(server: str) -> None:
    for path in ("/", "/rules", "/r/abcdefghjk"):
        response = HTTP.get(server + path)
        assert response.status_code == 200, path
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "style-src 'self'" in csp
        script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
        finder = InlineFinder(frozenset(script_src.split()[2:]))
        finder.feed(response.text)
        assert finder.problems == [], f"{path}: {finder.problems}"


def test_scripts_never_insert_markup() -> None:
    for js in (STATIC / "js").glob("*.js"):
        # The SVG namespace is a name, not a place anything is loaded from.
        text = js.read_text(encoding="utf-8").replace('"http://www.w3.org/2000/svg"', "")
        for forbidden in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                          "eval(", "new Function", "setAttribute(\"style\"", "http://",
                          "https://"):
            assert forbidden not in text, f"{js.name} uses {forbidden}"


def test_every_language_has_every_text() -> None:
    assert {p.stem for p in (STATIC / "i18n").glob("*.json")} == {"en", "nb", "fr"}
    languages = {lang: catalogue(lang) for lang in ("en", "nb", "fr")}
    keys = set(languages["en"])
    for lang, texts in languages.items():
        assert set(texts) == keys, f"{lang}: missing {keys - set(texts)}, extra {set(texts) - keys}"
        assert all(isinstance(v, str) and v for v in texts.values()), lang
    used: set[str] = set()
    for js in (STATIC / "js").glob("*.js"):
        used |= set(re.findall(r"\bt\(\"([a-z0-9_.]+)\"", js.read_text(encoding="utf-8")))
    templates = STATIC.parent / "templates"
    for html in templates.glob("*.html"):
        used |= set(re.findall(r'data-i18n(?:-label|-placeholder|-title)?="([^"]+)"',
                               html.read_text(encoding="utf-8")))
    assert used - keys == set()


def test_rules_page_is_built_from_the_rule_set(new_page: Any, server: str) -> None:
    meta = HTTP.get(f"{server}/api/rules").json()
    page = new_page("rules")
    page.goto("/rules")
    presets = page.get_by_role("region", name="Presets").get_by_role("table")
    for preset in meta["presets"]:
        expect(presets.get_by_role("rowheader", name=re.compile(preset))).to_be_visible()
    for option in meta["options"]:
        expect(page.locator("dt code", has_text=re.compile(f"^{option}$"))).to_be_visible()
    # Each preset names its source and this project's conventions (rules_info.PROVENANCE).
    fullstokk = page.locator("section.preset-detail", has=page.locator("#preset-fullstokk"))
    expect(fullstokk).to_contain_text("Source: a Norwegian article on the rules and strategy")
    expect(fullstokk).to_contain_text("The match is played to 52 points")
    expect(page.locator("#option-bidder_double + dd")).to_contain_text(
        "This project's convention: An Amerikaner keeps its own points")
    # Norwegian: the explanations come from the language files, in the sources' words.
    page.get_by_role("combobox", name="Language").select_option("nb")
    expect(page.get_by_role("heading", name="Reglene for Amerikaner")).to_be_visible()
    expect(page.get_by_role("heading", name="Alle alternativer")).to_be_visible()
    players_help = "Antall plasser ved bordet. Fire er det vanlige. Med disse reglene får hver " \
                   "spiller 12 kort."
    expect(page.get_by_text(players_help)).to_be_visible()
    expect(page.locator("#rules-text")).to_contain_text("roper budvinneren et kort i trumffargen")
    # No placeholder is left unfilled anywhere on the page.
    expect(page.locator("main")).not_to_contain_text(re.compile(r"\{[a-z_]+\}"))


def test_rules_page_figures_are_the_engines(new_page: Any) -> None:
    """For each preset and 3, 4 and 5 players, the page's hand size, kitty, bid range and
    target are RuleSet.resolved()'s, and so are the figures in the preset's summary."""
    page = new_page("rules-figures")
    page.goto("/rules")
    for preset in PRESETS:
        table = page.locator(f"#figures-{preset}")
        for players in (3, 4, 5):
            r = RuleSet(preset, players=players).resolved()
            row = table.locator(f"tr[data-players='{players}']")
            expect(row.get_by_role("rowheader")).to_have_text(f"{players} players")
            expect(row.get_by_role("cell")).to_have_text(
                [str(r["hand_size"]), str(r["kitty"]), f"{r['min_bid']}–{r['max_bid']}",
                 str(r["target"])])
        four = RuleSet(preset).resolved()
        summary = page.locator(f"#preset-{preset} + p")
        expect(summary).to_contain_text(f"{four['hand_size']} cards each")
        expect(summary).to_contain_text(f"Bids {four['min_bid']} to {four['max_bid']}")
    # The option help quotes the default preset at four players, as the page says.
    standard = RuleSet("standard").resolved()
    expect(page.locator("#option-max_bid + dd")).to_contain_text(
        f"{standard['max_bid']} with these rules")
    expect(page.locator("#options-intro")).to_contain_text("Standard")


def test_phone_pages_do_not_scroll_sideways(new_page: Any, artifacts: Path) -> None:
    page = new_page("phone", viewport=PHONE, is_mobile=True, has_touch=True, locale="nb-NO")
    page.goto("/")
    # The browser's language is Norwegian: the landing page is in bokmål.
    expect(page.get_by_role("button", name="Opprett rom")).to_be_visible()
    expect(page.get_by_role("textbox", name="Navnet ditt")).to_be_visible()
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "landing-mobile-nb.png", full_page=True)
    page.goto("/rules")
    expect(page.get_by_role("heading", name="Alle alternativer")).to_be_visible()
    no_horizontal_scroll(page)


def test_unknown_room_says_so(new_page: Any) -> None:
    page = new_page("lost")
    page.goto("/r/nosuchroom")
    # (the page turns into the gone table's panel: tests/e2e/test_room_gone.py)
    expect(page.get_by_role("heading", name="This table is gone")).to_be_visible()
    expect(page.get_by_role("region", name="Table", exact=True)).to_have_count(0)
