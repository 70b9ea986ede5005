"""Issue 11, the deal review in the browser: after a practice deal the person asks for a
review of their own decisions; the strong bot's verdict comes back as sentences a player
reads (the double-dummy line, then the clear losses, or a "well played"), with every
placeholder filled and bids worded as bids; on a phone, in English, Norwegian and French
(issue 23), each loss in points with the language's decimal separator."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import choose_language, no_horizontal_scroll, open_room, play_until_deal_over
from .words import LANGUAGES, Words

DECISION = re.compile(
    r"^(Bidding|Kitty|First lead|Trick \d+): you chose .+; the strong bot would choose .+ "
    r"\(about \d+(?:\.\d)? points? better on average\)\.$")


def test_a_person_reviews_their_deal_then_reads_it_in_three_languages_on_a_phone(
        new_page: Any) -> None:
    """One practice deal and its review for both (each took a deal and a review of its
    own, the phone's in test_three_languages.py)."""
    page = new_page("reviewer", viewport=LAPTOP)
    open_room(page, "Kim", "Practice", single_round=True)
    play_until_deal_over([page], bidders={0})

    page.get_by_role("button", name="Review my play").click()
    panel = page.locator("#result section.review")  # (Your reviews has it too, folded)
    expect(panel.get_by_role("heading", name="Your decisions, by the strong bot")).to_be_visible()
    # made off the loop in a worker process: a few seconds
    expect(panel.get_by_text("Reviewing your decisions")).to_have_count(0, timeout=60_000)
    text = panel.inner_text()
    assert "undefined" not in text and "{" not in text, text
    assert "could not be made" not in text, text
    lines = panel.locator("li").all_inner_texts()
    assert lines or "well played" in text, text
    for line in lines:
        assert DECISION.match(line.strip()), line
        assert not re.search(r"would choose \d", line), line  # a bid reads "bid 9"
    # asked once: the button is spent (the review is kept with the room)
    expect(page.get_by_role("button", name="Review my play")).to_be_disabled()

    page.set_viewport_size(PHONE)
    for code in LANGUAGES:
        w = Words(code)
        choose_language(page, code)
        expect(panel.get_by_role("heading", name=w.t("review.heading"))).to_be_visible()
        text = panel.inner_text()
        assert "undefined" not in text and "{" not in text, text
        lines = [line.strip() for line in panel.get_by_role("listitem").all_inner_texts()]
        assert lines or w.t("review.none") in text, text
        for line in lines:
            # where, what was chosen, what the strong bot would choose and the loss in
            # points, written with the language's decimal separator
            found = w.fields("review.decision", line, counted=True, loss=w.number_pattern())
            assert found, f"{code}: {line}"
            assert not re.match(r"\d", found["best"]), line  # a bid is worded as a bid


# An earlier match's deal, in each language: the earlier matches' panel, the button of a
# deal of match 1, the review's heading in Your reviews, its sentences.
EARLIER = {
    "en": ("Earlier matches (1)", r"^Review deal (\d+) of match 1$", "Your reviews",
           "Match 1, deal {n}", "Reviewing your decisions", r"well played|you chose"),
    "nb": ("Tidligere partier (1)", r"^Se over omgang (\d+) i parti 1$", "Dine gjennomganger",
           "Parti 1, omgang {n}", "Ser over valgene dine", r"godt spilt|du valgte"),
    "fr": ("Parties précédentes (1)", r"^Revoir la donne (\d+) de la partie 1$",
           "Vos analyses", "Partie 1, donne {n}", "Analyse de vos décisions",
           r"bien joué|vous avez choisi"),
}


def test_a_deal_of_an_earlier_match_is_reviewed_in_every_language_and_size(
        new_page: Any) -> None:
    """Issue 23: after a rematch, the first match's deal is reviewed from the earlier
    matches' panel (the server reads it from the match's stored record), in English,
    Norwegian and French, on a laptop and a phone; the first ask makes the review, the
    others (a reload each) get the one the room keeps."""
    page = new_page("earlier", viewport=LAPTOP)
    open_room(page, "Kim", "Practice", single_round=True)
    play_until_deal_over([page], bidders={0})
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_text("Earlier matches (1)")).to_be_visible()
    room = page.url
    for lang, (panel, button_name, reviews, heading, waiting, verdict) in EARLIER.items():
        for size in (LAPTOP, PHONE, SMALL_PHONE):
            page.set_viewport_size(size)
            page.goto(f"{room}?lang={lang}")
            page.get_by_text(panel, exact=True).click()
            button = page.get_by_role("button", name=re.compile(button_name))
            expect(button).to_have_count(1)
            found = re.match(button_name, button.inner_text().strip())
            assert found, button.inner_text()
            button.click()
            expect(button).to_be_disabled()  # asked: spent until it fails
            box = page.locator("#reviews-box")
            box.get_by_text(reviews, exact=True).click()
            name = heading.format(n=found.group(1))
            section = box.locator("section.review").filter(
                has=page.get_by_role("heading", name=name, exact=True))
            expect(section).to_have_count(1)
            expect(section.get_by_text(waiting)).to_have_count(0, timeout=90_000)
            expect(section).to_contain_text(re.compile(verdict))
            text = section.inner_text()
            assert "undefined" not in text and "{" not in text, text
            no_horizontal_scroll(page)
