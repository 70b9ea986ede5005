"""The SQLite store on a real file: a write that fails leaves nothing half done and the
store usable; idle rooms are forgotten with their deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.rooms.persistence import Store


def test_a_failed_write_changes_nothing_and_the_next_one_works(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save("ABCDE", {"match_number": 1, "n": 1}, 1, [(0, {"deal": 0})])
    with pytest.raises(TypeError):  # the second deal cannot be written: no part of it is
        store.save("ABCDE", {"match_number": 1, "n": 2}, 1, [(1, {"deal": object()})])
    assert store.load("ABCDE") == ({"match_number": 1, "n": 1}, [{"deal": 0}])
    store.save("ABCDE", {"match_number": 1, "n": 3}, 1, [(1, {"deal": 1})])
    assert store.load("ABCDE") == ({"match_number": 1, "n": 3}, [{"deal": 0}, {"deal": 1}])
    store.close()


def test_idle_rooms_are_forgotten_with_their_deals(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save("OLDER", {"match_number": 1}, 1, [(0, {"deal": 0})])
    assert store.delete_idle(older_than=0) == 0  # nothing is older than 1970
    assert store.delete_idle(older_than=2**40) == 1
    assert store.load("OLDER") is None and not store.exists("OLDER")
    store.save("OLDER", {"match_number": 1}, 1, [])  # the store still writes
    assert store.load("OLDER") == ({"match_number": 1}, [])
    store.close()
