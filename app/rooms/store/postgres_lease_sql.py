"""The SQL of room ownership in PostgreSQL: the ``leases`` and ``processes`` tables.

A process serves a room while it holds the room's lease, a row ``(code, owner)`` in
``leases``, and a lease holds while its owner is alive: its row in ``processes`` has an
``expires_at`` in the future, on the database's clock.  ``postgres.py`` sends these
statements (its docstring tells when); the fence on the log's appends is its ``APPEND``,
which writes the log.
"""

from __future__ import annotations

# Take the lease if it is free, ours, or its holder is not alive; else how many seconds
# the holder's heartbeat holds yet (the snapshot before the insert: the holder's row).
# ``previous`` names the owner before (NULL: none), so that a takeover from a process
# whose lease lapsed is counted (amerikaner_lease_takeovers_total).
ACQUIRE = """
WITH before AS (SELECT owner FROM leases WHERE code = $1),
took AS (
    INSERT INTO leases(code, owner) VALUES ($1, $2)
    ON CONFLICT (code) DO UPDATE SET owner = excluded.owner
    WHERE leases.owner = excluded.owner OR NOT EXISTS (
        SELECT 1 FROM processes p WHERE p.owner = leases.owner AND p.expires_at > now())
    RETURNING 1)
SELECT EXISTS (SELECT 1 FROM took) AS took,
       (SELECT owner FROM before) AS previous,
       (SELECT extract(epoch FROM p.expires_at - now())::float8 FROM leases l
        JOIN processes p ON p.owner = l.owner WHERE l.code = $1) AS holder_left
"""
CHANNEL = "amerikaner_let_go"


def _let_go(which: str) -> str:
    """Let the rooms ``which`` selects go, and tell every process listening on CHANNEL
    (lease_cache.py), in notifications of at most 1,000 codes (a payload holds 8,000
    bytes)."""
    return f"""
WITH gone AS (DELETE FROM leases WHERE owner = $1 AND {which} RETURNING code)
SELECT pg_notify('{CHANNEL}', string_agg(code, ','))
FROM (SELECT code, (row_number() OVER ()) / 1000 AS chunk FROM gone) AS c GROUP BY chunk
"""


LET_GO = _let_go("code = ANY($2::text[])")
LET_GO_ALL = _let_go("true")
HEARTBEAT = """
INSERT INTO processes(owner, expires_at) VALUES ($1, now() + make_interval(secs => $2))
ON CONFLICT (owner) DO UPDATE SET expires_at = excluded.expires_at
"""
# rooms served by no live process
UNSERVED = """NOT EXISTS (SELECT 1 FROM leases l JOIN processes p ON p.owner = l.owner
                  WHERE l.code = rooms.code AND p.expires_at > now())"""
