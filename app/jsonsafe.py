"""JSON from strangers, parsed with bounds: a nesting depth limit, and every way a parse
can fail (bad syntax, bad UTF-8, ``RecursionError`` in the parser, numbers too long for
``int``) answered by one precise ``JsonError`` (code ``bad_json``), never a traceback.

``parse_json(frame)`` is what the WebSocket parser calls on each frame, before and after
``hello``.  The depth is checked before parsing: a frame with fewer brackets than the limit
cannot be too deep (the common case costs two ``str.count``); otherwise the brackets
outside string literals are counted.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
_TOKEN = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape, a quote or a bracket


class JsonError(ValueError):
    """A frame that is not JSON we read; ``code`` is always ``bad_json``."""

    code = "bad_json"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets inside string
    literals do not count; unbalanced text counts as far as it goes)."""
    deepest = level = 0
    in_string = False
    for match in _TOKEN.finditer(text):  # one pass: linear in the text, whatever it holds
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or token[0] == "\\":
            continue
        elif token in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def parse_json(frame: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The value of one JSON text, or ``JsonError`` saying what is wrong with it."""
    if isinstance(frame, bytes | bytearray):
        try:
            frame = bytes(frame).decode("utf-8")
        except UnicodeDecodeError:
            raise JsonError("that message is not UTF-8 text") from None
    if frame.count("[") + frame.count("{") > max_depth and depth(frame) > max_depth:
        raise JsonError(f"that message nests deeper than {max_depth} levels")
    try:
        return json.loads(frame)
    except RecursionError:
        raise JsonError(f"that message nests deeper than {max_depth} levels") from None
    except ValueError:  # JSONDecodeError, and integers too long to convert
        raise JsonError("that message is not JSON") from None
