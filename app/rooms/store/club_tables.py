"""The clubs' tables (app/clubs queries them), one text for SQLite and PostgreSQL (both
read ``text``, ``integer``, ``bigint`` and ``double precision``; times are epoch
seconds).

- ``players``: a player's id and name; ``player_keys``: the hashes of their keys (one per
  browser: a device code adds one); ``device_codes``: hashes of the one-time codes;
- ``clubs`` (the host, the current invite, the current season, the rules of its new
  tables), ``club_members``,
  ``club_seasons`` (when each began and ended);
- ``club_rooms``: the rooms that belong to a club, each with an id of its own (a room's
  code is used again once the room is forgotten; its matches must not be);
- ``room_players``: which player holds the seat of a room's seat token (by its hash), set
  when a player creates or joins a room with their key (the player's recent tables);
- ``club_matches``: each finished match of a club room, once: keyed by (room id, match
  number), written in the transaction that logs the finished match
  (app/clubs/ledger.py), with the players by seat, the bot level of each seat a bot
  played at the end (the levels are rated too), the match's summary and its game
  record; ``stats`` is derived from the record later (app/clubs/match_stats.py), off
  the event loop.

SQLite adds these in its schema version 4, PostgreSQL in its version 3: an older
database keeps its rooms, logs and records as they are.

``PAR_TABLES`` (SQLite version 5, PostgreSQL version 4) add par (app/clubs/par_keeper.py):

- ``club_matches.par_deals``: the match's deals that get a par (JSON: each deal's index
  in the record, its score sheet row and its real points by seat), derived from the
  record once, off the event loop (``NULL``: not yet); ``par_missing`` how many of
  them still lack a par;
  ``par_claim``: until when (epoch seconds) a process is making the match's par (a
  lease: in a cluster, one process makes a match's par; after a crash another takes it
  when the lease ends);
- ``club_par``: a deal's par (``Par.to_json``), once per (room id, match number, deal),
  written ``ON CONFLICT DO NOTHING`` (par is reproducible: a repeat is the same par).
"""

from __future__ import annotations

TABLES = [
    """CREATE TABLE IF NOT EXISTS players (
        id text PRIMARY KEY,
        name text NOT NULL,
        created_at double precision NOT NULL,
        seen_at double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS player_keys (
        key_hash text PRIMARY KEY,
        player text NOT NULL,
        created_at double precision NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS player_keys_player ON player_keys (player)",
    """CREATE TABLE IF NOT EXISTS device_codes (
        code_hash text PRIMARY KEY,
        player text NOT NULL,
        expires_at double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS clubs (
        id text PRIMARY KEY,
        name text NOT NULL,
        host text,
        invite text NOT NULL,
        season integer NOT NULL,
        rules text,
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS club_members (
        club text NOT NULL,
        player text NOT NULL,
        joined_at double precision NOT NULL,
        PRIMARY KEY (club, player)
    )""",
    "CREATE INDEX IF NOT EXISTS club_members_player ON club_members (player)",
    """CREATE TABLE IF NOT EXISTS club_seasons (
        club text NOT NULL,
        season integer NOT NULL,
        started_at double precision NOT NULL,
        ended_at double precision,
        PRIMARY KEY (club, season)
    )""",
    """CREATE TABLE IF NOT EXISTS club_rooms (
        code text PRIMARY KEY,
        club text NOT NULL,
        room_id text NOT NULL,
        created_at double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS room_players (
        code text NOT NULL,
        token_hash text NOT NULL,
        player text NOT NULL,
        bound_at double precision NOT NULL DEFAULT 0,
        PRIMARY KEY (code, token_hash)
    )""",
    "CREATE INDEX IF NOT EXISTS room_players_player ON room_players (player)",
    """CREATE TABLE IF NOT EXISTS club_matches (
        room_id text NOT NULL,
        match_number integer NOT NULL,
        club text NOT NULL,
        room text NOT NULL,
        season integer NOT NULL,
        finished_at double precision NOT NULL,
        players text NOT NULL,
        bots text NOT NULL DEFAULT '[]',
        summary text NOT NULL,
        record text NOT NULL,
        stats text,
        PRIMARY KEY (room_id, match_number)
    )""",
    "CREATE INDEX IF NOT EXISTS club_matches_club ON club_matches (club, season)",
]

PAR_TABLES = [
    "ALTER TABLE club_matches ADD COLUMN IF NOT EXISTS par_deals text",
    "ALTER TABLE club_matches ADD COLUMN IF NOT EXISTS par_missing integer",
    "ALTER TABLE club_matches ADD COLUMN IF NOT EXISTS par_claim double precision",
    """CREATE TABLE IF NOT EXISTS club_par (
        room_id text NOT NULL,
        match_number integer NOT NULL,
        deal integer NOT NULL,
        club text NOT NULL,
        par text NOT NULL,
        PRIMARY KEY (room_id, match_number, deal)
    )""",
    "CREATE INDEX IF NOT EXISTS club_par_club ON club_par (club)",
    "CREATE INDEX IF NOT EXISTS club_matches_par ON club_matches (par_missing)",
]
