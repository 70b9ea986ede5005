"""The list of every wire type and enum, and docs/protocol.md's tables generated from them.

``python -m app.rooms.contract_gen`` rewrites the part of docs/protocol.md between the
``frames:begin`` and ``frames:end`` markers (with the JSON Schema and the client's
``protocol.js``); ``--check`` exits 1 if anything differs (the tests run the same
comparison).  A field's meaning is its comment in the class body, so
the declaration and its documentation are one text.
"""

from __future__ import annotations

import inspect
import re
import sys
import typing
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pydantic import BaseModel

from app.bot_levels import BotLevel
from app.clubs import wire as club_wire
from app.double_dummy import DoubleDummySkipped
from app.rules import replay_steps, wire
from app.rules.errors import Refusal
from app.rules.outcomes import AllPassedOutcome, Outcome, VoidReason
from app.rules.phases import Phase

from .core import frames, messages, wire_enums

BEGIN, END = "<!-- frames:begin -->", "<!-- frames:end -->"
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_FIELD = re.compile(r"^\s+(\w+): ([^#]+?)\s*(?:#\s*(.*))?$")

SECTIONS: list[tuple[str, list[type]]] = [
    ("Client to server (WebSocket)", [
        messages.Hello, messages.ActionMessage, messages.Start, messages.RulesMessage,
        messages.SeatBot, messages.SettingsMessage, messages.Ready, messages.ChatIn,
        messages.React, messages.ReviewAsk, messages.Rematch, messages.Again,
        messages.BackToLobby, messages.Leave, messages.Ping]),
    ("Server to client (WebSocket)", [
        frames.StateFrame, frames.WelcomeFrame, frames.ErrorFrame, frames.HintFrame,
        frames.ReviewFrame, frames.Review, frames.ReviewDecision, frames.ReviewFailed,
        frames.PongFrame]),
    ("The view", [
        frames.View, wire.ContractWire, wire.TrickCard, wire.LastTrick, wire.AuctionEntry,
        wire.ResultWire, frames.RoomInfo, frames.SeatInfo, frames.RoomSettings, frames.Clock,
        frames.ChatLine, frames.MatchSummary]),
    ("Game events (in `events`)", [
        wire.DealStartedWire, wire.BidWireEvent, wire.AuctionWonWire, wire.AllPassedWire,
        wire.KittyShownWire, wire.KittyTakenWire, wire.DiscardedWire, wire.ContractSetWire,
        wire.CardPlayedWire, wire.PartnerRevealedWire, wire.TrickWonWire, wire.DealVoidWire,
        wire.DealScoredWire, wire.MatchEndedWire]),
    ("Room events (in `events`)", [
        frames.ChatEvent, frames.SeatTaken, frames.SeatEvent, frames.HostChanged,
        frames.MatchStarted]),
    ("HTTP bodies and answers", [
        messages.CreateRoomBody, messages.JoinBody, frames.CreatedRoom, frames.JoinedRoom,
        frames.PublicRoom, frames.HttpErrorBody, frames.HttpError]),
    ("Players and clubs (HTTP)", [
        club_wire.PlayerBody, club_wire.ClaimBody, club_wire.ClubBody, club_wire.ClubChangeBody,
        club_wire.JoinClubBody, club_wire.PlayerKey, club_wire.PlayerInfo,
        club_wire.ClubRef, club_wire.TableRef, club_wire.DeviceCode, club_wire.ClubCreated,
        club_wire.ClubPage,
        club_wire.ClubMember, club_wire.SeasonInfo, club_wire.StandingsRow,
        club_wire.Rating, club_wire.LevelRating, club_wire.ClubMatch, club_wire.DealPar,
        club_wire.MatchSeat,
        club_wire.InviteRenewed, club_wire.SeasonOpened, club_wire.PlayerExport]),
    ("Replaying a deal (HTTP)", [
        replay_steps.DealReplay, replay_steps.ReplayStep, replay_steps.ReplayDealLine]),
]
# The closed sets of words and numbers (the enums); bot levels are app.bots' names.
ENUMS: list[type[Enum]] = [
    Phase, Outcome, VoidReason, AllPassedOutcome, wire_enums.BotPace, wire_enums.Reaction,
    wire_enums.ChatKind, wire_enums.SeatEventKind, wire_enums.TableLine, wire_enums.CountdownKind,
    wire_enums.ErrorCode, Refusal, wire_enums.CloseCode, BotLevel, DoubleDummySkipped]


@dataclass(frozen=True)
class EnumDoc:
    """One enum as the generated files show it: members in order, each with its comment."""

    name: str
    doc: str
    members: list[tuple[str, str | int, str]]  # (NAME, wire value, meaning)


