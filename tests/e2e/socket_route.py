"""The page's WebSocket to the real server, through Playwright's WebSocket route: what
the page sends goes on as it is, and each frame of the server's is handed to
``from_server``, which a test's subclass overrides to edit it or hold it back (it lets
it through with ``self.route.send``)."""

from __future__ import annotations

import re
from typing import Any


class RoutedSocket:
    """Routes ``page``'s room socket (``/ws/``) from its next connection on."""

    def __init__(self, page: Any) -> None:
        self.route: Any = None
        page.route_web_socket(re.compile(r"/ws/"), self._connect)

    def _connect(self, route: Any) -> None:
        self.route = route
        server = route.connect_to_server()
        route.on_message(server.send)
        server.on_message(self.from_server)

    def from_server(self, message: str | bytes) -> None:
        self.route.send(message)
