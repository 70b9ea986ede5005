"""The rules page's worked example (app/rooms/server/rules_example.py) is a legal deal under
the standard preset, and what the page says of it holds: the record replays with the
engine's record reader, and the score follows docs/spec/RULES.md section 9 worked out here by hand,
not by the engine's scoring."""

from __future__ import annotations

from app.rooms.server.rules_example import DEAL, NAMES, example_record, worked_example
from app.rooms.server.rules_info import rules_info
from app.rules import RuleSet
from app.rules.record import replay_record


def test_the_example_replays_as_a_legal_standard_deal() -> None:
    result = replay_record(example_record())
    assert result["ok"], result
    [deal] = result["deals"]
    example = worked_example()
    assert deal["outcome"] == "played"
    assert deal["tricks"] == example["tricks_won"]
    assert deal["points"] == example["points"]
    assert deal["made"] == example["made"]
    assert rules_info()["example"] == example


def test_the_example_tells_the_deal_as_played() -> None:
    example = worked_example()
    rules = RuleSet(example["preset"])
    assert example["players"] == rules.options.players == len(NAMES)
    # The auction opens left of the dealer and ends when the others have passed.
    auction = example["auction"]
    assert auction[0]["seat"] == (example["dealer"] + 1) % 4
    assert [a["bid"] for a in auction[-3:]] == ["pass"] * 3
    bid = example["bid"]
    assert bid == max(a["bid"] for a in auction if isinstance(a["bid"], int))
    assert isinstance(bid, int) and rules.shape.min_bid <= bid <= rules.shape.max_bid
    # The kitty goes to the bidder, who discards as many cards.
    assert sorted(example["kitty"]) == sorted(DEAL["kitty"])
    assert len(example["discards"]) == len(example["kitty"]) == rules.options.kitty
    bidder_cards = set(DEAL["hands"][example["bidder"]]) | set(DEAL["kitty"])
    assert set(example["discards"]) <= bidder_cards
    # The lead sets trump; the call is that suit's card in the partner's hand, played to
    # the first trick.
    first, second = example["tricks"]
    call, partner = example["call"], example["partner"]
    assert call is not None and partner is not None
    assert first["leader"] == example["bidder"] and first["cards"][0] == example["lead"]
    assert example["lead"][1] == call[1] == example["trump"]
    assert call in DEAL["hands"][partner]
    assert first["cards"][(partner - first["leader"]) % 4] == call
    assert first["winner"] == partner and second["leader"] == first["winner"]
    # Trick 2: the winner trumped a led suit it did not have.
    ruff = second["cards"][(second["winner"] - second["leader"]) % 4]
    assert ruff[1] == example["trump"] != second["cards"][0][1]


def test_the_example_scores_as_rules_md_section_9_says() -> None:
    example = worked_example()
    bidder, partner, bid = example["bidder"], example["partner"], example["bid"]
    assert partner is not None and isinstance(bid, int)
    won = example["tricks_won"]
    assert sum(won) == RuleSet(example["preset"]).shape.hand_size
    assert example["kitty_trick"] == 1  # standard: the kitty counts as a trick
    side = won[bidder] + won[partner] + example["kitty_trick"]
    assert example["side_tricks"] == won[bidder] + won[partner]
    assert example["made"] is (side >= bid) is True
    assert side > bid  # the example shows that overtricks score nothing extra
    expected = [bid if seat in (bidder, partner) else won[seat] for seat in range(4)]
    assert example["points"] == expected