def enum_docs() -> list[EnumDoc]:
    """Every enum of the protocol."""
    out = []
    for enum in ENUMS:
        comments = _member_comments(enum)
        doc = inspect.cleandoc(enum.__dict__.get("__doc__") or "")
        out.append(EnumDoc(enum.__name__, doc.replace("\n", " ").replace("``", "`"),
                           [(m.name, m.value, comments.get(m.name, "")) for m in enum]))
    return out


_MEMBER = re.compile(r"^\s+([A-Z][A-Z0-9_]*) = [^#]+?(?:#\s*(.*))?$")


def _member_comments(enum: type[Enum]) -> dict[str, str]:
    found = {}
    for line in inspect.getsource(enum).splitlines()[1:]:
        m = _MEMBER.match(line)
        if m:
            found[m.group(1)] = m.group(2) or ""
    return found


_LIMIT = re.compile(r'^\s+"(\w+)": .*?#\s*(.*)$')


def limit_comments() -> dict[str, str]:
    """Each of ``wire_enums.LIMITS``'s keys with its comment."""
    found = {}
    for line in inspect.getsource(wire_enums).splitlines():
        m = _LIMIT.match(line)
        if m:
            found[m.group(1)] = m.group(2).replace("``", "`")
    return found


def comments(cls: type) -> dict[str, tuple[str, str]]:
    """Each field's written type and comment, from every class in ``cls``'s bases."""
    found: dict[str, tuple[str, str]] = {}
    source = getattr(cls, "__fields_from__", None)  # fields derived from that class's
    if source is not None:
        found = {name: (kind.removesuffix(" | None"), meaning)
                 for name, (kind, meaning) in comments(source).items()}
        for name, kind in vars(cls).get("__annotations__", {}).items():
            found.setdefault(name, (repr(kind), ""))  # its own keys after them
    for klass in reversed(cls.__mro__):
        # a class made by a call (TypedDict's functional form) has no source to read
        if klass.__module__.startswith(("app.",)) and "__fields_from__" not in vars(klass):
            for line in inspect.getsource(klass).splitlines()[1:]:
                m = _FIELD.match(line)
                if m and not line.strip().startswith(("def ", "model_config")):
                    found[m.group(1)] = (m.group(2).split(" = ")[0].strip(), m.group(3) or "")
    return found


def _fields(cls: type) -> list[str]:
    if isinstance(cls, type) and issubclass(cls, BaseModel):
        return list(cls.model_fields)
    return list(typing.get_type_hints(cls, include_extras=True))


def _table(cls: type) -> list[str]:
    doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")
    out = [f"#### `{cls.__name__}`", ""]
    if doc:
        out += [doc.replace("\n", " "), ""]
    written = comments(cls)
    out += ["| field | type | meaning |", "|---|---|---|"]
    for name in _fields(cls):
        kind, meaning = written.get(name, ("", ""))
        kind = kind.replace("|", "\\|")
        out.append(f"| `{name}` | `{kind}` | {meaning} |")
    return [*out, ""]


def _enum_table(enum: EnumDoc) -> list[str]:
    out = [f"#### `{enum.name}`", ""]
    if enum.doc:
        out += [enum.doc, ""]
    out += ["| name | value | meaning |", "|---|---|---|"]
    for name, value, meaning in enum.members:
        shown = f"`{value}`" if isinstance(value, int) else f'`"{value}"`'
        out.append(f"| `{name}` | {shown} | {meaning.replace('``', '`')} |")
    return [*out, ""]


def generate() -> str:
    lines = [BEGIN, "", "*Generated by `python -m app.rooms.contract_gen` from "
             "`app/rooms/core/frames.py`, `app/rooms/core/messages.py`, "
             "`app/rooms/core/wire_enums.py`, `app/rules/wire.py`, `app/rules/phases.py` and "
             "`app/rules/outcomes.py`; do not edit by hand.*", ""]
    for title, classes in SECTIONS:
        lines += [f"### {title}", ""]
        for cls in classes:
            lines += _table(cls)
    lines += ["### Enums", "", "The client has each as a frozen object of "
              "`app/static/js/protocol.js` (`Phase.AUCTION === \"auction\"`).", ""]
    for enum in enum_docs():
        lines += _enum_table(enum)
    lines += ["#### Turn times and limits", "",
              f"`TURN_SECONDS`: {', '.join(map(str, wire_enums.TURN_SECONDS))} (0: no limit).",
              "", "| `LIMITS` | value | meaning |", "|---|---|---|"]
    meanings = limit_comments()
    lines += [f"| `{name}` | {value} | {meanings.get(name, '')} |"
              for name, value in wire_enums.LIMITS.items()]
    lines += ["", END]
    return "\n".join(lines)


def render(text: str) -> str:
    """``text`` (docs/protocol.md) with its generated part brought up to date."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + generate() + text[end:]


def main(argv: list[str]) -> int:
    text = DOC.read_text()
    new = render(text)
    if "--check" in argv:
        if new != text:
            print("docs/protocol.md is out of date: run python -m app.rooms.contract_gen",
                  file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
