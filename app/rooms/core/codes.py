"""Room codes and seat tokens: both random, neither guessable (the server draws them:
app/rooms/server/chance.py; the core only reads and checks them).

A room code is short enough to read out loud but has ~50 random bits, so nobody finds
rooms by enumeration.  A seat token has 128 bits; the server keeps only its SHA-256 hash
(a fast hash is enough for a random secret of that size: there is nothing to brute force).
"""

from __future__ import annotations

import hashlib
import hmac
import re

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read out loud safely
CODE_LENGTH = 10
_CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


def normalize_code(code: str) -> str | None:
    """The canonical form of a code typed by someone, or ``None`` if it cannot be one."""
    code = code.strip().lower()
    return code if _CODE_RE.match(code) else None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)
