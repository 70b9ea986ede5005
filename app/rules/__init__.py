"""The pure Amerikaner engine: cards, rule sets, deals, matches, views and records.

Nothing here does I/O, touches asyncio or imports the web stack.
"""

from .actions import (
    AMERIKANER,
    PASS,
    PLAYS,
    Action,
    Bid,
    Discard,
    DiscardAny,
    Lead,
    Play,
    action_to_json,
    bid,
    lead,
    parse_action,
)
from .deal import DealState
from .errors import (
    ActionError,
    BadActionShape,
    IllegalBid,
    IllegalDiscard,
    IllegalLead,
    IllegalPlay,
    MatchOver,
    NotYourTurn,
    Refusal,
    WrongPhase,
)
from .events import Event, event_to_json
from .match import DEAL_OVER, MATCH_OVER, Match, deal_cards
from .phases import Phase
from .ruleset import OPTION_NAMES, PRESET_NAMES, RuleSet, RulesetError
from .view import SeatView

__all__ = [
    "AMERIKANER", "DEAL_OVER", "MATCH_OVER", "OPTION_NAMES", "PASS", "PLAYS", "PRESET_NAMES",
    "Action", "ActionError", "BadActionShape", "Bid", "DealState", "Discard", "DiscardAny",
    "Event", "IllegalBid", "IllegalDiscard", "IllegalLead", "IllegalPlay", "Lead", "Match",
    "MatchOver", "NotYourTurn", "Phase", "Play", "Refusal", "RuleSet", "RulesetError", "SeatView",
    "WrongPhase",
    "action_to_json", "bid", "deal_cards", "event_to_json", "lead", "parse_action",
]
