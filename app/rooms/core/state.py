"""A room's lasting state and its log: every change is one entry, and replaying the
entries rebuilds the room exactly.

Each method below is the only way its part of the state changes, and it records the
entry that says so; ``replay`` calls the same methods for stored entries.  So a room
rebuilt from its log is by construction the room that wrote it.  Entries are small JSON
objects with a kind ``k``; game entries use the game record's shapes:

| k | fields | what |
|---|---|---|
| `room` | the whole room but its match | a checkpoint: at creation and before each match |
| `match` | `dealer` | a new match, its first dealer |
| `deal` | `dealer`, `hands`, `kitty` | a deal as dealt (GAME-RECORD.md) |
| `act` | `seat` and the action | a game action (GAME-RECORD.md) |
| `seat` | `seat`, `data` | a seat's holder, bot level, away and ready flags |
| `rules`, `settings`, `host`, `chat`, `history` | | the room around it |
| `next_deal_at`, `recorded`, `lobby` | | between deals, a match's record kept, back to the lobby |

``game`` counts the match's entries (``match``, ``deal``, ``act``): the number actions name.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

from app.bots import BEST_BOT
from app.rules import Action, Event, Match, RuleSet, parse_action
from app.rules.cards import ids_of, mask_of_ids

from .frames import ChatLine, MatchSummary
from .seats import Seat

Entry = dict[str, Any]
CHAT_KEEP = 50
HISTORY_KEEP = 10
SETTINGS_DEFAULTS: dict[str, Any] = {"turn_seconds": 0, "bot_pace": "normal",
                                     "spectator_chat": True}
GAME_KINDS = frozenset({"match", "deal", "act"})


class RestoreError(ValueError):
    """Stored entries that do not replay (a damaged database, or a bug)."""


class RoomState:
    """Seats, rules, settings, chat and the match of one room, and its log position."""

    def __init__(self, code: str, rules: RuleSet, practice: bool, grace_seconds: int,
                 next_deal_pause: int, rng: random.Random) -> None:
        self.code = code
        self.rules = rules
        self.practice = practice
        self.seats = [Seat(i, bot=BEST_BOT) for i in range(rules.options.players)]
        self.host: int | None = 0
        self.grace_seconds = grace_seconds
        self.next_deal_pause = next_deal_pause
        self.turn_seconds: int = SETTINGS_DEFAULTS["turn_seconds"]
        self.bot_pace: str = SETTINGS_DEFAULTS["bot_pace"]
        self.spectator_chat: bool = SETTINGS_DEFAULTS["spectator_chat"]
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_KEEP)
        self.history: deque[MatchSummary] = deque(maxlen=HISTORY_KEEP)
        self.match: Match | None = None
        self.match_number = 0
        self.recorded_match = 0          # the last match whose record is stored
        self.next_deal_at: float | None = None
        self.rng = rng                   # the shuffle's source (secrets in production)
        self.seq = 0                     # entries in the log so far (the next one's number)
        self.game = 0                    # entries of the match so far
        self.pending: list[Entry] = []   # entries made since the last ``take_pending``

    # -- the log ----------------------------------------------------------------------

    def _record(self, entry: Entry) -> None:
        self.pending.append(entry)
        self.seq += 1
        if entry["k"] in GAME_KINDS:
            self.game += 1

    def take_pending(self) -> list[Entry]:
        entries, self.pending = self.pending, []
        return entries

    @classmethod
    def replay(cls, entries: Sequence[Entry], first_seq: int,
               rng: random.Random) -> RoomState:
        """The room whose log from its last checkpoint (entry ``first_seq``) is ``entries``."""
        if not entries or not isinstance(entries[0], dict) or entries[0].get("k") != "room":
            raise RestoreError("the stored log does not start with a checkpoint")
        i = 0  # the entry being replayed, for the message
        try:
            state = cls.from_checkpoint(entries[0], rng)
            state.seq = first_seq + 1
            for i in range(1, len(entries)):
                state._replay_one(entries[i])
        except RestoreError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError,
                AssertionError) as exc:  # RulesetError and ActionError are ValueErrors
            kind = entries[i].get("k") if isinstance(entries[i], dict) else None
            raise RestoreError(f"entry {first_seq + i} ({kind}): {exc}") from exc
        state.pending = []
        return state

    def _replay_one(self, entry: Entry) -> None:
        kind = entry["k"]
        if kind == "act":
            self.act(int(entry["seat"]), parse_action(
                {k: v for k, v in entry.items() if k not in ("k", "seat")}))
        elif kind == "deal":
            if self.match is None or self.match.dealer != entry["dealer"]:
                raise RestoreError(f"a deal by seat {entry['dealer']} out of turn")
            self.deal([mask_of_ids(h) for h in entry["hands"]], mask_of_ids(entry["kitty"]))
        elif kind == "seat":
            self.set_seat(Seat.from_data(int(entry["seat"]), entry["data"]))
        elif kind == "match":
            self.new_match(int(entry["dealer"]))
        elif kind == "chat":
            self.add_chat({"seat": entry["seat"], "name": entry["name"],
                           "text": entry["text"], "at": entry["at"],
                           "kind": entry.get("kind", "text")})
        elif kind == "ready":
            self.set_ready(int(entry["seat"]))
        elif kind == "next_deal_at":
            self.set_next_deal_at(entry["at"])
        elif kind == "host":
            self.set_host(entry["seat"])
        elif kind == "rules":
            self.set_rules(RuleSet.shared(entry["rules"]))
        elif kind == "settings":
            self.set_settings({k: v for k, v in entry.items() if k != "k"})
        elif kind == "recorded":
            self.set_recorded(int(entry["match"]))
        elif kind == "history":
            self.add_history(entry["match"])
        elif kind == "lobby":
            self.back_to_lobby()
        else:
            raise RestoreError(f"unknown entry kind {kind!r}")

    # -- checkpoints ------------------------------------------------------------------

    def checkpoint(self) -> None:
        """Record the whole room but its match (which is then ``None``): the log before
        this entry is no longer needed."""
        self.match = None
        # This step's earlier entries (a seat's "again" before the match it starts) are
        # in the checkpoint: dropped, so that the save starts with it and the store moves
        # its checkpoint here (a checkpoint after other entries would not replay).
        self.seq -= len(self.pending)
        self.pending = []
        self._record({
            "k": "room", "code": self.code, "practice": self.practice,
            "rules": self.rules.to_json(), "seats": [s.to_data() for s in self.seats],
            "host": self.host, "grace_seconds": self.grace_seconds,
            "next_deal_pause": self.next_deal_pause, "turn_seconds": self.turn_seconds,
            "bot_pace": self.bot_pace, "spectator_chat": self.spectator_chat,
            "chat": list(self.chat), "history": list(self.history),
            "match_number": self.match_number, "recorded_match": self.recorded_match,
            "game": self.game,
        })

    @classmethod
    def from_checkpoint(cls, data: Entry, rng: random.Random) -> RoomState:
        state = cls(str(data["code"]), RuleSet.shared(data["rules"]), bool(data["practice"]),
                    int(data["grace_seconds"]), int(data["next_deal_pause"]), rng)
        state.seats = [Seat.from_data(i, s) for i, s in enumerate(data["seats"])]
        state.host = data["host"]
        for key, default in SETTINGS_DEFAULTS.items():
            setattr(state, key, data.get(key, default))
        state.chat.extend({"seat": line["seat"], "name": line["name"], "text": line["text"],
                           "at": line["at"], "kind": line.get("kind", "text")}
                          for line in data["chat"])
        state.history.extend(data.get("history", []))
        state.match_number = int(data["match_number"])
        state.recorded_match = int(data["recorded_match"])
        state.game = int(data["game"])
        return state

    # -- the match --------------------------------------------------------------------

    def new_match(self, dealer: int) -> None:
        self.match = Match(self.rules, self.rng, first_dealer=dealer, auto_redeal=False)
        self.match_number += 1
        for seat in self.seats:
            seat.again = False
        self._record({"k": "match", "dealer": dealer})

    def back_to_lobby(self) -> None:
        """After a match: no match, the same seats; rules and bots may change again."""
        self.match = None
        for seat in self.seats:
            seat.again = seat.ready = False
        self.next_deal_at = None
        self._record({"k": "lobby"})

    def deal(self, hands: list[int] | None = None, kitty: int = 0) -> list[Event]:
        """The next deal: shuffled now, or these cards (a replay)."""
        match = self.match
        assert match is not None
        events = match.start_deal(hands, kitty)
        deal = match.deals[-1]
        for seat in self.seats:
            seat.ready = False
        self.next_deal_at = None
        self._record({"k": "deal", "dealer": deal.dealer,
                      "hands": [ids_of(h) for h in deal.dealt], "kitty": ids_of(deal.kitty)})
        return events

    def act(self, seat: int, action: Action) -> list[Event]:
        """A game action; the engine raises (and nothing changes) if it is not allowed."""
        assert self.match is not None
        events = list(self.match.apply(seat, action))
        self._record({"k": "act", "seat": seat, **action.to_json()})
        return events

    # -- the room ---------------------------------------------------------------------

    def set_seat(self, seat: Seat) -> None:
        self.seats[seat.index] = seat
        self._record({"k": "seat", "seat": seat.index, "data": seat.to_data()})

    def set_ready(self, seat: int) -> None:
        self.seats[seat].ready = True
        self._record({"k": "ready", "seat": seat})

    def set_next_deal_at(self, at: float | None) -> None:
        self.next_deal_at = at
        self._record({"k": "next_deal_at", "at": at})

    def set_host(self, seat: int | None) -> None:
        self.host = seat
        self._record({"k": "host", "seat": seat})

    def set_rules(self, rules: RuleSet) -> None:
        """New rules (lobby); seats beyond the new player count go, new ones get bots."""
        n = rules.options.players
        seats = self.seats[:n]
        seats.extend(Seat(i, bot=BEST_BOT) for i in range(len(seats), n))
        self.seats = seats
        self.rules = rules
        self._record({"k": "rules", "rules": rules.to_json()})

    def set_settings(self, changes: dict[str, Any]) -> None:
        """Change these settings (``grace_seconds``, ``next_deal_pause``,
        ``turn_seconds``, ``bot_pace``, ``spectator_chat``)."""
        for key, value in changes.items():
            if key not in SETTINGS_DEFAULTS and key not in ("grace_seconds", "next_deal_pause"):
                raise KeyError(f"no setting {key!r}")
            setattr(self, key, value)
        self._record({"k": "settings", **changes})

    def add_chat(self, line: ChatLine) -> None:
        self.chat.append(line)
        self._record({"k": "chat", **line})

    def add_history(self, summary: MatchSummary) -> None:
        self.history.append(summary)
        self._record({"k": "history", "match": summary})

    def set_recorded(self, match_number: int) -> None:
        self.recorded_match = match_number
        self._record({"k": "recorded", "match": match_number})
