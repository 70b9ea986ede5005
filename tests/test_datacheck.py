"""Start-up problems of the data folder: ``amerikaner serve`` prints one line naming the
folder or file and the fix, and exits with status 2 (no traceback, no server)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from serve_process import ROOT, free_port

from app.datacheck import check_data_dir
from app.rooms.store.sqlite import DB_NAME


def serve(data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port()),
         "--data-dir", str(data_dir)],
        cwd=ROOT, capture_output=True, text=True, timeout=30)


def refused(data_dir: Path, *words: str) -> str:
    run = serve(data_dir)
    assert run.returncode == 2, run.stderr
    assert run.stdout == "" and "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def read_only_folder(tmp_path: Path) -> Path:
    """A folder this user cannot write in (root writes anywhere but in sysfs)."""
    if os.geteuid() != 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
        return folder
    sysfs = Path("/sys/kernel")
    try:
        os.close(os.open(sysfs / "amerikaner-probe", os.O_CREAT | os.O_WRONLY))
    except OSError:
        return sysfs
    (sysfs / "amerikaner-probe").unlink()
    pytest.skip("no folder that root cannot write in")


def test_a_read_only_data_folder_is_one_line_and_status_2(tmp_path: Path) -> None:
    folder = read_only_folder(tmp_path)
    refused(folder, "cannot write in the data folder", str(folder), "write access",
            "--data-dir")


def test_a_data_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    refused(a_file / "data", "cannot make the data folder", str(a_file / "data"))
    refused(a_file, "is not a folder", str(a_file))


def test_a_corrupt_database_is_one_line_naming_the_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DB_NAME).write_bytes(os.urandom(8192))  # not SQLite at all
    refused(data, str(data / DB_NAME), "restore it from a backup")
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    with sqlite3.connect(damaged / DB_NAME) as db:
        db.execute("CREATE TABLE t (x)")
        db.executemany("INSERT INTO t VALUES (?)", [(str(i) * 20,) for i in range(5000)])
    db.close()
    raw = bytearray((damaged / DB_NAME).read_bytes())
    raw[4096 * 3:4096 * 3 + 300] = b"\xab" * 300  # a page in the middle, scribbled over
    (damaged / DB_NAME).write_bytes(bytes(raw))
    refused(damaged, str(damaged / DB_NAME), "malformed")


def test_a_sound_folder_passes_and_is_made_if_missing(tmp_path: Path) -> None:
    data = tmp_path / "new" / "data"
    check_data_dir(data)
    assert data.is_dir() and list(data.iterdir()) == []  # the write probe is gone
    with sqlite3.connect(data / DB_NAME) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    check_data_dir(data)
