"""The search pool's lanes, which the pool (app/rooms/server/search_pool.py) and the
metrics (app/web/metrics.py) both read: the metrics need the names, not the pool.

A lane is the kind of job a search worker runs: a bot's move, a player's hint, a deal's
review, a deal's par.  Each has its own queue figures, and its series in /metrics from
the start.
"""

from __future__ import annotations

LANES = ("bot", "hint", "review", "par")
