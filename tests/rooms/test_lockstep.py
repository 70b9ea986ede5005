"""Four people in lock step, plus a spectator: every frame each of them receives is
validated against the protocol's models with extra fields forbidden (the harness does it
for every frame), and its view and every event in it are checked against what that seat
may know (RULES.md, PROTOCOL.md), with the server's own match as the ground truth (read
between steps, while the room is still)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from rooms_harness import Client, ServerThread, create_room, join_room, pick_action
from shared_helpers import card_ids_in

from app.rooms.core.frames import frame_adapter
from app.rules import Match
from app.rules.cards import CARD_IDS, ids_of
from app.rules.deal import AUCTION


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
        if deal.partner_revealed or (seat is not None and seat == deal.partner):
            assert contract["partner"] == deal.partner
        else:
            assert contract["partner"] is None, "the partner shows before the called card"
    assert view.get("you_are_partner", False) == (seat is not None and seat == deal.partner)
    # every other card named anywhere must be public: played, or the called card
    public = {CARD_IDS[c] for _, cards, _ in deal.tricks for c in cards}
    public |= {CARD_IDS[c] for c in deal.trick_cards}
    if deal.called is not None:
        public.add(CARD_IDS[deal.called])
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
    public = {CARD_IDS[c] for _, cards, _ in deal.tricks for c in cards}
    public |= {CARD_IDS[c] for c in deal.trick_cards}
    if deal.called is not None:
        public.add(CARD_IDS[deal.called])
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


@pytest.mark.parametrize("rules", [
    {"preset": "standard", "match": "deals:2"},
    {"preset": "guide", "show_kitty": True, "grand": True, "match": "single_deal"},
])
def test_four_people_and_a_spectator_see_only_what_they_may(
        server: ServerThread, rules: dict[str, Any]) -> None:
    base = server.base
    room = create_room(base, rules=rules)
    code = room["room"]
    tokens = [room["token"]] + [join_room(base, code, n)["token"] for n in ("Bo", "Cy", "Di")]
    people = [Client(base, code, token=t) for t in tokens]
    watcher = Client(base, code, spectate=True)
    everyone = [*people, watcher]
    live = server.registry.rooms[code].core  # the RoomCore, read while the room is still
    rng = random.Random(2024)
    for c in everyone:  # catch up with the connections that came after
        def caught_up(_view: dict[str, Any], c: Client = c) -> bool:
            return bool(c.version == live.version)
        c.wait_state(caught_up)

    seen: Counter[str] = Counter()

    def step(send: Any) -> None:
        expected = live.version + 1
        send()
        frames = []
        for c in everyone:
            msg = c.wait_for(lambda m: m["type"] in ("state", "error"))
            assert msg["type"] == "state", msg
            assert msg["version"] == expected, "one change, one state frame"
            assert msg["game"] == live.state.game
            frames.append(msg)
        assert live.match is not None
        for c, msg in zip(everyone, frames, strict=True):
            assert c.state is not None
            check_view(c.state, c.seat, live.match)
            check_events(msg["events"], c.seat, live.match, seen)

    step(lambda: people[0].send({"type": "start"}))
    steps = 0
    while live.match is not None and not live.match.finished:
        match = live.match
        if match.phase == "deal_over":
            for p in people:
                step(lambda p=p: p.send({"type": "ready"}))
            continue
        turn = match.turn
        assert turn is not None
        actor = people[turn]
        assert actor.state is not None
        action = pick_action(actor.state, rng)
        step(lambda a=actor, x=action: a.act(x))
        steps += 1
        if "discard" in action or "call" in action:
            # the others cannot do it now: out of turn, nothing changes
            now = live.match.turn
            other = next(p for i, p in enumerate(people) if i != now)
            other.act(action)
            assert other.error()["code"] == "not_your_turn"
    assert steps > 40
    assert watcher.state is not None and watcher.state["phase"] == "match_over"
    # the events were there to check: every kind of game event, the bidder's cards
    for kind in ("deal_started", "bid", "auction_won", "kitty_taken", "discarded",
                 "contract_set", "card_played", "trick_won", "deal_scored", "match_ended",
                 "kitty_taken with cards", "discarded with cards"):
        assert seen[kind] > 0, (kind, seen)
    assert every_frame_valid(everyone)


def every_frame_valid(clients: list[Client]) -> bool:
    """Every frame every client received, validated once more (extra keys forbidden)."""
    for c in clients:
        for frame in c.frames:
            frame_adapter.validate_python(frame)
    return True
