"""The rules page a newcomer reads (issue 23), in English, Norwegian and French on a laptop
(1366x768) and a phone (375x667), found by role and accessible name: the quick start fits
one phone screen and its figures are RuleSet.resolved()'s for every preset; the table of
contents reaches every section; the worked example's bids, kitty and score are the
engine's (the record replayed by app.rules); the corrected rule sentences are there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from shared_helpers import catalogue

from app.rooms.server.rules_example import example_record, worked_example
from app.rules import RuleSet
from app.rules.record import replay_record
from app.rules.ruleset import PRESETS

from .conftest import LAPTOP, PHONE
from .players import no_horizontal_scroll

# What each language calls the page's parts: the accessible names the tests look for.
NAMES = {
    "en": {"quick": "Quick start", "preset": "Rules", "toc": "Contents",
           "example": "An example deal", "score": "The example deal's score",
           "scoring": "Scoring"},
    "nb": {"quick": "Kort fortalt", "preset": "Regler", "toc": "Innhold",
           "example": "Et eksempel", "score": "Poengene i eksempelet", "scoring": "Poeng"},
    "fr": {"quick": "En bref", "preset": "Règles", "toc": "Sommaire",
           "example": "Une donne en exemple", "score": "Le décompte de la donne en exemple",
           "scoring": "Le décompte"},
}
# Sentences of the corrections of issue 23, one language each (docs/spec/RULES.md sections 4, 6-9).
CORRECTIONS = {
    "en": ["a bid is the number of tricks you promise to win with a partner",
           "the player left of the dealer leads, and every trick costs its winner a point",
           "for a numeric contract only", "after it there is no suit to follow",
           "there is no partner score", "wins or loses twice the bid",
           "played to the last trick even after the bidder has lost one",
           # issue 39
           "You never have to play higher", "four cards are set aside face down",
           "the turn goes clockwise, skipping those who have passed",
           "Where the rules allow the Amerikaner bid",
           "the kitty is first turned face up for everyone",
           "a two that is led wins its trick whatever follows"],
    "nb": ["Du trenger aldri å spille et høyere kort",
           "hver spiller får minus ett poeng for hvert stikk hen tar",
           "bare ved tallbud", "etter den er det ingen farge å følge",
           "ingen får makkerpoeng", "teller pluss og minus dobbelt for budvinneren",
           "spilles ferdig også etter at budvinneren har tapt et stikk",
           "Med kitty legges fire kort i midten", "de som har passet, hoppes over",
           "Tillater reglene Amerikaner", "snus kittyen først med bildet opp",
           "vinner en toer som spilles ut, stikket uansett"],
    "fr": ["Monter n'est pas obligatoire",
           "le voisin de gauche du donneur entame, et chaque pli coûte un point",
           "pour un contrat numérique seulement", "il n'y a pas de couleur demandée",
           "il n'y a pas de score de partenaire", "gagne ou perd le double de l'enchère",
           "jusqu'au dernier pli même après un pli perdu par le preneur",
           "quatre cartes sont mises de côté",
           "en sautant ceux qui ont passé", "Si les règles permettent l'enchère Amerikaner",
           "le kitty est d'abord retourné face visible pour tous",
           "un deux entamé gagne le pli quoi qu'on joue ensuite"],
}
VIEWPORTS = {"laptop": LAPTOP, "phone": PHONE}


def open_rules(page: Any, lang: str) -> None:
    page.goto(f"/rules?lang={lang}")
    expect(page.locator("#quick-list li").first).to_be_visible()


def check_quick_start(page: Any, lang: str, preset: str) -> None:
    """The quick start's figures for ``preset`` are the engine's at four players."""
    r = RuleSet(preset).resolved()
    quick = page.get_by_role("region", name=NAMES[lang]["quick"], exact=True)
    quick.get_by_role("combobox", name=NAMES[lang]["preset"]).select_option(preset)
    items = quick.get_by_role("listitem")
    expect(items).to_have_count(6)
    deal = items.nth(0)
    expect(deal).to_contain_text(re.compile(rf"\b{r['players']}\b.*\b{r['hand_size']}\b"))
    if r["kitty"]:
        expect(deal).to_contain_text(re.compile(rf"\b{r['kitty']}\b"))
        expect(items.nth(2)).to_contain_text(re.compile(rf"\b{r['kitty']}\b"))
    else:
        expect(quick.get_by_role("list")).not_to_contain_text("kitty")
    expect(items.nth(1)).to_contain_text(re.compile(rf"\b{r['min_bid']}\b\D+\b{r['max_bid']}\b"))
    # Who bids first (the dealer under fullstokk), Amerikaner's points, the forced call.
    words = catalogue(lang)
    expect(items.nth(1)).to_contain_text(words[f"rules.quick.first_{r['first_bidder']}"])
    expect(items.nth(1)).to_contain_text(re.compile(rf"\b{r['amerikaner_points']}\b"))
    expect(items.nth(2)).to_contain_text(words["rules.quick.call"])
    expect(items.nth(5)).to_contain_text(re.compile(rf"\b{r['target']}\b"))


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_rules_page_for_a_newcomer(new_page: Any, artifacts: Path, size: str) -> None:
    """In each language, the page loaded anew (?lang=) in one browser context a size (a
    phone's is a mobile one with touch): a context a language made six, a renderer and
    a cold cache each."""
    phone = size == "phone"
    page = new_page(f"rules-{size}", viewport=VIEWPORTS[size], is_mobile=phone,
                    has_touch=phone)
    for lang in ("en", "nb", "fr"):
        rules_for_a_newcomer(page, artifacts, lang, size)


def rules_for_a_newcomer(page: Any, artifacts: Path, lang: str, size: str) -> None:
    open_rules(page, lang)
    names = NAMES[lang]
    no_horizontal_scroll(page)
    # The quick start, with the standard preset first, fits one phone screen.
    quick = page.get_by_role("region", name=names["quick"], exact=True)
    expect(quick.get_by_role("heading", name=names["quick"])).to_be_in_viewport()
    expect(quick.get_by_role("combobox", name=names["preset"])).to_have_value("standard")
    box = quick.bounding_box()
    # On a phone, the whole of it shows on the first screen (a line to spare for fonts).
    assert box is not None and box["y"] + box["height"] <= PHONE["height"] + 24, box
    if size == "phone":
        page.screenshot(path=artifacts / f"rules-quick-{lang}-phone.png")
    for preset in PRESETS:
        check_quick_start(page, lang, preset)
    # Every entry of the table of contents leads to its heading.
    toc = page.get_by_role("navigation", name=names["toc"])
    links = toc.get_by_role("link")
    expect(links).to_have_count(12)
    expect(links.nth(0)).to_have_text(names["quick"])
    for i in range(12):
        link = links.nth(i)
        label = link.inner_text()
        target = link.get_attribute("href")
        link.click()
        expect(page).to_have_url(re.compile(f"{re.escape(target)}$"))
        heading = page.get_by_role("heading", name=label, exact=True).first
        expect(heading).to_be_in_viewport()
        toc.scroll_into_view_if_needed()
    # A link to a section from elsewhere reaches it once the page has rendered it.
    page.goto(f"/rules?lang={lang}#rules-s7")
    expect(page.get_by_role("heading", name=names["scoring"], exact=True)).to_be_in_viewport()
    # The corrected rules.
    text = page.locator("#rules-text")
    for sentence in CORRECTIONS[lang]:
        expect(text).to_contain_text(sentence)
    standard = RuleSet("standard").resolved()
    expect(page.get_by_role("region", name=names["scoring"], exact=True)).to_contain_text(
        str(standard["amerikaner_points"]))
    expect(text).to_contain_text(re.compile(
        rf"\b{standard['min_bid']}\b\D{{1,8}}\b{standard['max_bid']}\b"))
    check_example(page, lang)


def check_example(page: Any, lang: str) -> None:
    """The worked example: the engine's deal, its kitty size the preset's, its score the
    one the record's replay gives."""
    names = NAMES[lang]
    example = page.get_by_role("region", name=names["example"], exact=True)
    example.get_by_role("heading", name=names["example"]).scroll_into_view_if_needed()
    expect(example.get_by_role("heading", name=names["example"])).to_be_visible()
    facts = worked_example()
    steps = example.get_by_role("list").first.locator(":scope > li")
    expect(steps).to_have_count(6)
    assert facts["partner"] is not None
    bidder, partner = (facts["names"][seat] for seat in (facts["bidder"], facts["partner"]))
    expect(steps.nth(0)).to_contain_text(re.compile(rf"{bidder}\D+\b{facts['bid']}\b"))
    kitty = RuleSet(facts["preset"]).options.kitty
    expect(steps.nth(1)).to_contain_text(re.compile(rf"\b{kitty}\b"))
    expect(steps.nth(1).locator(".chip")).to_have_count(2 * kitty)
    expect(steps.nth(2)).to_contain_text(partner)
    # Each shown trick: its four cards (their names for a screen reader), then its winner.
    for i, trick in enumerate(facts["tricks"]):
        expect(steps.nth(3 + i).locator(".chip")).to_have_count(len(trick["cards"]))
        expect(steps.nth(3 + i)).to_contain_text(facts["names"][trick["winner"]])
    line = replay_record(example_record())
    assert line["ok"] is True
    [deal] = line["deals"]
    assert deal["points"] is not None
    table = example.get_by_role("table", name=names["score"])
    for seat, name in enumerate(facts["names"]):
        row = table.get_by_role("row", name=re.compile(f"^{name}"))
        points = deal["points"][seat]
        expect(row.get_by_role("cell")).to_have_text(
            [str(deal["tricks"][seat]), f"+{points}" if points > 0 else str(points)])
    side = deal["tricks"][facts["bidder"]] + deal["tricks"][facts["partner"]]  # (not None above)
    expect(steps.nth(5)).to_contain_text(re.compile(rf"\b{side}\b\D+\b{side + 1}\b"))
