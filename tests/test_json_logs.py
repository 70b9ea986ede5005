"""The JSON logs (app/web/jsonlog.py): a line holds the record and its extra fields
(the audit fields too), the log format is text or JSON, and a real ``amerikaner serve``
writes one JSON object a line.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from serve_process import ServeProcess
from shared_helpers import HTTP

from app.settings import Settings, SettingsError
from app.web import audit
from app.web.jsonlog import JsonFormatter, log_config

# -- JSON logs ---------------------------------------------------------------------------


def test_a_json_log_line_holds_the_record_and_its_extra_fields() -> None:
    formatter = JsonFormatter()
    record = logging.LogRecord("amerikaner.audit", logging.WARNING, __file__, 1,
                               "refused %s", ("kind=x",), None)
    record.kind, record.address, record.limit = "rate_limit", "203.0.113.9", 10
    line = json.loads(formatter.format(record))
    assert line["level"] == "warning" and line["logger"] == "amerikaner.audit"
    assert line["message"] == "refused kind=x"
    assert (line["kind"], line["address"], line["limit"]) == ("rate_limit", "203.0.113.9", 10)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        failed = logging.LogRecord("amerikaner.rooms", logging.ERROR, __file__, 1,
                                   "a step failed", (), sys.exc_info())
    text = formatter.format(failed)
    assert "\n" not in text  # one line, whatever the traceback
    assert "ValueError: boom" in json.loads(text)["exception"]
    access = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/healthz", "1.1", 200), None)
    fields = json.loads(formatter.format(access))
    assert (fields["method"], fields["path"], fields["status"]) == ("GET", "/healthz", 200)
    config: dict[str, Any] = log_config("debug")
    assert config["root"]["level"] == "DEBUG"


def test_audit_fields_ride_on_the_record(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "amerikaner.audit")
    audit.refused("rate_limit", address="203.0.113.9", limit=10, name="not a field")
    record = caplog.records[-1]
    assert record.getMessage().startswith("refused kind=rate_limit address=203.0.113.9")
    assert (record.kind, record.address, record.limit) == ("rate_limit", "203.0.113.9", 10)  # type: ignore[attr-defined]
    assert record.name == "amerikaner.audit"  # a field named like a record's own is left out


def test_the_log_format_is_text_or_json() -> None:
    assert Settings.from_env({"AMERIKANER_LOG_FORMAT": "json"}).log_format == "json"
    with pytest.raises(SettingsError, match="AMERIKANER_LOG_FORMAT"):
        Settings.from_env({"AMERIKANER_LOG_FORMAT": "xml"})


def test_serve_writes_one_json_object_a_line(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "data", env={"AMERIKANER_LOG_FORMAT": "json"}).start()
    try:
        assert HTTP.get(f"{server.base}/healthz").status_code == 200
        refused = HTTP.get(f"{server.base}/metrics", headers={"X-Forwarded-For": "1.2.3.4"})
        assert refused.status_code == 404
    finally:
        output = server.stop()
    lines = [json.loads(line) for line in output.splitlines()]  # every line is JSON
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    loggers = {line["logger"] for line in lines}
    assert {"amerikaner", "uvicorn.error", "uvicorn.access"} <= loggers
    refusal = next(line for line in lines if line["logger"] == "amerikaner.audit")
    assert (refusal["kind"], refusal["reason"]) == ("metrics", "not_allowed")
    health = next(line for line in lines if line.get("path") == "/healthz")
    assert (health["method"], health["status"]) == ("GET", 200)
