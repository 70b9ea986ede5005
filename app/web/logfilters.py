"""Log hygiene: what a stranger can make the server log is one line, never a traceback.

uvicorn's WebSocket protocol logs a text frame that is not UTF-8 with the decoding error's
whole traceback, once per such socket, before the app sees anything (the socket itself is
closed properly, with 1007).  Anyone can repeat that, so the traceback is dropped and the
line kept.
"""

from __future__ import annotations

import logging

UVICORN_ERRORS = "uvicorn.error"


class NoTracebackForBadText(logging.Filter):
    """Keeps the record, without the traceback of a client's undecodable text."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, UnicodeDecodeError):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install() -> None:
    """Add the filter to uvicorn's error logger (once)."""
    logger = logging.getLogger(UVICORN_ERRORS)
    if not any(isinstance(f, NoTracebackForBadText) for f in logger.filters):
        logger.addFilter(NoTracebackForBadText())
