"""``amerikaner replay FILE [FILE ...]``: check game records against the rules.

Reads each file, replays it with ``app.rules.record.replay_record`` and prints one JSON
line per file, in the order given (docs/spec/GAME-RECORD.md).  Anything wrong with a file (it cannot
be read, is not UTF-8 or not JSON, is nested absurdly deep) becomes the same error line
with ``deal`` and ``action`` null: the command never prints a traceback.  The exit status
is 0 when every record is ok, 1 otherwise.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from pydantic import JsonValue

from .rules.record import RecordError, error_line, replay_record

MAX_BYTES = 64 * 1024 * 1024  # a thousand-deal record is a few MB; refuse to load more
MAX_DIGITS = 100


def run_replay(files: Sequence[str]) -> int:
    """Replay every file and print its result line; the exit status."""
    all_ok = True
    try:
        for path in files:
            line = replay_file(path)
            all_ok = all_ok and line["ok"] is True
            print(json.dumps(line), flush=True)
    except BrokenPipeError:
        # The reader went away (`amerikaner replay ... | head -1`): stop quietly.  Point
        # stdout at /dev/null so that the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0 if all_ok else 1


def replay_file(path: str) -> dict[str, object]:
    """The result line for one file, ``file`` first."""
    try:
        line = replay_record(read_record(path))
    except RecordError as exc:
        line = error_line(exc.message)
    except RecursionError:
        line = error_line("the JSON is nested too deeply to be a game record")
    except MemoryError:
        line = error_line("the file is too large to replay")
    except Exception as exc:  # a bug in replay must still give one line, not a traceback
        line = error_line(f"this record could not be replayed ({type(exc).__name__}: {exc}); "
                          "please report it")
    return {"file": path, **line}


def read_record(path: str) -> object:
    """The parsed JSON of a file; ``RecordError`` when it cannot be read or is not JSON."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise RecordError(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MB; "
                          "a game record is much smaller")
    return parse_record(data)


def parse_record(data: bytes) -> object:
    """The parsed JSON of a record file's bytes; ``RecordError`` when they are not UTF-8
    JSON, or hold what no record may (a key twice in one object, NaN, a hundred-digit
    number).  The server reads an uploaded record with it too (``POST /api/replay``)."""
    try:
        text = data.decode("utf-8-sig")  # tolerate a byte order mark
    except UnicodeDecodeError as exc:
        raise RecordError(f"the file is not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant,
                          parse_int=_small_int)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the file is not JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}") from None
    except ValueError as exc:  # a duplicate key, NaN, a number with too many digits
        raise RecordError(f"the file cannot be read as a game record: {exc}") from None


def _object(pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    """A JSON object; a key given twice is ambiguous (which value counts?), so refused."""
    out: dict[str, JsonValue] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f'the key "{key[:40]}" appears twice in one object')
        out[key] = value
    return out


def _small_int(text: str) -> int:
    """A JSON integer; nothing in a record needs a hundred digits (and int() refuses
    thousands, with a message about Python)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number with more than {MAX_DIGITS} digits has no place in a "
                         "game record")
    return int(text)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")
