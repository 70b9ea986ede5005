"""Clubs (issue 38): players without accounts, clubs of players, their seasons, and the
standings and ratings of each club's finished matches.

- ``keys.py``: a player's secret key, device codes and ids (only hashes are stored);
- ``schema.py``: the tables, for SQLite and PostgreSQL alike;
- ``db.py``: one small transaction interface over both stores;
- ``seat_mirror.py`` and ``ledger.py``: which player held each seat of a club room as a
  match ended, and the club's match row written in the same transaction as the log
  entry that records the finished match (so it counts exactly once);
- ``players.py``, ``club_ops.py``: what the API does, over a transaction;
- ``match_stats.py``, ``standings.py``: the standings, a pure function of the club's
  finished matches, with Weng-Lin ratings (``openskill``);
- ``wire.py``: the HTTP bodies and answers; ``api.py``: the routes.

docs/clubs.md says what players and operators see of it.
"""
