"""People in lock step, plus a spectator, on a real server, and the oracle that knows
the hidden facts: the server's own match (read between steps, while the room is still)
says what each seat may know (docs/spec/RULES.md, docs/spec/PROTOCOL.md), and ``check_view`` and
``check_events`` hold every view and event a connection receives to it.

``LockstepTable`` seats one person a seat and a spectator, and plays the match a step at
a time: after each step every connection has its one state frame, and ``on_step`` may
look at the room (test_lockstep.py its frames, test_http_leaks.py its HTTP answers)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from rooms_harness import Client, ServerThread, create_room, join_room, pick_action
from shared_helpers import HTTP, card_ids_in

from app.rooms.core.frames import frame_adapter
from app.rooms.core.room_core import RoomCore
from app.rules import Match
from app.rules.cards import CARD_IDS, ids_of
from app.rules.deal import AUCTION, DealState

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def public_cards(deal: DealState) -> set[str]:
    """The cards of ``deal`` everyone may know now: played, or the called card."""
    public = {CARD_IDS[c] for _, cards, _ in deal.tricks for c in cards}
    public |= {CARD_IDS[c] for c in deal.trick_cards}
    if deal.called is not None:
        public.add(CARD_IDS[deal.called])
    return public


def partner_known(deal: DealState, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator, or nobody's token) may know the partner."""
    return deal.partner_revealed or (seat is not None and seat == deal.partner)


def check_view(view: dict[str, Any], seat: int | None, match: Match) -> None:
    """``view`` holds exactly what ``seat`` may know of ``match`` now."""
    deal = match.deal
    assert deal is not None
    assert view["you"] == seat
    assert view["phase"] == match.phase and view["turn"] == match.turn
    assert view["hand_counts"] == [h.bit_count() for h in deal.hands]
    if seat is None:
        assert view["hand"] == [] and view["legal"] == []
    else:
        assert sorted(view["hand"]) == sorted(ids_of(deal.hands[seat]))
        assert view["legal"] == [a.to_json() for a in match.legal_actions(seat)]
    kitty_visible = deal.kitty_shown or (seat is not None and seat == deal.bidder
                                         and deal.phase != AUCTION)
    if kitty_visible and deal.kitty:
        assert sorted(view["kitty"]) == sorted(ids_of(deal.kitty))
    else:
        assert view["kitty"] is None
    if seat is not None and seat == deal.bidder and deal.discards:
        assert sorted(view["discards"]) == sorted(ids_of(deal.discards))
    else:
        assert view["discards"] is None
    contract = view["contract"]
    if contract is not None:
        assert contract["bidder"] == deal.bidder
        if partner_known(deal, seat):
            assert contract["partner"] == deal.partner
        else:
            assert contract["partner"] is None, "the partner shows before the called card"
    assert view.get("you_are_partner", False) == (seat is not None and seat == deal.partner)
    # every other card named anywhere must be public: played, or the called card
    public = public_cards(deal)
    named: list[str] = []
    for key, value in view.items():
        if key not in ("hand", "legal", "kitty", "discards"):
            named += card_ids_in(value)
    leaked = set(named) - public
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"


def check_events(events: list[dict[str, Any]], seat: int | None, match: Match,
                 seen: Counter[str]) -> None:
    """Every card an event names is public (played, called, a shown kitty) or the
    recipient's own (its hand; the bidder's kitty and discards); the kitty's and the
    discards' cards go to the bidder alone."""
    deal = match.deal
    assert deal is not None
    public = public_cards(deal)
    if deal.kitty_shown:
        public |= set(ids_of(deal.kitty))
    own: set[str] = set()
    bidder = seat is not None and seat == deal.bidder
    if seat is not None:
        own = set(ids_of(deal.dealt[seat])) | set(ids_of(deal.hands[seat]))
    if bidder:
        own |= set(ids_of(deal.kitty)) | set(ids_of(deal.discards))
    for event in events:
        seen[event["type"]] += 1
        leaked = set(card_ids_in(event)) - public - own
        assert not leaked, f"seat {seat} hears of {sorted(leaked)} in {event}"
        if event["type"] in ("kitty_taken", "discarded"):
            assert ("cards" in event) == bidder, (seat, event)
            if bidder:
                seen[event["type"] + " with cards"] += 1


