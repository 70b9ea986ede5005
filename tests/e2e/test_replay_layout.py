"""Issue 39, the replay on /replay: in English, Norwegian and French at 1366x768, 375x667
and 320x568 the step counter has a row of its own wide enough to read (a French phone
squeezed it into a box 14 px wide and 515 px tall) and the trick is on the first screen;
the keyboard reaches every step forward and back and keeps working at the last step and
after the auction's summary is redrawn (replay_checks.py; the room's dialog is checked in
test_replay.py).

One browser context a language (its locale gives the page its language): the page is
loaded anew at each size and before the keyboard's walk, so each check starts from a
replay just opened at that size, as in a context of its own, without a context and its
renderer made for each of the twelve."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.rooms.server.rules_example import example_record

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .replay_checks import check_layout, walk_by_keyboard
from .words import Words

LOCALES = {"en": "en-GB", "nb": "nb-NO", "fr": "fr-FR"}
SIZES = {"laptop": LAPTOP, "phone": PHONE, "small": SMALL_PHONE}


def open_example(page: Any, path: Path, lang: str, viewport: dict[str, int]) -> Any:
    """/replay loaded anew at ``viewport`` with the rules page's worked example: the
    replay's region."""
    page.set_viewport_size(viewport)
    page.goto("/replay")
    words = Words(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.get_by_label(words.t("replay.file")).set_input_files(str(path))
    view = page.get_by_role("region", name=words.t("replay.heading", n=1))
    expect(view).to_be_visible()
    return view


@pytest.mark.parametrize("lang", LOCALES)
def test_the_replay_fits_every_size_and_the_keys_reach_every_step(
        new_page: Any, tmp_path: Path, artifacts: Path, lang: str) -> None:
    path = tmp_path / "example.json"
    path.write_text(json.dumps(example_record()), encoding="utf-8")
    page = new_page(f"replay-{lang}", viewport=LAPTOP, locale=LOCALES[lang])
    for size, viewport in SIZES.items():
        view = open_example(page, path, lang, viewport)
        check_layout(page, view, Words(lang), f"/replay {lang} {size}")
        page.screenshot(path=artifacts / f"replay-layout-{lang}-{size}.png")
    view = open_example(page, path, lang, LAPTOP)
    walk_by_keyboard(page, view, Words(lang))
