"""A seat of a room: who holds it (a person's token hash, or nobody) and who plays it.

The states a seat can be in:

- lobby, empty: ``token_hash is None``, ``bot`` = the level that will fill it at the start;
- a person: ``token_hash`` set, ``bot is None`` (``away`` while a bot stands in for them);
- a bot, after the start: ``token_hash is None``, ``bot`` = its level;
- a takeover pending: ``token_hash`` set *and* ``bot`` set; the bot finishes the deal,
  the person plays from the next one (``takeover``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .codes import hash_token, token_matches
from .frames import SeatInfo
from .records import SeatData


@dataclass
class Seat:
    index: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    away: bool = False
    ready: bool = False
    again: bool = False       # match over: this person said "Play again"

    @property
    def human(self) -> bool:
        return self.token_hash is not None

    @property
    def takeover(self) -> bool:
        return self.token_hash is not None and self.bot is not None

    @property
    def player_name(self) -> str:
        """The name of whoever plays the seat now (a pending person is not playing yet)."""
        return self.name if self.name and not self.bot else f"Bot {self.index + 1}"

    def copy(self, **changes: object) -> Seat:
        """This seat with ``changes`` (seats are replaced, never edited, once logged)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def claimed(self, name: str, token: str) -> Seat:
        """This seat taken by a person, who holds ``token`` (a new one: only its hash is
        kept)."""
        return replace(self, name=name, token_hash=hash_token(token), away=False,
                       ready=False, again=False)

    def holds(self, token: str) -> bool:
        """Whether ``token`` is this seat's."""
        return token_matches(token, self.token_hash)

    def info(self, connected: bool, host: bool, started: bool) -> SeatInfo:
        """The public description: never the token hash."""
        if self.human and not self.takeover:
            name: str | None = self.name
        else:  # a pending person is not playing yet: the bot that plays it now shows
            name = f"Bot {self.index + 1}" if started else None
        return {
            "seat": self.index,
            "name": name,
            "bot": self.bot,
            "human": self.human,
            "connected": connected,
            "away": self.away,
            "host": host,
            "ready": self.ready,
            "takeover": self.takeover,
            "joining": self.name if self.takeover else None,
            "again": self.again,
        }

    def to_data(self) -> SeatData:
        return SeatData(name=self.name, token_hash=self.token_hash, bot=self.bot,
                        away=self.away, ready=self.ready, again=self.again)

    @classmethod
    def from_data(cls, index: int, data: SeatData) -> Seat:
        return cls(index, data.name, data.token_hash, data.bot, data.away, data.ready,
                   data.again)
