"""What a Chromium page asked of the network, from the DevTools protocol's own events
(Playwright's CDP session): every request, whether the browser's cache answered it, and
the bytes that came over the wire.  Optionally a throttled link (DevTools' network
emulation: added latency per request, a ceiling on throughput each way), as on a phone.

Used by the browser tests (tests/e2e/test_static_caching.py) and the benchmark
(benchmarks/phone_network.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Chromium DevTools' "Fast 3G" shape, as the issue measured it
FAST_3G = {"offline": False, "latency": 150,
           "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
DATA_PATHS = ("/api/", "/ws/")  # a room's data, never cacheable: not files


@dataclass
class Request:
    url: str
    loader: str  # DevTools' loaderId: the same for a document and what it loads
    cached: bool = False  # answered by the browser's memory or disk cache
    status: int | None = None
    encoding: str = ""  # the answer's Content-Encoding
    wire_bytes: int = 0  # headers and body as received (0 from the cache)

    @property
    def path(self) -> str:
        rest = self.url.split("://", 1)[-1]
        return "/" + rest.split("/", 1)[1] if "/" in rest else "/"

    @property
    def is_file(self) -> bool:
        return not self.path.startswith(DATA_PATHS)


@dataclass
class NetworkLog:
    """The requests of one page since ``watch`` (``clear`` starts a new count)."""

    requests: dict[str, Request] = field(default_factory=dict)
    document: str = ""  # the loaderId of the page's latest document

    def watch(self, page: Any, throttle: dict[str, Any] | None = None) -> NetworkLog:
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        if throttle is not None:
            session.send("Network.emulateNetworkConditions", throttle)
        session.on("Network.requestWillBeSent", self._sent)
        session.on("Network.requestServedFromCache", self._from_cache)
        session.on("Network.responseReceived", self._received)
        session.on("Network.loadingFinished", self._finished)
        return self

    def clear(self) -> None:
        self.requests.clear()

    def _sent(self, event: dict[str, Any]) -> None:
        if event["request"]["url"].startswith(("http://", "https://")):
            loader = event.get("loaderId", "")
            self.requests[event["requestId"]] = Request(event["request"]["url"], loader)
            if event.get("type") == "Document":
                self.document = loader

    def _from_cache(self, event: dict[str, Any]) -> None:
        if (request := self.requests.get(event["requestId"])) is not None:
            request.cached = True

    def _received(self, event: dict[str, Any]) -> None:
        if (request := self.requests.get(event["requestId"])) is None:
            return
        response = event["response"]
        request.status = response["status"]
        request.cached = request.cached or bool(
            response.get("fromDiskCache") or response.get("fromMemoryCache")
            or response.get("fromPrefetchCache"))
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        request.encoding = headers.get("content-encoding", "")

    def _finished(self, event: dict[str, Any]) -> None:
        if (request := self.requests.get(event["requestId"])) is not None:
            request.wire_bytes = int(event.get("encodedDataLength", 0))

    def answered(self, files_only: bool = True) -> list[Request]:
        """The requests of the latest document (not one still coming for the page before
        a reload) answered so far, by the network or the cache; files only by default."""
        return [r for r in self.requests.values()
                if r.loader == self.document and r.status is not None
                and (r.is_file or not files_only)]

    def on_network(self, files_only: bool = True) -> list[Request]:
        """Those the network answered (not the browser's cache)."""
        return [r for r in self.answered(files_only) if not r.cached]

    def wire_bytes(self, files_only: bool = True) -> int:
        return sum(r.wire_bytes for r in self.on_network(files_only))
