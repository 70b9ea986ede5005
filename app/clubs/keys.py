"""A player's secret key, the one-time device codes, and the ids of players and clubs.

A key is 32 random bytes (``secrets.token_urlsafe``): guessing one is hopeless, so a
plain SHA-256 of it is what the database keeps (a slow password hash buys nothing for a
high-entropy secret and would cost CPU on every request).  The key itself is in no row,
record, log line or answer but the one that made it for its owner.

A device code is short enough to type (8 letters of an alphabet without look-alikes,
about 40 bits): it lives ``DEVICE_CODE_SECONDS``, is used once, and only its hash is
kept; making them is limited per address (api.py), so guessing one in its minutes is out
of reach.
"""

from __future__ import annotations

import hashlib
import secrets

DEVICE_CODE_SECONDS = 600.0
DEVICE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1
DEVICE_CODE_LENGTH = 8


def new_key() -> str:
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """What the database keeps of a key, a device code or an invite check."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_player_id() -> str:
    return "p" + secrets.token_urlsafe(9)


def new_club_id() -> str:
    return "c" + secrets.token_urlsafe(6)


def new_invite() -> str:
    return secrets.token_urlsafe(12)


def new_device_code() -> str:
    return "".join(secrets.choice(DEVICE_ALPHABET) for _ in range(DEVICE_CODE_LENGTH))


def normal_device_code(code: str) -> str:
    """A device code as typed (spaces, dashes, lower case) in its stored form."""
    return "".join(c for c in code.upper() if c.isalnum())


def bearer(header: str) -> str | None:
    """The key of an ``Authorization: Bearer K`` header, ``None`` if there is none."""
    scheme, _, value = header.partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value:
        return None
    return value
