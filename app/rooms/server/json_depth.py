"""How deep a JSON text nests, counted without parsing it: the bound a WebSocket frame
(connection.py, ``parse_json``) and an uploaded game record (replay_work.py) are held to
before ``json.loads`` runs, so that no text can make the parser recurse too deep.

A text with fewer brackets than the bound cannot be too deep (the common case costs two
``str.count`` at the caller); otherwise ``json_depth`` counts the brackets outside string
literals, in one pass.
"""

from __future__ import annotations

import re

MAX_DEPTH = 32  # of a frame's JSON, and of an uploaded record's
_TOKEN = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape, a quote or a bracket


def json_depth(text: str) -> int:
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
