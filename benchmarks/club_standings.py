"""The server CPU of a club's standings (issue 38: a club of 1,000 matches and 20
players in under 50 ms).  Builds the club's match rows as the store returns them (JSON
text columns), then times, with ``time.process_time``:

- ``rows``: decoding the rows into ``MatchRow`` (app/clubs/club_ops.py), the baseline;
- ``cold``: the standings from scratch (a restart: every rating folded, openskill);
- ``warm``: the standings after one new match, with the last fold kept (``RatingsMemo``),
  the usual request of a running server;
- ``openskill``: the ratings' fold alone as it was made before app/clubs/weng_lin.py,
  with openskill's ``PlackettLuce.rate`` (a rating object per player and match), for
  comparison with the cold figure;

each the median of ``--repeat`` runs, and the ratio of each to the baseline.

    python benchmarks/club_standings.py --matches 1000 --players 20
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from app.clubs.club_ops import match_row
from app.clubs.match_stats import empty
from app.clubs.standings import MatchRow, RatingsMemo, canonical, rated, standings


def stored_rows(matches: int, players: int, rng: random.Random) -> list[tuple[object, ...]]:
    """The club's rows as the store reads them (room id, number, room, season, finished
    at, players, summary, stats)."""
    ids = [f"p{i:02d}" for i in range(players)]
    out: list[tuple[object, ...]] = []
    for n in range(matches):
        seats = rng.sample(ids, 4)
        sheet = [[rng.randint(-20, 20) for _ in range(4)] for _ in range(rng.randint(8, 16))]
        totals = [sum(r[s] for r in sheet) for s in range(4)]
        summary = {"number": 1, "players": seats, "score_sheet": sheet, "totals": totals,
                   "winners": [], "from_deal": [0] * 4}
        out.append((f"room{n}", 1, "abcde", 1, float(n), json.dumps(seats),
                    json.dumps(summary), json.dumps(empty(4))))
    return out


def openskill_fold(rows: list[MatchRow]) -> None:
    """The ratings of the season folded with openskill's objects (the fold before
    weng_lin.py), the cold standings' old cost."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for match in canonical(rows):
        totals = match.summary["totals"]
        seats = [(p, totals[i]) for i, p in enumerate(rated(match)) if p is not None]
        if len(seats) < 2:
            continue
        teams = [[ratings.get(p) or model.rating()] for p, _ in seats]
        ranks = [float(1 + sum(1 for _, t in seats if t > total)) for _, total in seats]
        rated_now = model.rate(teams, ranks=ranks)  # type: ignore[arg-type]
        for (who, _), (new,) in zip(seats, rated_now, strict=True):
            ratings[who] = new


def cpu(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    raw = stored_rows(args.matches, args.players, random.Random(38))
    names = {f"p{i:02d}": f"Player {i}" for i in range(args.players)}
    rows: list[MatchRow] = [match_row(r) for r in raw]

    base = cpu(lambda: [match_row(r) for r in raw], args.repeat)
    cold = cpu(lambda: standings([match_row(r) for r in raw], names), args.repeat)
    before = cpu(lambda: openskill_fold([match_row(r) for r in raw]), args.repeat)

    def warm() -> None:
        memo = RatingsMemo()
        standings(rows[:-1], names, memo, "club")  # the server's last answer
        started = time.process_time()
        standings([match_row(r) for r in raw], names, memo, "club")
        warm_times.append(time.process_time() - started)

    warm_times: list[float] = []
    for _ in range(args.repeat):
        warm()
    warm_cpu = statistics.median(warm_times)
    print(f"club of {args.matches} matches, {args.players} players (median of "
          f"{args.repeat}, CPU seconds by time.process_time)")
    print(f"  rows decoded (baseline): {base * 1000:7.2f} ms")
    print(f"  standings, cold:         {cold * 1000:7.2f} ms  ({cold / base:.1f}x baseline)")
    print(f"  standings, one new match:{warm_cpu * 1000:7.2f} ms  "
          f"({warm_cpu / base:.1f}x baseline)")
    print(f"  openskill's fold (before): {before * 1000:6.2f} ms  "
          f"({before / base:.1f}x baseline; the rows decoded and the ratings alone)")
    print(f"  target 50 ms: {'met' if max(cold, warm_cpu) < 0.05 else 'MISSED'}")


if __name__ == "__main__":
    main()