def keyed_post(url: str, key: str, body: dict[str, Any]) -> dict[str, Any]:
    """A room made or joined with a player's key (``Authorization: Bearer K``)."""
    r = HTTP.post(url, json=body, headers={"Authorization": f"Bearer {key}"})
    assert r.status_code in (200, 201), r.text
    answer: dict[str, Any] = r.json()
    return answer


class LockstepTable:
    """A room of the server with a person in every seat and a spectator, played in lock
    step: each step is one change, and every connection has its frame before the next."""

    def __init__(self, server: ServerThread, rules: dict[str, Any], seed: int,
                 keys: list[str] | None = None, club: str | None = None) -> None:
        """``keys``: the players' keys, seat by seat, to create and join with (the room
        is then ``club``'s, if given: docs/clubs.md)."""
        base = server.base
        if keys is None:
            room = create_room(base, rules=rules)
        else:
            room = keyed_post(base + "/api/rooms", keys[0], {"name": NAMES[0],
                                                            "rules": rules, "club": club})
        self.code: str = room["room"]
        live: RoomCore = server.registry.rooms[self.code].core
        self.live = live
        n = len(live.state.seats)
        if keys is None:
            self.tokens: list[str] = [room["token"]] + [
                join_room(base, self.code, name)["token"] for name in NAMES[1:n]]
        else:
            self.tokens = [room["token"]] + [
                keyed_post(f"{base}/api/rooms/{self.code}/join", key, {"name": name})["token"]
                for name, key in zip(NAMES[1:n], keys[1:n], strict=True)]
        self.people = [Client(base, self.code, token=t) for t in self.tokens]
        self.watcher = Client(base, self.code, spectate=True)
        self.everyone = [*self.people, self.watcher]
        self.rng = random.Random(seed)
        self.seen: Counter[str] = Counter()
        self.steps = 0  # game actions taken
        for c in self.everyone:  # catch up with the connections that came after
            def caught_up(_view: dict[str, Any], c: Client = c) -> bool:
                return bool(c.version == live.version)
            c.wait_state(caught_up)

    @property
    def match(self) -> Match:
        match = self.live.match
        assert match is not None
        return match

    def step(self, send: Callable[[], None]) -> None:
        """``send`` one message that changes the room; every connection gets its state
        frame, each checked by the oracle."""
        expected = self.live.version + 1
        send()
        frames = []
        for c in self.everyone:
            msg = c.wait_for(lambda m: m["type"] in ("state", "error"))
            assert msg["type"] == "state", msg
            assert msg["version"] == expected, "one change, one state frame"
            assert msg["game"] == self.live.state.game
            frames.append(msg)
        for c, msg in zip(self.everyone, frames, strict=True):
            assert c.state is not None
            check_view(c.state, c.seat, self.match)
            check_events(msg["events"], c.seat, self.match, self.seen)

    def play(self, done: Callable[[Match], bool],
             on_step: Callable[[], None] = lambda: None,
             on_call: Callable[[dict[str, Any]], None] = lambda _a: None) -> None:
        """Play (random legal actions, everyone ready between deals) until ``done``;
        ``on_step`` after every step, ``on_call`` after a discard or call."""
        while not done(self.match):
            match = self.match
            if match.phase == "deal_over":
                for p in self.people:
                    self.step(partial(p.send, {"type": "ready"}))
                    on_step()
                continue
            turn = match.turn
            assert turn is not None
            actor = self.people[turn]
            assert actor.state is not None
            action = pick_action(actor.state, self.rng)
            self.step(partial(actor.act, action))
            self.steps += 1
            on_step()
            if "discard" in action or "call" in action:
                on_call(action)

    def start(self) -> None:
        self.step(lambda: self.people[0].send({"type": "start"}))


def every_frame_valid(clients: list[Client]) -> bool:
    """Every frame every client received, validated once more (extra keys forbidden)."""
    for c in clients:
        for frame in c.frames:
            frame_adapter.validate_python(frame)
    return True
