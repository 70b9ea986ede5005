"""The server's runtime tuning, fenced off: each piece here is paid for by a figure that
its module's docstring gives (docs/performance.md, "The runtime tuning"), uses libraries
through their public names only, and nothing outside this folder bends to it.

- ``allocator``: ``amerikaner serve`` on the C library's ``malloc`` (memory back after
  rooms leave);
- ``memory``: the collector's settings, and memory given back when the last room leaves;
- ``http``: uvicorn's HTTP protocol with a request deadline and a socket cap per address;
- ``websocket``: uvicorn's WebSocket protocol without the handshake kept for hours, and a
  direct write of a frame that can go at once.

The two protocol classes subclass uvicorn's; ``CHECKED_AGAINST`` names the releases whose
source they were read against, and tests/test_runtime_uvicorn.py fails, saying what to
read again, when the lock moves to others or a name they rely on changes.
"""

CHECKED_AGAINST = {"uvicorn": "0.55.0", "websockets": "17.4"}
