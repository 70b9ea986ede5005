"""Server settings: environment variables (``AMERIKANER_*``) as defaults, the
``amerikaner serve`` flags on top.  docs/operations.md lists them all."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path

LOG_FORMATS = ("text", "json")
PAR_LEVELS = ("strong", "easy", "random")  # app/bots/par.py par_bot
# The memory allocators ``amerikaner serve`` can run on (app/runtime/allocator.py, which
# reads them from here: the settings stand below the runtime they choose).
ALLOCATORS = ("malloc", "pymalloc")
# The SQLite database's file in the data folder: named here, below the store
# (app/rooms/store/sqlite.py) and the data folder's start-up check (app/datacheck.py),
# which then runs before the restart on another allocator without importing the store.
DB_NAME = "amerikaner.sqlite3"


class SettingsError(ValueError):
    """An environment variable with a value that cannot be used."""


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("data")
    database_url: str = ""                   # postgresql://...: shared by several processes
    database_pool: int = 10                  # PostgreSQL connections per process, at most
    lease_seconds: float = 3.0               # a dead process's rooms are taken over after this
    origins: tuple[str, ...] = ()            # extra allowed WebSocket origins
    bot_delay: float = 1.0                   # seconds a bot "thinks" before acting
    idle_seconds: float = 600.0              # a room nobody is connected to leaves memory
    retention_days: float = 30.0             # a room untouched this long leaves the database
    club_retention_days: float = 730.0       # players unseen, clubs unused this long are deleted
    par_level: str = "strong"                # the clubs' par's bot: strong, easy or random
    records_kept: int = 50                   # finished matches' records kept per room (0: all)
    grace_seconds: int = 30                  # default for new rooms (host can change)
    host_grace: float = 15.0                 # a disconnected host keeps the role (a reload)
    turn_time_scale: float = 1.0             # real seconds a second of a room's turn time lasts
    review_seconds: float = 8.0              # CPU seconds a deal review searches (thinking.py)
    hint_seconds: float = 0.5                # seconds a practice hint searches (thinking.py)
    next_deal_pause: int = 10                # default for new rooms (host can change)
    rate: float = 10.0                       # messages per second per connection, average
    burst: int = 30                          # messages per connection in a burst
    max_message_bytes: int = 4096
    send_queue: int = 64                     # frames a connection may fall behind
    send_timeout: float = 10.0               # seconds one frame may take to send
    hello_timeout: float = 30.0
    max_rooms: int = 2000                    # rooms in memory at once
    log_level: str = "info"
    log_format: str = "text"                 # text, or json: one JSON object per line
    allocator: str = "malloc"                # malloc or pymalloc (app/runtime/allocator.py)
    # /healthz's "loop" problem (app/web/loop_lag.py): the event loop late by more than
    # loop_lag_limit seconds (0: never a problem) at every wake-up for loop_lag_hold seconds
    loop_lag_limit: float = 0.5
    loop_lag_hold: float = 10.0
    # hardening (docs/operations.md, "Limits"); addresses are per client, see app/web/
    trusted_proxies: tuple[str, ...] = ()    # proxies whose X-Forwarded-For is believed
    rooms_per_minute: int = 10               # rooms one address may create in 60 s
    rooms_held: int = 30                     # rooms one address's creations in memory at once
    request_deadline: float = 10.0           # seconds to send a complete HTTP request
    connections_per_address: int = 64        # open sockets (HTTP and WebSocket) per address
    ws_per_address: int = 32                 # WebSockets per address
    ws_per_seat: int = 4                     # WebSockets on one seat
    players_per_minute: int = 10             # players one address may make in 60 s
    clubs_per_minute: int = 5                # clubs one address may make in 60 s
    device_codes_per_minute: int = 5         # device codes one address makes (or claims) in 60 s
    replays_per_minute: int = 30             # replays (upload or room) one address asks in 60 s
    replays_at_once: int = 2                 # replays one address has open at once
    replay_workers: int = 1                  # processes making replays (replay_pool.py)
    replay_queue: int = 4                    # replays open beyond those the workers make
    flood_window: float = 10.0               # seconds over which a flood is measured
    # /metrics (docs/operations.md, "Metrics"): with a token, only for its bearer; else
    # only for clients in these networks (loopback and the private ranges)
    metrics_token: str = ""
    metrics_allow: tuple[str, ...] = ("127.0.0.0/8", "::1/128", "10.0.0.0/8",
                                      "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        s = cls()
        changes: dict[str, object] = {}
        for f in fields(cls):  # every setting, read as the type of its default
            raw = env.get("AMERIKANER_" + f.name.upper())
            if raw is None or raw == "":
                continue
            changes[f.name] = _convert(f.name, _kind(f.default), raw)
        return replace(s, **changes)  # type: ignore[arg-type]

    def with_overrides(self, **values: object) -> Settings:
        return replace(self, **{k: v for k, v in values.items() if v is not None})  # type: ignore[arg-type]


def _kind(default: object) -> str:
    """How a setting is written in the environment, from its default."""
    if isinstance(default, Path):
        return "path"
    return {int: "int", float: "float", tuple: "list"}.get(type(default), "str")


def _convert(name: str, kind: str, raw: str) -> object:
    var = "AMERIKANER_" + name.upper()
    try:
        if kind == "int":
            value: object = int(raw)
        elif kind == "float":
            value = float(raw)
        elif kind == "path":
            value = Path(raw)
        elif kind == "list":
            value = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
        else:
            value = raw
    except ValueError:
        raise SettingsError(f"{var}={raw!r}: expected a {kind}") from None
    if name == "allocator" and value not in ALLOCATORS:
        raise SettingsError(f"{var}={raw!r}: one of {', '.join(ALLOCATORS)}")
    if name == "log_format" and value not in LOG_FORMATS:
        raise SettingsError(f"{var}={raw!r}: one of {', '.join(LOG_FORMATS)}")
    if name == "par_level" and value not in PAR_LEVELS:
        raise SettingsError(f"{var}={raw!r}: one of {', '.join(PAR_LEVELS)}")
    if isinstance(value, int | float) and value < 0:
        raise SettingsError(f"{var} cannot be negative")
    return value
