"""What the rooms draw at random, from the system's secure source: room codes, seat tokens,
and the ``Chance`` a room's core is given (its shuffles, first dealers, bots' delays),
so that the core itself makes no random choice (app/rooms/core/state.py)."""

from __future__ import annotations

import random
import secrets
from functools import partial

from app.rooms.core.codes import CODE_ALPHABET, CODE_LENGTH
from app.rooms.core.state import Chance
from app.rules import Match, RuleSet
from app.rules.match import deal_cards


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def _match(rng: random.Random, rules: RuleSet, dealer: int) -> Match:
    # the room deals each deal's cards itself (``Chance.deal``): no redeal of its own
    return Match(rules, rng, first_dealer=dealer, auto_redeal=False)


def chance_of(rng: random.Random) -> Chance:
    """A room's chance drawn from ``rng`` (the shared ``SystemRandom`` in production, a
    seeded ``Random`` in tests), with tokens from ``secrets``."""
    return Chance(token=new_token, deal=partial(deal_cards, rng=rng),
                  match=partial(_match, rng), below=rng.randrange, between=rng.uniform)
