"""What a closed connection leaves in memory: nothing, once its socket is gone, without
waiting for a full garbage collection.  A server full of rooms rarely runs one (its
collector is tuned for long-lived objects), so a closed connection caught in a reference
cycle stays in memory with everything it points to (its protocol, parser, scope and
queues: tens of kilobytes); benchmarks/soak.py found its server's memory not coming back
after every room had left."""

from __future__ import annotations

import gc
import threading
import time
import types
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from rooms_harness import Client, ServerThread, create_room, join_room

from app.runtime.websocket import LeanWebSocketProtocol


def _protocols() -> set[int]:
    return {id(o) for o in gc.get_objects() if isinstance(o, LeanWebSocketProtocol)}


def _new_protocols(before: set[int]) -> list[weakref.ref[Any]]:
    """Weak references to the server's socket protocols made since ``before``."""
    return [weakref.ref(o) for o in gc.get_objects()
            if isinstance(o, LeanWebSocketProtocol) and id(o) not in before]


def _server_idle(server: ServerThread, code: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runner = server.registry.rooms.get(code)
        if not server.server.server_state.connections and (runner is None or not runner.conns):
            return
        time.sleep(0.02)
    raise AssertionError("the server still holds connections")


def _alive_once_closed(refs: list[weakref.ref[Any]], timeout: float = 30) -> int:
    """How many of ``refs`` are alive once the server's close tasks have ended: each
    protocol goes as its last task lets go of it, by reference counting, or (in a
    reference cycle, the collector being off) never; after ``timeout`` seconds, the
    count of those still alive."""
    deadline = time.monotonic() + timeout
    while True:
        alive = sum(ref() is not None for ref in refs)
        if alive == 0 or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


@pytest.mark.parametrize("how", ["closing handshake", "dropped sockets"])
def test_a_full_room_whose_people_all_leave_at_once_leaves_no_connection_behind(
        server: ServerThread, how: str) -> None:
    """Four people leave together: the room still sends to the ones whose sockets are
    closing (each leave changes the view of the others), those sends fail, and the
    connections are closed by the server on top of the clients' own close."""
    room = create_room(server.base)
    code = room["room"]
    tokens = [room["token"]] + [join_room(server.base, code, n)["token"]
                                for n in ("Bo", "Cy", "Di")]
    before = _protocols()
    people = [Client(server.base, code, token=t) for t in tokens]
    people[0].send({"type": "start"})
    for person in people:
        person.wait_state(lambda v: v["phase"] != "lobby")
    refs = _new_protocols(before)
    assert len(refs) == 4
    gc.collect()
    gc.disable()
    try:
        if how == "dropped sockets":
            for person in people:
                person.ws.socket.close()  # no closing handshake: the peer just goes
        else:  # all four at once, each with its closing handshake
            leaving = [threading.Thread(target=person.close) for person in people]
            for thread in leaving:
                thread.start()
            for thread in leaving:
                thread.join(10)
        _server_idle(server, code)
        alive = _alive_once_closed(refs)
    finally:
        gc.enable()
    assert alive == 0, f"{alive} closed connections wait for a full collection"


def test_a_socket_that_leaves_before_its_hello_leaves_nothing_behind(
        server: ServerThread) -> None:
    code = create_room(server.base)["room"]
    before = _protocols()
    gc.collect()
    gc.disable()
    try:
        people = [Client(server.base, code, hello=False) for _ in range(3)]
        deadline = time.monotonic() + 30
        refs: list[weakref.ref[Any]] = []
        while len(refs) < 3 and time.monotonic() < deadline:
            refs = _new_protocols(before)
            time.sleep(0.01)
        assert len(refs) == 3
        people[0].close()
        people[1].ws.socket.close()
        people[2].send({"type": "ping"})  # not a hello: refused and closed by the server
        _server_idle(server, code)
        alive = _alive_once_closed(refs)
    finally:
        gc.enable()
    assert alive == 0, f"{alive} closed connections wait for a full collection"


def test_when_the_last_room_leaves_memory_its_leftovers_are_collected(
        make_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms that leave memory may leave reference cycles to the collector, which a quiet
    server hardly runs: when no room is left in memory, the sweep empties the store's
    caches, runs a full collection (cheap then) and trims the C heap, and not while other
    rooms are in memory."""
    from app.runtime import memory

    srv = make_server(idle_seconds=0.3)
    collections: list[int] = []
    trims: list[int] = []
    runners: list[weakref.ref[Any]] = []
    held: list[int] = []

    def collect() -> int:
        collections.append(len(srv.registry.rooms))
        found = gc.collect()
        held.append(sum(ref() is not None for ref in runners))  # nothing keeps a room
        return found

    def trim(pad: int) -> int:
        trims.append(len(collections))  # after the collection
        return 1

    monkeypatch.setattr(memory, "gc", types.SimpleNamespace(collect=collect))
    monkeypatch.setattr(memory, "MALLOC_TRIM", trim)
    shrinks: list[int] = []
    shrink = srv.registry.store.shrink

    async def shrink_then_count() -> None:
        await shrink()
        shrinks.append(len(collections))  # before the collection

    monkeypatch.setattr(srv.registry.store, "shrink", shrink_then_count)
    sweeps: list[int] = []
    maintain = srv.registry.store.maintain

    async def maintain_then_count() -> None:
        await maintain()
        sweeps.append(len(sweeps))  # a sweep's last step: after its collection, if any

    monkeypatch.setattr(srv.registry.store, "maintain", maintain_then_count)
    first, second = create_room(srv.base), create_room(srv.base)
    ann = Client(srv.base, first["room"], token=first["token"])
    bo = Client(srv.base, second["room"], token=second["token"])
    runners.extend(weakref.ref(r) for r in srv.registry.rooms.values())
    assert len(runners) == 2
    # On a busy machine both rooms may have idled out between their creation and the
    # clients' hellos (0.3 s), and a sweep collected then: not what is tested here. After
    # two more sweeps' ends, every sweep since began with both clients connected.
    deadline = time.monotonic() + 30
    settled = len(sweeps) + 2
    while len(sweeps) < settled:
        assert time.monotonic() < deadline, "the sweeps stopped"
        time.sleep(0.05)
    for record in (collections, trims, held, shrinks):
        record.clear()
    ann.close()
    deadline = time.monotonic() + 30
    while first["room"] in srv.registry.rooms:
        assert time.monotonic() < deadline, "the idle room stayed in memory"
        time.sleep(0.05)
    # the sweep that let Ann's room go has ended (it would have collected before this)
    ended = len(sweeps)
    while len(sweeps) <= ended:
        assert time.monotonic() < deadline, "the sweeps stopped"
        time.sleep(0.05)
    assert collections == [] and shrinks == []  # Bo's room is still in memory
    bo.close()
    deadline = time.monotonic() + 30
    while srv.registry.rooms or not trims:  # the trim follows the collection
        assert time.monotonic() < deadline, "no collection after the last room left"
        time.sleep(0.05)
    assert shrinks == [0]  # the store's caches go first
    assert collections == [0]
    assert trims == [1]
    assert held == [0], "a room that left memory was still held while collecting"


def test_the_c_heap_is_trimmed_where_the_c_library_can() -> None:
    """glibc (this machine, the Docker image) has ``malloc_trim``; it returns 1 when it
    gave memory back, 0 when there was none to give."""
    from app.runtime import memory

    assert memory.MALLOC_TRIM is not None
    assert memory.MALLOC_TRIM(0) in (0, 1)
