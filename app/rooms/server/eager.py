"""Running a coroutine at once, in the caller, and handing it to a task only if it waits.

A room's sends and, with SQLite, its messages nearly always complete without suspending:
run as far as they go in the caller they cost no task, queue or wake-up.  ``start`` runs a
coroutine until it first suspends; the rare one that does is finished by ``resume`` in a
task, which carries on exactly where it stopped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

DONE = object()  # what ``start`` returns for a coroutine that ran to its end


def start(coro: Coroutine[Any, Any, None]) -> object:
    """Run ``coro`` until it suspends: what it waits on (give it to ``resume`` in a task),
    or ``DONE``.  Its exceptions propagate."""
    try:
        return coro.send(None)
    except StopIteration:
        return DONE


async def resume(coro: Coroutine[Any, Any, None], waiting: object) -> None:
    """Drive a coroutine that suspended on ``waiting`` (what it yielded) to its end, as a
    task would: wait for that, send it on, and so on."""
    while True:
        if isinstance(waiting, asyncio.Future):
            waiting._asyncio_future_blocking = False  # as a task takes it over
            await waiting
        else:  # a bare yield (asyncio.sleep(0))
            await asyncio.sleep(0)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
