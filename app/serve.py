"""``amerikaner serve``: run the rooms server with uvicorn.

WebSocket compression is off (it costs CPU per frame and has a history of memory
blow-ups) and frames are limited to 64 KiB.  Settings come from ``AMERIKANER_*``
environment variables (docs/operations.md); the flags override them.  The data folder is
checked first (``app.datacheck``: one line and exit status 2 if it cannot be used), and
HTTP is served by ``app.runtime.http`` (a deadline for each request, a cap on sockets per
address).  Proxy headers are read by the app, from ``AMERIKANER_TRUSTED_PROXIES`` only
(``app.web.addresses``), never by uvicorn's own rule (which trusts 127.0.0.1).  Logs are
plain text lines, or JSON objects with ``AMERIKANER_LOG_FORMAT=json`` (``app.web.jsonlog``).
SIGTERM drains the rooms before the server stops (``app.shutdown``).
"""

from __future__ import annotations

import argparse
import logging
import logging.config
import sys
from pathlib import Path
from typing import Any

from .datacheck import DataDirError, check_data_dir
from .runtime import allocator
from .settings import Settings, SettingsError

WS_MAX_SIZE = 64 * 1024
# An idle HTTP connection is closed after this (uvicorn's own default, said here because a
# proxy's idle upstream connections must close before it: deploy/nginx.conf, 4 s).
KEEP_ALIVE_SECONDS = 5


def run_serve(args: argparse.Namespace) -> int:
    from .web.addresses import TrustedProxies

    try:
        settings = Settings.from_env().with_overrides(
            host=args.host, port=args.port, database_url=args.database_url,
            data_dir=Path(args.data_dir) if args.data_dir is not None else None)
        trusted = TrustedProxies(settings.trusted_proxies)
        check_data_dir(settings.data_dir)
    except (SettingsError, DataDirError) as exc:
        return _refuse(str(exc))
    except ValueError as exc:  # a trusted proxy that is no address or network
        return _refuse(f"AMERIKANER_TRUSTED_PROXIES: {exc}")
    try:
        TrustedProxies(settings.metrics_allow)  # the same form: addresses or networks
    except ValueError as exc:
        return _refuse(f"AMERIKANER_METRICS_ALLOW: {exc}")
    allocator.ensure(settings.allocator)  # may start this command afresh (app/runtime/allocator.py)
    import uvicorn  # the web stack, after the restart (if any): imported once

    from .main import create_app, drain
    from .runtime.http import guarded_protocol
    from .runtime.websocket import LeanWebSocketProtocol
    from .shutdown import DrainingServer
    from .web import jsonlog

    logs: dict[str, Any] = {}
    if settings.log_format == "json":  # every logger, uvicorn's included (app/web/jsonlog.py)
        logging.config.dictConfig(jsonlog.log_config(settings.log_level))
        logs["log_config"] = None  # done: uvicorn keeps it
    else:
        logging.basicConfig(level=settings.log_level.upper(),
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(settings)
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, **logs,
        ws=LeanWebSocketProtocol, ws_per_message_deflate=False, ws_max_size=WS_MAX_SIZE,
        log_level=settings.log_level.lower(), proxy_headers=False, server_header=False,
        timeout_graceful_shutdown=5, timeout_keep_alive=KEEP_ALIVE_SECONDS,
        http=guarded_protocol(settings.request_deadline, settings.connections_per_address,
                              trusted))
    server = DrainingServer(config, lambda: drain(app))  # SIGTERM hands the rooms over
    server.run()
    return 0 if server.started else 1


def _refuse(problem: str) -> int:
    """One line on standard error and the exit status of a start-up problem."""
    print(f"amerikaner serve: {problem}", file=sys.stderr)
    return 2
