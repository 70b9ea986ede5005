"""Issue 39: every refusal a player can meet has its reason in English, Norwegian and
French.  Each ``ErrorCode`` of the contract has its text (``errcode.*``), each reason the
rules give (``Refusal``: ``refusal.*``) has its sentence with exactly the placeholders
its parameters fill, and the engine's refusals carry that reason and those parameters
(card ids, suit letters, numbers: nothing English for the client to put in a sentence)."""

from __future__ import annotations

import random
import re

import pytest
from shared_helpers import catalogue

from app.rooms.core.wire_enums import ErrorCode
from app.rules import IllegalBid, IllegalPlay, Match, Refusal, RuleSet
from app.rules.actions import Lead, bid
from app.rules.calling import lead_error
from app.rules.cards import SUITS, card_id, mask_of_ids, parse_card
from app.rules.errors import ActionError, Why
from app.rules.explain import bid_error

LANGUAGES = ("en", "nb", "fr")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# what each reason's sentence names (its ``params``); the others name nothing
PARAMS = {
    Refusal.BID_HIGHER: {"n"}, Refusal.BID_LOWEST: {"n"}, Refusal.BID_HIGHEST: {"n"},
    Refusal.DISCARD_FIRST: {"n"}, Refusal.DISCARD_COUNT: {"n"},
    Refusal.NOT_IN_HAND: {"card"}, Refusal.PLAY_CALLED: {"card"},
    Refusal.CALL_NEEDED: {"suit"}, Refusal.NO_CALLABLE: {"suit"}, Refusal.CALL_SUIT: {"suit"},
    Refusal.JOKER_FOLLOW: {"suit"}, Refusal.MUST_FOLLOW: {"suit"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_its_text(lang: str) -> None:
    texts = catalogue(lang)
    missing = [code.value for code in ErrorCode if not texts.get(f"errcode.{code.value}")]
    assert missing == [], f"{lang}: no errcode.* text for {missing}"


# codes the client makes itself (net.js: a request that never reached the server)
CLIENT_CODES = {"network"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_text_names_a_code_that_exists(lang: str) -> None:
    known = {code.value for code in ErrorCode} | CLIENT_CODES
    stray = [key for key in catalogue(lang)
             if key.startswith("errcode.") and key.removeprefix("errcode.") not in known]
    assert stray == [], f"{lang}: texts of no error code (ErrorCode in wire_enums.py): {stray}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_has_its_sentence_with_its_parameters(lang: str) -> None:
    texts = catalogue(lang)
    missing = [r.value for r in Refusal if not texts.get(f"refusal.{r.value}")]
    assert missing == [], f"{lang}: no refusal.* sentence for {missing}"
    for reason in Refusal:
        for key, text in texts.items():
            if key == f"refusal.{reason.value}" or key.startswith(f"refusal.{reason.value}."):
                assert set(PLACEHOLDER.findall(text)) == PARAMS.get(reason, set()), (key, text)
    known = {f"refusal.{r.value}" for r in Refusal}
    stray = [k for k in texts if k.startswith("refusal.") and k.rsplit(".", 1)[0] not in known
             and k not in known]
    assert stray == [], f"{lang}: sentences of no refusal: {stray}"


def reason_of(error: ActionError) -> tuple[Refusal | None, dict[str, str | int]]:
    return error.reason, error.params


def test_the_auctions_refusals_carry_their_reason_and_figure() -> None:
    match = Match(RuleSet.from_json({"preset": "standard"}), random.Random(1))
    match.start_deal()
    state = match.deal
    assert state is not None
    low = state.rules.shape.min_bid
    error = bid_error(state, bid(low - 1))
    assert isinstance(error, IllegalBid)
    assert reason_of(error) == (Refusal.BID_LOWEST, {"n": low})
    high = state.rules.shape.max_bid
    assert reason_of(bid_error(state, bid(high + 1))) == (Refusal.BID_HIGHEST, {"n": high})


def test_a_first_leads_refusals_name_the_suit_by_its_letter() -> None:
    hand = mask_of_ids(["AS", "KS", "2H"])
    others = mask_of_ids(["QS", "3H"])
    why = lead_error(Lead(parse_card("AS")), hand, others, False, False)
    assert isinstance(why, Why) and why.reason is Refusal.CALL_NEEDED
    assert why.params == {"suit": "S"} and str(why.params["suit"]) in SUITS
    why = lead_error(Lead(parse_card("AS"), parse_card("3H")), hand, others, False, False)
    assert isinstance(why, Why) and (why.reason, why.params) == (Refusal.CALL_SUIT, {"suit": "S"})
    why = lead_error(Lead(parse_card("QD")), hand, others, False, False)
    assert isinstance(why, Why) and why.reason is Refusal.NOT_IN_HAND
    assert why.params == {"card": card_id(parse_card("QD"))}
    # an error made from it carries it on
    error = IllegalPlay(why)
    assert reason_of(error) == (Refusal.NOT_IN_HAND, {"card": "QD"})
