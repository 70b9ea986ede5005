"""``amerikaner serve``: run the rooms server with uvicorn.

WebSocket compression is off (it costs CPU per frame and has a history of memory
blow-ups) and frames are limited to 64 KiB.  Settings come from ``AMERIKANER_*``
environment variables (docs/operations.md); the flags override them.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from .settings import Settings, SettingsError

WS_MAX_SIZE = 64 * 1024


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .main import create_app

    try:
        settings = Settings.from_env().with_overrides(
            host=args.host, port=args.port, database_url=args.database_url,
            data_dir=Path(args.data_dir) if args.data_dir is not None else None)
    except SettingsError as exc:
        print(f"amerikaner serve: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        create_app(settings), host=settings.host, port=settings.port,
        ws_per_message_deflate=False, ws_max_size=WS_MAX_SIZE,
        log_level=settings.log_level.lower(), proxy_headers=True, server_header=False,
        timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1

