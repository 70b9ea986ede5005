"""The SQL of the rooms' log in PostgreSQL: the ``rooms``, ``log`` and ``records``
tables (the schema is ``postgres_schema.py``).

Every append is fenced: ``APPEND`` writes the entries only while this process holds the
room's lease (``postgres_lease_sql.py``), in the statement that checks it.
"""

from __future__ import annotations

# One statement: lock our lease row, and only if we hold it, append the entries and touch
# the room.  The count says whether we held it.
APPEND = """
WITH lease AS (SELECT code FROM leases WHERE code = $1 AND owner = $2 FOR SHARE),
     ins AS (INSERT INTO log(code, seq, entry, owner)
             SELECT lease.code, $3 + t.i - 1, t.e, $2
             FROM lease, unnest($4::text[]) WITH ORDINALITY AS t(e, i) RETURNING 1),
     upd AS (UPDATE rooms SET updated_at = $5 WHERE code = $1
             AND EXISTS (SELECT 1 FROM lease))
SELECT count(*) FROM lease
"""
LOAD = """
SELECT r.checkpoint, l.seq, l.entry FROM rooms r
LEFT JOIN log l ON l.code = r.code AND l.seq >= r.checkpoint
WHERE r.code = $1 ORDER BY l.seq
"""
# A room keeps the records of its last ``records_kept`` finished matches.
PRUNE_RECORDS = """
DELETE FROM records WHERE code = $1 AND match_number NOT IN (
    SELECT match_number FROM records WHERE code = $1 ORDER BY match_number DESC LIMIT $2)
"""
# A room's log starts again at a checkpoint: the row says from which number.
CHECKPOINT = ("INSERT INTO rooms(code, created_at, updated_at, checkpoint) "
              "VALUES ($1, $2, $2, $3) ON CONFLICT (code) DO UPDATE SET "
              "updated_at = excluded.updated_at, "
              "checkpoint = excluded.checkpoint")
SAVE_RECORD = ("INSERT INTO records(code, match_number, record, finished_at) "
               "VALUES ($1, $2, $3, $4) ON CONFLICT (code, match_number) DO UPDATE "
               "SET record = excluded.record, finished_at = excluded.finished_at")
