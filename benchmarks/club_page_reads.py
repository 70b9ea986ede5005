"""What a club page's store reads cost the event loop (SQLite), for a club of 1,000
matches and 20 players with every deal's par made (issue 38).  Prints, never asserts.

It writes the club into a fresh SQLite store (benchmarks/club_standings.py's rows, each
match with its par deals and a par per deal), then times ``get_club``'s reads as the page
runs them, in this process's CPU (``time.process_time``) and the event loop's own
thread (``time.thread_time`` of the loop's thread: what the loop could not do meanwhile):

- ``baseline``: one small club query (the member's row, as every club request reads);
- ``page reads``: the season's matches and their par, the members, seasons and names
  (``app.clubs.page_reads.read_page``), then the rows decoded and par joined;

each the median of ``--repeat`` runs, with the ratio to the baseline.

    python benchmarks/club_page_reads.py --matches 1000 --players 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app
sys.path.insert(0, str(Path(__file__).resolve().parent))

from club_standings import stored_rows

from app.clubs import club_ops
from app.clubs.page_reads import read_page
from app.rooms.store.sqlite import SqliteStore

CLUB = "bench"


async def fill(store: SqliteStore, matches: int, players: int, deals: int) -> None:
    """The club, its members and its matches with every deal's par."""
    raw = stored_rows(matches, players, random.Random(38))
    async with store.club_tx() as tx:
        await tx.execute("INSERT INTO clubs(id, name, host, invite, season, rules, "
                         "created_at, updated_at) VALUES (?, ?, ?, ?, 1, NULL, 0, 0)",
                         CLUB, "Bench", "p00", "invite")
        await tx.execute("INSERT INTO club_seasons(club, season, started_at) "
                         "VALUES (?, 1, 0)", CLUB)
        for i in range(players):
            await tx.execute("INSERT INTO players(id, name, created_at, seen_at) "
                             "VALUES (?, ?, 0, 0)", f"p{i:02d}", f"Player {i}")
            await tx.execute("INSERT INTO club_members(club, player, joined_at) "
                             "VALUES (?, ?, ?)", CLUB, f"p{i:02d}", float(i))
        for (room_id, number, room, season, finished, seats, summary, stats) in raw:
            sheet = json.loads(str(summary))["score_sheet"]
            par_deals = [[d, d, row] for d, row in enumerate(sheet[:deals])]
            await tx.execute(
                "INSERT INTO club_matches(room_id, match_number, club, room, season, "
                "finished_at, players, bots, summary, record, stats, par_deals, "
                "par_missing) VALUES (?, ?, ?, ?, ?, ?, ?, '[null,null,null,null]', ?, "
                "'{}', ?, ?, 0)", room_id, number, CLUB, room, season, finished, seats,
                summary, stats, json.dumps(par_deals))
            await tx.executemany(
                "INSERT INTO club_par(room_id, match_number, deal, club, par) "
                "VALUES (?, ?, ?, ?, ?)",
                [(room_id, number, d, CLUB, json.dumps({
                    "level": "strong", "seed": 1, "plays": 3,
                    "seat_means": [1.33, -2.0, 0.67, 0.0],
                    "play_points": [[2, -2, 0, 0], [1, -2, 1, 0], [1, -2, 1, 0]],
                    "cpu_seconds": 2.5})) for d, _, _ in par_deals])


async def timed(run: object, repeat: int) -> tuple[float, float]:
    """Median CPU seconds of the process and of the loop's thread."""
    loop_thread = threading.get_ident()
    assert callable(run)
    cpus, loops = [], []
    for _ in range(repeat):
        started, loop_started = time.process_time(), time.thread_time()
        await run()
        cpus.append(time.process_time() - started)
        loops.append(time.thread_time() - loop_started)
        assert threading.get_ident() == loop_thread
    return statistics.median(cpus), statistics.median(loops)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp))
        try:
            await fill(store, args.matches, args.players, args.deals)

            async def baseline() -> None:
                async with store.club_tx() as tx:
                    await club_ops.member_club(tx, CLUB, "p00")

            async def page() -> None:
                await read_page(store, CLUB, 1, "p00")

            base = await timed(baseline, args.repeat)
            reads = await timed(page, args.repeat)
        finally:
            await store.close()
    print(f"club of {args.matches} matches, {args.players} players, par for "
          f"{args.deals} deals a match (SQLite; median of {args.repeat}, CPU seconds)")
    print(f"  baseline (one club query): {base[0] * 1000:7.2f} ms CPU, "
          f"{base[1] * 1000:7.2f} ms on the loop")
    print(f"  page reads:                {reads[0] * 1000:7.2f} ms CPU, "
          f"{reads[1] * 1000:7.2f} ms on the loop  "
          f"({reads[1] / max(base[1], 1e-6):.1f}x baseline on the loop)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--deals", type=int, default=12, help="deals with a par a match")
    parser.add_argument("--repeat", type=int, default=7)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
