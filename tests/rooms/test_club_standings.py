"""The standings are a pure function of the club's finished matches: any order of
arrival, repeats of the same match, and a reload (a fresh memo, as after a restart) give
equal standings; the points in the standings add up to the points in the matches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.clubs.match_stats import empty, stats_of_record
from app.clubs.standings import (
    MatchRow,
    RatingsMemo,
    best_vs_par,
    level_ratings,
    rating_changes,
    standings,
)
from app.clubs.wire import DealPar
from app.rules.record import replay_record

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
        starts = [draw(st.integers(0, rows)) for _ in range(4)]
        # each row's deal (index: void deals have none) and its par, made or not yet
        deals = tuple(DealPar(deal=2 * row, row=row, points=sheet[row],
                              par=draw(st.none() | st.lists(
                                  st.floats(-20, 20).map(lambda x: round(x, 2)),
                                  min_size=4, max_size=4)))
                      for row in range(rows))
        out.append(MatchRow(
            room_id=draw(st.sampled_from(["r1", "r2", "r3"])), number=i + 1, room="abc",
            season=1, finished_at=float(draw(st.integers(0, 5))), players=seats,
            summary={"number": i + 1, "players": ["x"] * 4, "score_sheet": sheet,
                     "totals": totals, "winners": [], "from_deal": starts},
            stats=tuple(empty(4)),
            bots=tuple(draw(st.sampled_from([None, "easy", "strong"])) if p is None else None
                       for p in seats), deals=deals))
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
    assert level_ratings(arrived) == level_ratings(unique)
    assert rating_changes(arrived) == rating_changes(unique, memo, "club")
    assert level_ratings(arrived, memo, "club") == level_ratings(unique)
    counted = sum(t for m in unique for t, p in zip(m.summary["totals"], m.players,
                                                    strict=True) if p is not None)
    assert sum(row["points"] for row in expected) == counted
    assert sum(row["matches"] for row in expected) == sum(
        1 for m in unique for p in m.players if p is not None)
    # par: over each player's deals that have a par (from their first row), the others
    # left out; the row says how many
    with_par = [(p, d["points"][s] - d["par"][s]) for m in unique for d in m.deals
                for s, p in enumerate(m.players) if p is not None and d["par"] is not None
                and d["row"] >= m.summary.get("from_deal", [0] * 4)[s]]
    assert sum(row["par_deals"] for row in expected) == len(with_par)
    for row in expected:
        mine = [x for p, x in with_par if p == row["player"]]
        assert row["par_deals"] == len(mine)
        if mine:
            assert row["above_par_per_deal"] == pytest.approx(sum(mine) / len(mine),
                                                              abs=1e-3)
        else:
            assert row["above_par_per_deal"] is None
    for m in unique:  # the deal marked for a seat is one where its player beat par most
        for seat, deal in enumerate(best_vs_par(m)):
            seat_deals = [(d["deal"], d["points"][seat] - d["par"][seat]) for d in m.deals
                          if d["par"] is not None and m.players[seat] is not None
                          and d["row"] >= m.summary.get("from_deal", [0] * 4)[seat]]
            best = max((x for _, x in seat_deals), default=0.0)
            if best > 0:
                assert deal is not None and dict(seat_deals)[deal] == best
            else:
                assert deal is None


def test_each_seat_s_contracts_come_from_the_match_s_record(examples_dir: Path) -> None:
    """The stats of every example record of the spec: each scored deal's contract counts
    once for its bidder (and once for a partner other than the bidder), made or not as
    the replay says; a person who plays from row 1 is not counted for row 0."""
    checked = 0
    for path in sorted(examples_dir.glob("*.json")):
        record = json.loads(path.read_text())
        line = replay_record(record)
        if not line["ok"]:
            continue
        seats = len(record["players"])
        stats = stats_of_record(record, seats)
        scored = [(bool(d["made"]), c) for d in line["deals"]
                  if d["points"] is not None and (c := d["contract"]) is not None]
        assert sum(s["bidder_deals"] for s in stats) == len(scored)
        assert sum(s["bidder_made"] for s in stats) == sum(made for made, _ in scored)
        assert sum(s["amerikaner_bids"] for s in stats) == sum(
            c["bid"] == "amerikaner" for _, c in scored)
        partnered = [c for _, c in scored if c["partner"] not in (None, c["bidder"])]
        assert sum(s["partner_deals"] for s in stats) == len(partnered)
        if scored:
            first = scored[0][1]["bidder"]
            late = stats_of_record(record, seats, [1 if i == first else 0
                                                   for i in range(seats)])
            assert late[first]["bidder_deals"] == stats[first]["bidder_deals"] - 1
        checked += 1
    assert checked > 0


def test_a_first_match_s_loser_loses_rating_and_its_winner_gains() -> None:
    """New players (no rating yet) and a bot level ranked in their first match: the last
    loses mu, the first gains it. (Every newcomer once shared one default rating object,
    which openskill read as one player: each of the three gained the same +0.175.)"""
    match = MatchRow(
        room_id="r1", number=1, room="abc", season=1, finished_at=0.0,
        players=("ann", "bob", None, None),
        summary={"number": 1, "players": ["Ann", "Bob", "Bot 3", "Bot 4"],
                 "score_sheet": [[-11, 3, 1, -11]], "totals": [-11, 3, 1, -11],
                 "winners": [1], "from_deal": [0, 0, 0, 0]},
        stats=tuple(empty(4)), bots=(None, None, "easy", "easy"))
    ann, bob, bot, _ = rating_changes([match])[("r1", 1)]
    assert ann is not None and bob is not None and bot is None
    assert ann < 0 < bob
    levels = level_ratings([match])
    assert [r["level"] for r in levels] == ["easy"]
    assert levels[0]["rating"]["mu"] != 25 + bob  # (the bot's change is its own)
