"""The standings are a pure function of the club's finished matches: any order of
arrival, repeats of the same match, and a reload (a fresh memo, as after a restart) give
equal standings; the points in the standings add up to the points in the matches."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.clubs.match_stats import empty
from app.clubs.standings import MatchRow, RatingsMemo, standings

PLAYERS = [f"p{i}" for i in range(6)]


@st.composite
def matches(draw: Any) -> list[MatchRow]:
    out = []
    for i in range(draw(st.integers(0, 12))):
        seats = tuple(draw(st.sampled_from([*PLAYERS, None])) for _ in range(4))
        seats = tuple(p if p not in seats[:j] else None for j, p in enumerate(seats))
        rows = draw(st.integers(1, 4))
        sheet = [[draw(st.integers(-20, 20)) for _ in range(4)] for _ in range(rows)]
        totals = [sum(r[s] for r in sheet) for s in range(4)]
        out.append(MatchRow(
            room_id=draw(st.sampled_from(["r1", "r2", "r3"])), number=i + 1, room="abc",
            season=1, finished_at=float(draw(st.integers(0, 5))), players=seats,
            summary={"number": i + 1, "players": ["x"] * 4, "score_sheet": sheet,
                     "totals": totals, "winners": [], "from_deal": [0] * 4},
            stats=tuple(empty(4))))
    return out


@settings(max_examples=60, deadline=None)
@given(matches(), st.randoms(use_true_random=False), st.integers(0, 3))
def test_standings_are_a_pure_function_of_the_set_of_matches(
        found: list[MatchRow], rng: Any, repeats: int) -> None:
    names = {p: p.upper() for p in PLAYERS}
    unique = list({m.identity: m for m in found}.values())
    expected = standings(unique, names)
    arrived = unique + [rng.choice(unique) for _ in range(repeats if unique else 0)]
    rng.shuffle(arrived)
    assert standings(arrived, names) == expected
    # a memo that saw some of them first, as a running server does, then all of them
    memo = RatingsMemo()
    standings(arrived[: len(arrived) // 2], names, memo, "club")
    assert standings(arrived, names, memo, "club") == expected
    assert standings(arrived, names, RatingsMemo(), "club") == expected  # after a restart
    counted = sum(t for m in unique for t, p in zip(m.summary["totals"], m.players,
                                                    strict=True) if p is not None)
    assert sum(row["points"] for row in expected) == counted
    assert sum(row["matches"] for row in expected) == sum(
        1 for m in unique for p in m.players if p is not None)
