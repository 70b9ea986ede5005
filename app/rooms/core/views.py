"""What each connection is sent: the engine's seat view plus the room around the game,
and what happened since the last state, as that connection may know it.

The game part is always ``SeatView(match, seat).to_wire()`` and the game events always
pass ``events_for`` with the same seat: one filter per recipient, nothing sent unfiltered.
Connections that see the same thing (same seat, or spectators) share one frame.
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from app.bot_levels import BOT_LEVELS
from app.rules import Match, Phase, RuleSet, SeatView
from app.rules.outcomes import Outcome
from app.rules.wire import BIDDER_HEARS, WireView, events_for

from .effects import Send
from .frames import (
    Clock,
    Event,
    JsonObject,
    MatchSummary,
    PublicRoom,
    RoomInfo,
    RoomSettings,
    SeatInfo,
    StateFrame,
    View,
)
from .host_settings import ROOM_SETTINGS
from .lobby import joinable_seats
from .records import Seat
from .state import Happening, RoomState, Runtime, controller
from .wire_enums import CountdownKind


@lru_cache(maxsize=64)
def _lobby_wire(rules: RuleSet, seat: int | None) -> tuple[tuple[str, object], ...]:
    view = SeatView(Match(rules, first_dealer=0), seat).to_wire()
    view.update({"phase": Phase.LOBBY, "turn": None, "dealer": None, "deal_number": 0})
    return tuple(view.items())


@lru_cache(maxsize=256)
def rules_json(rules: RuleSet) -> JsonObject:
    """A rule set's wire form, made once per rule set (every frame carries it; never
    changed once made)."""
    return rules.to_json()


@lru_cache(maxsize=256)
def rules_resolved(rules: RuleSet) -> JsonObject:
    return rules.resolved()


def game_view(state: RoomState, rt: Runtime, seat: int | None,
              public: WireView | None = None) -> WireView:
    """The game part of the view for ``seat`` (``None``: the public view); ``public``,
    the public view of this moment if already built, is shared."""
    match = state.match
    if match is None:
        return {k: (list(v) if isinstance(v, list) else v)  # type: ignore[return-value]
                for k, v in _lobby_wire(state.rules, seat)}
    return SeatView(match, seat).to_wire(public, rt.wire_memo)


def seat_info(s: Seat, connected: bool, host: bool, started: bool) -> SeatInfo:
    """A seat as everyone sees it: never the token hash."""
    if s.human and not s.takeover:
        name: str | None = s.name
    else:  # a pending person is not playing yet: the bot that plays it now shows
        name = f"Bot {s.index + 1}" if started else None
    return {
        "seat": s.index,
        "name": name,
        "bot": s.bot,
        "human": s.human,
        "connected": connected,
        "away": s.away,
        "host": host,
        "ready": s.ready,
        "takeover": s.takeover,
        "joining": s.name if s.takeover else None,
        "again": s.again,
        "from_deal": s.from_deal,
    }


def reviewable(match: Match | None) -> list[int]:
    """The match's deals a review can be asked of (reviews.py): finished and played,
    not void."""
    if match is None:
        return []
    return [i for i, deal in enumerate(match.deals)
            if deal.over and deal.outcome != Outcome.VOID]


def history_for(state: RoomState, seat: int | None) -> list[MatchSummary]:
    """``view.room.history`` for a connection holding ``seat`` (``None``: a spectator):
    an earlier match's ``reviewable`` deals are offered only to the person who held that
    seat when it ended, the one the room lets ask for them (reviews.py; anyone else is
    refused ``not_your_match``): for anyone else the list is empty, so that the client
    offers no review it would be refused.  (A match logged before reviews of earlier
    matches has no list, and keeps none.)"""
    out = []
    for summary in state.history:
        holders = state.holders.get(summary["number"])
        held = (seat is not None and holders is not None and seat < len(holders)
                and holders[seat] is not None and holders[seat] == state.seats[seat].token_hash)
        out.append(summary if held or "reviewable" not in summary
                   else {**summary, "reviewable": []})
    return out


def seats_info(state: RoomState, rt: Runtime) -> list[SeatInfo]:
    """Every seat as everyone sees it."""
    connected = rt.connected_seats()
    started = state.match is not None
    return [seat_info(s, s.index in connected, s.index == state.host, started)
            for s in state.seats]


def room_settings(state: RoomState) -> RoomSettings:
    """The host's settings as the room shows them, every one of ``ROOM_SETTINGS`` (a cast:
    the frame's type is checked against what is sent by tests/rooms/test_contract.py)."""
    settings = {name: getattr(state, name) for name in ROOM_SETTINGS}
    return cast("RoomSettings", {**settings, "bot_levels": list(BOT_LEVELS)})


