"""GET requests for tests that ask a server thousands of times (test_http_leaks.py's
oracle): over the standard library's ``HTTPConnection``, kept alive.  httpx's own work
per request was about as much CPU as the server's answer (0.84 ms against 0.45 ms a
request, server thread included), and ``httpx.get`` also builds a client, ~20 ms of
CPU, every call."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status and body."""

    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class Http:
    """GET over one kept-alive HTTP/1.1 connection to a server on loopback.  A connection
    the server closed is opened again."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def get(self, path: str, params: dict[str, Any] | None = None,
            headers: dict[str, str] | None = None) -> Answer:
        self.conn.request("GET", path + (f"?{urlencode(params)}" if params else ""),
                          headers=headers or {})
        reply = self.conn.getresponse()
        return Answer(reply.status, reply.read().decode())

    def close(self) -> None:
        self.conn.close()
