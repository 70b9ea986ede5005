"""Structured logs: ``AMERIKANER_LOG_FORMAT=json`` writes one JSON object per line, for a
log shipper (Loki, Elasticsearch, journald's JSON) to read without a parsing rule.

Each object has ``time`` (UTC, ISO 8601 with milliseconds), ``level`` (``info``,
``warning``...), ``logger`` and ``message`` (the text line the plain format shows), then
the record's extra fields: an audit refusal's ``kind``, ``address``, ``limit``...
(app/web/audit.py), an access log line's ``client``, ``method``, ``path``,
``http_version`` and ``status``; and ``exception`` with the traceback, if any.  Values
that JSON cannot hold are written as their text.

``log_config(level)`` is the ``logging.config.dictConfig`` for uvicorn's loggers and ours
in this format; ``amerikaner serve`` uses it (app/serve.py).  The plain format is
unchanged.
"""

from __future__ import annotations

import datetime
import json
import logging

# The attributes every LogRecord has: anything else on a record is an extra field.
STANDARD_ATTRIBUTES = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "taskName",
    "color_message",  # uvicorn's coloured copy of the message
}
# uvicorn.access logs '%s - "%s %s HTTP/%s" %d' with these arguments
ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")
ACCESS_LOGGER = "uvicorn.access"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (see the module)."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, object] = {
            key: value for key, value in record.__dict__.items()
            if key not in STANDARD_ATTRIBUTES and not key.startswith("_")}
        if (record.name == ACCESS_LOGGER and isinstance(record.args, tuple)
                and len(record.args) == len(ACCESS_FIELDS)):
            fields.update(zip(ACCESS_FIELDS, record.args, strict=True))
        entry: dict[str, object] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC)
            .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update((k, v) for k, v in fields.items() if k not in entry)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def log_config(level: str) -> dict[str, object]:
    """Every logger (the root, so ``amerikaner.*``; uvicorn's own) in JSON, at ``level``
    (``info``...); uvicorn's split kept: its access lines on standard output, the rest on
    standard error."""
    level = level.upper()
    stream = {"class": "logging.StreamHandler", "formatter": "json"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "default": {**stream, "stream": "ext://sys.stderr"},
            "access": {**stream, "stream": "ext://sys.stdout"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["access"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["default"], "level": level},
    }
