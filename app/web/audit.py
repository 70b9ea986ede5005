"""One structured log line per refusal: a refused connection, a rate-limit hit, an
oversized body.

``refused("rate_limit", address="203.0.113.9", limit=10)`` logs
``refused kind=rate_limit address=203.0.113.9 limit=10`` on the ``amerikaner.audit``
logger.  Callers pass addresses, counts and codes only: never a token, never what a
client wrote (values are quoted when they hold spaces or quotes, so a line always parses).
"""

from __future__ import annotations

import logging

log = logging.getLogger("amerikaner.audit")
# A record's own attributes, which ``extra`` may not set.
RESERVED = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime"}


def _value(value: object) -> str:
    text = str(value)
    if not text or any(ch.isspace() or ch in "\"=\\" for ch in text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def line(kind: str, **fields: object) -> str:
    """The ``key=value`` text of a refusal."""
    parts = [f"kind={_value(kind)}"]
    parts += [f"{key}={_value(value)}" for key, value in fields.items()]
    return "refused " + " ".join(parts)


def refused(kind: str, **fields: object) -> None:
    """Log one refusal (``kind``: what was refused; ``fields``: who and which limit).  The
    fields ride along on the record too, for the JSON logs (app/web/jsonlog.py), save any
    whose name a log record has already."""
    extra = {key: value for key, value in {"kind": kind, **fields}.items()
             if key not in RESERVED}
    log.warning("%s", line(kind, **fields), extra=extra)
