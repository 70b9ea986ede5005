"""The par keeper (app/clubs/par_keeper.py) on a real SQLite store, with a queue of the
test's own that answers at once: a match's deals are handed over, their par written; a
club whose backlog is full (``ParBusy``) and a play that fails (``ParFailed``) leave the
rest to the next scan, which makes it; a match whose par is all made is not scanned
again."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, cast

from test_club_par_store import a_record, insert_match

from app.bots.par import Par, play_par
from app.clubs.par_keeper import ParKeeper
from app.rooms.server.par_queue import ParBusy, ParFailed, ParJob, ParQueue
from app.rooms.store.sqlite import SqliteStore
from app.rules.record_shape import record_rules


def two_deals(examples_dir: Path) -> dict[str, Any]:
    """The spec's example record and a second deal: the same cards dealt by the next
    seat, played by the easy bot."""
    record = a_record(examples_dir)
    first = record["deals"][0]
    second = dict(first, dealer=(first["dealer"] + 1) % 4)
    play = play_par(record_rules(record), second, 0, 1, "easy")
    return dict(record, deals=[first, play.deal_record(second)])


class Queue:
    """Takes ``room`` jobs, then says ``ParBusy``; fails the deals in ``failing``."""

    def __init__(self) -> None:
        self.room = 1
        self.failing: set[int] = set()
        self.asked: list[int] = []

    def submit(self, job: ParJob) -> asyncio.Future[Par]:
        if self.room <= 0:
            raise ParBusy("full")
        self.room -= 1
        self.asked.append(job.deal)
        future: asyncio.Future[Par] = asyncio.get_running_loop().create_future()
        if job.deal in self.failing:
            future.set_exception(ParFailed("a worker died"))
        else:
            future.set_result(Par("easy", 1, 1, (1.0, 2.0, 3.0, 4.0), ((1, 2, 3, 4),), 0.0))
        return future


def test_busy_and_failed_deals_are_made_by_later_scans(tmp_path: Path,
                                                       examples_dir: Path) -> None:
    record = two_deals(examples_dir)

    async def scenario() -> None:
        store = SqliteStore(tmp_path)
        async with store.club_tx() as tx:
            await insert_match(tx, "r1", record)
        queue = Queue()
        keeper = ParKeeper(store, cast(ParQueue, queue))

        async def rows() -> list[Any]:
            async with store.club_tx() as tx:
                return await tx.fetch("SELECT deal FROM club_par ORDER BY deal")

        async def scan() -> int:
            handed = await keeper.scan()
            await keeper.settled()
            return handed

        assert await scan() == 1  # then ParBusy: the rest waits
        first = queue.asked[0]
        assert await rows() == [(first,)]
        async with store.club_tx() as tx:
            deals = json.loads(str((await tx.fetch("SELECT par_deals FROM club_matches"))[0][0]))
        assert len(deals) == 2
        queue.room, queue.failing = 100, {deals[1][0]}
        assert await scan() == len(deals) - 1  # all the others: one of them fails
        assert await rows() == [(d[0],) for d in deals if d[0] != deals[1][0]]
        queue.failing = set()
        queue.asked = []
        assert await scan() == 1 and queue.asked == [deals[1][0]]  # the failed one again
        assert await rows() == [(d[0],) for d in deals]
        assert await scan() == 0  # all made: nothing more to do
        await keeper.close()
        await store.close()

    asyncio.run(scenario())