def room_info(state: RoomState, rt: Runtime) -> RoomInfo:
    """``view.room`` for nobody in particular (the two per-connection keys unset)."""
    return {
        "code": state.code,
        "practice": state.practice,
        "host": state.host,
        "you_are_host": False,
        "your_seat": None,
        "seats": seats_info(state, rt),
        "spectators": rt.spectator_count(),
        "rules": rules_json(state.rules),
        "rules_resolved": rules_resolved(state.rules),
        "settings": room_settings(state),
        "next_deal_at": state.next_deal_at,
        "clock": clock(state, rt),
        "chat": list(state.chat),
        "match_number": state.match_number,
        "record_available": state.recorded_match > 0,
        "history": history_for(state, None),  # (each connection's: state_sends)
        "reviewable": reviewable(state.match),
        "stood_in": [],  # (each connection's own: state_sends)
    }


def clock(state: RoomState, rt: Runtime) -> Clock | None:
    """The seat being waited for against a clock: a dropped person's grace, or the turn
    timer of a connected one."""
    match = state.match
    turn = None if match is None else match.turn
    if turn is None:
        return None
    grace = rt.grace.get(turn)
    if grace is not None:
        return {"seat": turn, "until": grace, "kind": CountdownKind.GRACE}
    timer = rt.turn_clock
    if timer is not None and timer[0] == state.game and controller(state, turn) is None:
        return {"seat": turn, "until": timer[1], "kind": CountdownKind.TURN}
    return None


def events_seen(happened: list[Happening], seat: int | None,
                public: list[Event] | None = None) -> list[Event]:
    """The step's happenings as ``seat`` (``None``: a spectator) may hear them;
    ``public``, a spectator's list of the same step if already made, is shared by every
    seat that hears nothing more (all but a bidder hearing the cards of the kitty it took
    or of its discards, in the step that took or discarded them)."""
    if public is not None and (seat is None or not any(
            isinstance(item, tuple) and item[0] is not None and item[0].bidder == seat
            and any(e.kind in BIDDER_HEARS for e in item[1]) for item in happened)):
        return public
    out: list[Event] = []
    for item in happened:
        if isinstance(item, tuple):
            deal, events = item
            out.extend(events_for(events, deal, seat))
        else:
            out.append(item)
    return out


def state_sends(state: RoomState, rt: Runtime, happened: list[Happening]) -> list[Send]:
    """Every connection's state frame: one per distinct (seen seat, own seat)."""
    groups: dict[tuple[int | None, int | None], list[int]] = {}
    for conn_id, conn in rt.conns.items():
        # the seat whose cards a connection may see (not a pending takeover's)
        seat = conn.seat
        seen = None if seat is None or state.seats[seat].takeover else seat
        groups.setdefault((seen, seat), []).append(conn_id)
    if not groups:
        return []
    info = room_info(state, rt)
    host = state.host
    public = game_view(state, rt, None)  # what every seat's view shares, built once
    public_events = events_seen(happened, None)
    sends: list[Send] = []
    histories: dict[int | None, list[MatchSummary]] = {None: info["history"]}
    for (view_seat, own_seat), conns in groups.items():
        game = game_view(state, rt, view_seat, public)  # a seat's is a copy of ``public``
        view = cast(View, public.copy() if game is public else game)  # public: shared
        if own_seat not in histories:
            histories[own_seat] = history_for(state, own_seat)
        view["room"] = {**info, "you_are_host": own_seat is not None and own_seat == host,
                        "your_seat": own_seat, "history": histories[own_seat],
                        "stood_in": list(rt.stood_in.get(own_seat, []))
                        if own_seat is not None else []}
        frame: StateFrame = {"type": "state", "version": rt.version, "game": state.game,
                             "events": events_seen(happened, view_seat, public_events),
                             "view": view}
        sends.append(Send(tuple(conns), frame))
    return sends


def public_room(state: RoomState, rt: Runtime) -> PublicRoom:
    """``GET /api/rooms/{code}``."""
    match = state.match
    return {
        "room": state.code,
        "phase": Phase.LOBBY if match is None else match.phase,
        "practice": state.practice,
        "version": rt.version,
        "game": state.game,
        "host": state.host,
        "seats": seats_info(state, rt),
        "spectators": rt.spectator_count(),
        "rules": rules_json(state.rules),
        "rules_resolved": rules_resolved(state.rules),
        "match_number": state.match_number,
        "joinable": joinable_seats(state),
    }


def show_all(state: RoomState) -> None:
    """Build every view of ``state`` once, and drop them: raises what a damaged room's
    first visitor would meet (``RoomCore.restore``)."""
    rt = Runtime(version=state.seq)  # not the room's: its memo stays empty
    public_room(state, rt)
    room_info(state, rt)
    public = game_view(state, rt, None)
    for seat in range(len(state.seats)):
        game_view(state, rt, seat, public)
