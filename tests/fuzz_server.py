"""The server under the protocol fuzz (tests/test_fuzz_protocol.py): a real ``amerikaner
serve`` process whose log is checked for tracebacks and errors after every step, and read
whole once the process has stopped.
"""

from __future__ import annotations

import re
import time

from serve_process import ServeProcess
from shared_helpers import HTTP

# -- the server and its log ------------------------------------------------------------

# a traceback, or a line at ERROR or above: uvicorn's own format ("ERROR:    ...") and the
# app's (``amerikaner serve``: "2026-01-01 12:00:00,000 ERROR name: ...")
BAD_LINE = re.compile(r"^(Traceback \(most recent call last\)|ERROR:|CRITICAL:"
                      r"|\S+ \S+ (ERROR|CRITICAL) )", re.MULTILINE)


class LiveServer:
    """A real ``amerikaner serve`` process and what it logged."""

    def __init__(self, process: ServeProcess) -> None:
        self.process = process
        self.base = process.base
        self.seen = 0  # the log's length when the last check found it clean

    def alive(self) -> bool:
        return self.process.proc is not None and self.process.proc.poll() is None

    def problems(self) -> list[str]:
        """The log's new lines that are a traceback or an error."""
        text = self.process.output()[self.seen:]
        return [text[m.start():m.start() + 2000] for m in BAD_LINE.finditer(text)]

    def check(self) -> None:
        """Nothing bad logged since the last check (then the log so far is clean); a
        server ``check_to_the_end`` stopped is started again first."""
        if self.process.proc is None:
            self.process.start()  # on the same data (and port, unless another took it)
            self.base = self.process.base
        assert self.alive(), self.process.output()[-3000:]
        problems = self.problems()
        assert not problems, "\n---\n".join(problems)
        self.seen = len(self.process.output())

    def check_to_the_end(self) -> None:
        """``check``, on a log the server can add nothing to: what it writes late (about
        a socket whose client already saw it close) is in once the process has stopped.
        The next ``check`` starts it again (not here: after the module's last test that
        start was for nothing); the log so far counts as checked either way."""
        assert self.alive(), self.process.output()[-3000:]
        self.process.stop()
        problems = self.problems()
        self.seen = len(self.process.output())
        assert not problems, "\n---\n".join(problems)

    def wait_gone(self, code: str) -> None:
        """Wait until nobody is connected to room ``code``: the server has taken the close
        of every socket it had (polled, 20 s at most)."""
        deadline = time.monotonic() + 20
        while True:
            info = HTTP.get(f"{self.base}/api/rooms/{code}", timeout=10).json()
            if info["spectators"] == 0 and not any(s["connected"] for s in info["seats"]):
                return
            assert time.monotonic() < deadline, f"sockets of room {code} still there: {info}"
            time.sleep(0.01)
