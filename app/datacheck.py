"""Start-up checks of the data folder, before the server starts: a folder that cannot be
made or written, or a database file that is not a sound SQLite database, is one clear
line naming it and the fix (``DataDirError``), never a traceback from the middle of
start-up."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path

from app.settings import DB_NAME


class DataDirError(Exception):
    """The data folder or database cannot be used; the message says which and the fix."""


def check_data_dir(data_dir: Path) -> None:
    """Make ``data_dir`` if needed and check that the server can write there and that an
    existing database opens, passes ``PRAGMA quick_check`` and can be written."""
    where = data_dir.resolve()
    if data_dir.exists() and not data_dir.is_dir():
        raise DataDirError(f"the data folder {where} is not a folder: choose another with "
                           "--data-dir")
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataDirError(f"cannot make the data folder {where} ({_why(exc)}): create it "
                           "with write access for the server's user, or choose another "
                           "with --data-dir") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-check-", dir=data_dir)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise DataDirError(f"cannot write in the data folder {where} ({_why(exc)}): give "
                           "the server's user write access to it, or choose another with "
                           "--data-dir") from None
    db = data_dir / DB_NAME
    if db.exists():
        _check_database(db.resolve())


def _check_database(db: Path) -> None:
    try:
        con = sqlite3.connect(f"file:{db}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise DataDirError(f"cannot open the database {db} ({exc}): give the server's "
                           "user write access to it") from None
    try:
        rows = con.execute("PRAGMA quick_check").fetchall()
        if rows != [("ok",)]:
            raise sqlite3.DatabaseError(str(rows[0][0]) if rows else "no answer")
        con.execute("BEGIN IMMEDIATE")  # can we write? (a read-only file says no here)
        con.execute("ROLLBACK")
    except sqlite3.Error as exc:
        readonly = "readonly" in str(exc)
        fix = ("give the server's user write access to it" if readonly else
               "restore it from a backup, or move it away to start with no rooms")
        raise DataDirError(f"the database {db} cannot be used ({exc}): {fix}") from None
    finally:
        with contextlib.suppress(sqlite3.Error):
            con.close()


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
