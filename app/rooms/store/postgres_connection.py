"""Talking to PostgreSQL through asyncpg: the time limits, which errors are the
database's failures (raised again as ``StoreError``), and the names a process shows: its
database URL without the password, and its owner id in the leases and the log.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from . import StoreError

COMMAND_TIMEOUT = 5.0   # seconds a statement may take before it counts as failed
CONNECT_TIMEOUT = 5.0

# InternalClientError: a pooled connection the server ended under it (a failover, an
# operator's pg_terminate_backend) can be left mid-operation; it is a failure to write.
DB_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
             OSError, TimeoutError)


def redacted(url: str) -> str:
    """``url`` without its password, for the logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def new_owner_id() -> str:
    """This process's name in the leases and the log: unique per start."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


@contextlib.contextmanager
def failures(what: str) -> Iterator[None]:
    """The database's errors inside, raised again as ``StoreError`` saying ``what``."""
    try:
        yield
    except DB_ERRORS as exc:
        raise StoreError(f"{what}: {type(exc).__name__}: {exc}") from exc
