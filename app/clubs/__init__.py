"""Clubs (issue 38): players without accounts, clubs of players, their seasons, and the
standings and ratings of each club's finished matches.

- ``keys.py``: a player's secret key, device codes and ids (only hashes are stored);
- the tables and the transaction interface live with the store, which owns the schema
  (app/rooms/store/club_tables.py, tx.py);
- ``seat_mirror.py`` and ``ledger.py``: which player held each seat of a club room as a
  match ended, and the club's match row written in the same transaction as the log
  entry that records the finished match (so it counts exactly once): the ledger is the
  store's log folder (app/rooms/store/folders.py), given to it by app/main.py;
- ``players.py``, ``club_ops.py``: what the API does, over a transaction;
  ``page_reads.py``: a club page's reads, off the event loop;
- ``match_stats.py``, ``standings.py``, ``weng_lin.py``: the standings, a pure function
  of the club's finished matches, with Weng-Lin ratings (openskill's, in plain floats);
- ``par_keeper.py``, ``par_store.py``: the par of each deal, made and kept;
- ``wire.py``: the HTTP bodies and answers; ``api.py``: the routes.

docs/clubs.md says what players and operators see of it.
"""
