"""The hand's cards use the room a screen has (issue 39: 65x91 px cards on a 1366x768
laptop with the table's green empty around them): on 1366x768 a card is at least 90 px
wide and the whole hand is one row in view, each card's corner (its rank and suit) and
middle (where a click lands) seen even where the cards overlap; on phones (375x667,
320x568) the whole hand stays on the first screen without sideways scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LAPTOP, PHONE, SMALL_PHONE
from .players import hand, no_horizontal_scroll, open_room

# Each hand card's box, whether it lies in the window and in the hand's area, and
# whether its top-left corner (the rank) and its middle (where a click lands) are on top
# there (not under the next card).
CARDS = """() => { scrollTo(0, 0);
  const area = document.getElementById('hand-area').getBoundingClientRect();
  return [...document.querySelectorAll('#hand button')].map(b => {
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + 6, r.top + 14);
    const middle = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {card: b.dataset.card, width: r.width, height: r.height, row: b.offsetTop,
            inWindow: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
            inArea: r.left >= area.left - .5 && r.right <= area.right + .5,
            cornerSeen: !!top && b.contains(top), middleSeen: !!middle && b.contains(middle)};
  }); }"""


def test_the_hand_is_big_and_whole(new_page: Any, artifacts: Path) -> None:
    """One browser context for the three sizes (a context each made three, a renderer
    and a cold cache each): at each, the window is set first and a new practice table
    opened from the landing page, so its hand is dealt and drawn at that size."""
    page = new_page("hand", viewport=LAPTOP)
    for viewport in (LAPTOP, PHONE, SMALL_PHONE):
        page.set_viewport_size(viewport)
        check_the_hand(page, artifacts, viewport)


def check_the_hand(page: Any, artifacts: Path, viewport: dict[str, int]) -> None:
    open_room(page, "Kim", "Practice")
    expect(hand(page).get_by_role("button")).to_have_count(12)
    cards = page.evaluate(CARDS)
    page.screenshot(path=str(artifacts / f"hand-{viewport['width']}.png"))
    outside = [c["card"] for c in cards if not (c["inWindow"] and c["inArea"])]
    assert outside == [], f"cards out of view: {outside}"
    hidden = [c["card"] for c in cards if not (c["cornerSeen"] and c["middleSeen"])]
    assert hidden == [], f"cards whose corner or middle is covered: {hidden}"
    no_horizontal_scroll(page)
    if viewport == LAPTOP:
        narrow = [(c["card"], round(c["width"])) for c in cards if c["width"] < 90]
        assert narrow == [], f"cards under 90 px wide on 1366x768: {narrow}"
        assert len({c["row"] for c in cards}) == 1, "the hand is not one row"
