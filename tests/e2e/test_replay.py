"""Issue 23, a finished deal replayed in the browser: from the room's score sheet (the
deal log) and from a downloaded record dropped on /replay, the steps show every trick's
cards, who won it, the tricks each player took and the points, as ``amerikaner replay``
reports them and the record holds them; in English, Norwegian and French, on a laptop
and a phone (no sideways scroll, every hand readable)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from shared_helpers import replay_record

from app.rooms.server.rules_example import example_record

from .conftest import LAPTOP, PHONE
from .players import no_horizontal_scroll, open_room, play_until_deal_over

# The words each language's replay uses (app/static/i18n): its Next button, the trick
# group's name, the end line's "Points".
WORDS = {
    "en": {"locale": "en-GB", "next": "Next step", "trick": r"^Trick \d+$", "points": "Points:",
           "file": "Game record file", "hand": "{name}'s hand", "title": "Replay of deal {n}"},
    "nb": {"locale": "nb-NO", "next": "Neste steg", "trick": r"^Stikk \d+$", "points": "Poeng:",
           "file": "Protokollfil", "hand": "Hånden til {name}",
           "title": "Avspilling av omgang {n}"},
    "fr": {"locale": "fr-FR", "next": "Étape suivante", "trick": r"^Pli \d+$",
           "points": "Points :", "file": "Fichier de la partie", "hand": "Main de {name}",
           "title": "La donne {n}, pas à pas"},
}


def expected_tricks(record: dict[str, Any], index: int) -> list[list[tuple[int, str]]]:
    """Deal ``index``'s tricks as the record holds them: (seat, card) in play order."""
    n = len(record["players"])
    plays = [(a["seat"], a["play"]) for a in record["deals"][index]["actions"] if "play" in a]
    return [plays[i:i + n] for i in range(0, len(plays), n)]


def read_replay(scope: Any, words: dict[str, str]) -> dict[str, Any]:
    """Step through the replay shown in ``scope`` with its Next button: the hands as dealt,
    each completed trick's (seat, card) and winner, and the end line."""
    dealt = scope.locator(".replay-seat").evaluate_all(
        "els => els.map(e => [...e.querySelectorAll('.replay-hand [data-card]')]"
        ".map(c => c.dataset.card))")
    nxt = scope.get_by_role("button", name=words["next"])
    trick = scope.get_by_role("group", name=re.compile(words["trick"]))
    tricks: list[list[tuple[int, str]]] = []
    winners: list[int] = []
    while nxt.is_enabled():
        nxt.click()
        won = trick.locator("li.replay-winner")
        if won.count():
            cards = trick.locator("li").evaluate_all(
                "els => els.map(e => [Number(e.dataset.seat),"
                " e.querySelector('[data-card]').dataset.card])")
            tricks.append([(seat, card) for seat, card in cards])
            winners.append(int(won.get_attribute("data-seat") or -1))
    end = scope.locator(".replay-end").inner_text()
    return {"dealt": dealt, "tricks": tricks, "winners": winners, "end": end}


def check_against(shown: dict[str, Any], record: dict[str, Any], line: dict[str, Any],
                  index: int, words: dict[str, str]) -> None:
    """What the browser showed equals the record's deal and ``amerikaner replay``'s line."""
    deal = record["deals"][index]
    assert [sorted(h) for h in shown["dealt"]] == [sorted(h) for h in deal["hands"]]
    assert shown["tricks"] == expected_tricks(record, index)
    result = line["deals"][index]
    tally = [shown["winners"].count(s) for s in range(len(record["players"]))]
    assert tally == result["tricks"], (tally, result)
    assert words["points"] in shown["end"]
    for name, points in zip(record["players"], result["points"], strict=True):
        assert f"{name} {'+' if points > 0 else ''}{points}" in shown["end"], shown["end"]


def upload_and_check(page: Any, path: Path, record: dict[str, Any], line: dict[str, Any],
                     index: int, words: dict[str, str], shot: Path | None = None) -> None:
    page.goto("/replay")
    page.get_by_label(words["file"]).set_input_files(str(path))
    view = page.get_by_role("region", name=words["title"].format(n=index + 1))
    expect(view).to_be_visible()
    for name in record["players"]:
        expect(view.get_by_role("region", name=words["hand"].format(name=name))).to_be_visible()
    no_horizontal_scroll(page)
    check_against(read_replay(view, words), record, line, index, words)
    no_horizontal_scroll(page)
    if shot is not None:
        page.screenshot(path=shot, full_page=True)


def test_a_practice_deal_replays_from_the_score_sheet_and_from_its_file(
        new_page: Any, tmp_path: Path, artifacts: Path) -> None:
    words = WORDS["en"]
    page = new_page("replay", viewport=LAPTOP)
    open_room(page, "Kim", "Practice", single_round=True)
    play_until_deal_over([page], bidders={0})
    with page.expect_download() as info:
        page.get_by_role("button", name="Download record").click()
    path = tmp_path / "record.json"
    path.write_bytes(Path(info.value.path()).read_bytes())
    record = json.loads(path.read_text(encoding="utf-8"))
    line = replay_record(record, tmp_path / "checked.json")  # amerikaner replay
    index = next(i for i, d in enumerate(line["deals"]) if d["outcome"] != "void")

    # from the room: the score sheet's row opens the replay of the deal log
    page.get_by_role("button", name="Replay deal 1").click()
    dialog = page.get_by_role("dialog", name=words["title"].format(n=index + 1))
    expect(dialog).to_be_visible()
    # the arrow keys step too: forward and back again
    where = dialog.get_by_role("status")
    expect(where).to_have_text(re.compile(r"^As dealt"))
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text(re.compile(r"^Auction, bid 1"))
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text(re.compile(r"^As dealt"))
    check_against(read_replay(dialog, words), record, line, index, words)
    page.screenshot(path=artifacts / "replay-dialog-laptop.png")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    # from the file: the same deal, uploaded
    upload_and_check(page, path, record, line, index, words)


@pytest.mark.parametrize(("lang", "viewport"), [("nb", PHONE), ("fr", PHONE), ("en", PHONE)],
                         ids=["nb-phone", "fr-phone", "en-phone"])
def test_a_record_file_replays_on_a_phone(new_page: Any, tmp_path: Path, artifacts: Path,
                                          lang: str, viewport: dict[str, int]) -> None:
    words = WORDS[lang]
    record = example_record()  # the rules page's worked example: one standard deal
    path = tmp_path / "example.json"
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    line = replay_record(record, tmp_path / "checked.json")
    page = new_page(f"replay-{lang}", viewport=viewport, locale=words["locale"])
    upload_and_check(page, path, record, line, 0, words, artifacts / f"replay-{lang}-phone.png")


def test_a_broken_file_is_refused_with_where_it_breaks(new_page: Any, tmp_path: Path) -> None:
    record = copy.deepcopy(example_record())  # (its deal is the rules page's, shared)
    record["deals"][0]["actions"][8]["play"] = "2C"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page = new_page("replay-broken", viewport=LAPTOP, allow_http_errors=True)
    page.goto("/replay")
    page.get_by_label("Game record file").set_input_files(str(path))
    expect(page.get_by_role("alert")).to_have_text(
        re.compile(r"this record does not replay: deal 1, action 9: seat \d"))
    expect(page.get_by_role("region", name=re.compile("Replay of deal"))).to_have_count(0)
