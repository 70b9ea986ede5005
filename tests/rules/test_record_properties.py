"""Game-record properties (Hypothesis): any changed action, swapped dealt cards or
arbitrary JSON value in a record gives a result line, either ok or an error no earlier
than the change.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from example_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_helpers import RULE_VARIANTS, deal0, made8, play_match, record_of

from app.rules.cards import CARD_IDS
from app.rules.record import replay_record

# -- properties ------------------------------------------------------------------------

RECORDS = [record_of(play_match(RULE_VARIANTS[k], 10 + k)) for k in (0, 1, 4, 5, 8, 9)]

cards = st.sampled_from(CARD_IDS)
action_values = st.fixed_dictionaries(
    {"seat": st.one_of(st.integers(-1, 5), st.booleans(), st.just("1"), st.just(1.0))},
    optional={
        "bid": st.one_of(st.integers(-2, 14), st.sampled_from(["pass", "amerikaner", "7"]),
                         st.none(), st.floats(6, 8)),
        "play": st.one_of(cards, st.just("XX")),
        "call": st.one_of(cards, st.none()),
        "grand": st.one_of(st.booleans(), st.just(1)),
        "discard": st.lists(cards, max_size=5),
        "extra": st.integers(),
    },
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=st.sampled_from(RECORDS), where=st.floats(0, 1, exclude_max=True),
       action=action_values)
def test_changing_one_action_gives_ok_or_a_clean_error(record: dict[str, Any], where: float,
                                                       action: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    places = [(i, j) for i, deal in enumerate(data["deals"])
              for j in range(len(deal["actions"]))]
    i, j = places[int(where * len(places))]
    data["deals"][i]["actions"][j] = action
    result = replay_record(data)
    json.dumps(result)
    if result["ok"]:
        return
    error = result["error"]
    # Nothing before the changed action can be wrong.
    assert error["deal"] is not None and error["deal"] >= i
    if error["deal"] == i:
        assert error["action"] is not None and error["action"] >= j


@settings(max_examples=examples(100), deadline=None)
@given(record=st.sampled_from(RECORDS), data=st.data())
def test_swapping_two_dealt_cards_gives_ok_or_a_clean_error(record: dict[str, Any],
                                                             data: st.DataObject) -> None:
    rec = copy.deepcopy(record)
    i = data.draw(st.integers(0, len(rec["deals"]) - 1))
    hands = rec["deals"][i]["hands"]
    a, b = (data.draw(st.integers(0, len(hands) - 1)) for _ in range(2))
    x = data.draw(st.integers(0, len(hands[a]) - 1))
    y = data.draw(st.integers(0, len(hands[b]) - 1))
    hands[a][x], hands[b][y] = hands[b][y], hands[a][x]
    result = replay_record(rec)
    if not result["ok"]:
        deal = result["error"]["deal"]
        assert deal is not None and deal >= i


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(200), deadline=None)
@given(value=json_values)
def test_any_json_value_gives_a_result_line(value: object) -> None:
    result = replay_record(value)
    assert result["ok"] is False
    assert result["error"]["deal"] is None and result["error"]["action"] is None


@settings(max_examples=examples(200), deadline=None)
@given(key=st.sampled_from(["format", "rules", "players", "deals"]), value=json_values)
def test_any_header_value_gives_a_result_line(key: str, value: object) -> None:
    data = made8()
    data[key] = value
    result = replay_record(data)
    json.dumps(result)
    if not result["ok"]:
        assert result["error"]["deal"] in (None, 0)


@settings(max_examples=examples(200), deadline=None)
@given(key=st.sampled_from(["dealer", "hands", "kitty", "actions"]), value=json_values)
def test_any_deal_value_gives_a_result_line(key: str, value: object) -> None:
    data = deal0(key, value)
    result = replay_record(data)
    json.dumps(result)
    # An empty action list is a valid unfinished deal; the dealer of a first deal is free.
    assert result["ok"] is False or key == "actions" or (key == "dealer" and value in (0, 1, 2, 3)
                                                        and type(value) is int)
