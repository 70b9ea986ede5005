"""``GET /api/rules``: presets and option metadata for the rules panel and the rules page,
derived from the engine's ``Options`` and ``PRESETS`` so that nothing drifts.

``PROVENANCE`` is the one table of where each preset's rules come from (docs/spec/RULES.md section
2): the source documents it follows, and the rules that are this project's conventions
because those sources are silent.  The client words each convention (i18n key
``rules.conv.<id>``); the numbers in those texts come from ``resolved``.  ``example`` is the
rules page's worked example, a deal played through the engine (rules_example.py)."""

from __future__ import annotations

import typing
from functools import lru_cache

from annotated_types import Ge, Le
from pydantic import JsonValue
from pydantic.fields import FieldInfo

from app.bots import BEST_BOT, BOT_LEVELS
from app.rules import RuleSet, RulesetError
from app.rules.ruleset import PRESETS, Options

from .rules_example import worked_example

# Source documents are the files of shared/seeds/ by number: 000 English rule guide,
# 001 the English app this project follows, 002 French rule guide, 003 Norwegian app
# rules page, 004 Norwegian article.
PROVENANCE: dict[str, dict[str, list[str]]] = {
    # 001 leaves the lowest bid and the first bidder to its settings; it has 4 seats only.
    "standard": {"sources": ["001"],
                 "conventions": ["standard_min_bid", "standard_first_bidder", "other_players"]},
    # 000/002 say "agree to redeal" (docs/spec/RULES.md 6.4 adds the discard rule); 4 players only.
    "guide": {"sources": ["000", "002"], "conventions": ["redeal_discards", "other_players"]},
    # 003 gives 12 of 13 and nothing for other deck shapes, nor for a lead with no card.
    "norsk": {"sources": ["003"], "conventions": ["norsk_max_bid", "no_callable_silent"]},
    # 004 names neither the lowest bid nor a target, nor a lead with no card to call.
    "fullstokk": {"sources": ["004"],
                  "conventions": ["fullstokk_min_bid", "fullstokk_target", "no_callable_silent"]},
}
# Options whose rule is partly this project's choice (003 says only "plus and minus count
# double for the bidder": Amerikaner keeps its own points).
OPTION_CONVENTIONS: dict[str, list[str]] = {"bidder_double": ["bidder_double_amerikaner"]}


def _option_meta(name: str, field: FieldInfo) -> dict[str, object]:
    annotation = field.annotation
    default = field.default
    if typing.get_origin(annotation) is typing.Literal:
        return {"type": "choice", "values": list(typing.get_args(annotation)), "default": default}
    if annotation is bool:
        return {"type": "bool", "default": default}
    if name in ("min_bid", "max_bid"):
        return {"type": "int_or_derived", "default": None}
    if name == "match":
        return {"type": "match", "values": ["target", "single_deal", "deals:N"],
                "default": default}
    meta: dict[str, object] = {"type": "int", "default": default}
    for m in field.metadata:
        if isinstance(m, Ge):
            meta["min"] = m.ge
        elif isinstance(m, Le):
            meta["max"] = m.le
    return meta


@lru_cache(maxsize=1)
def rules_info() -> dict[str, object]:
    resolved: dict[str, dict[str, dict[str, JsonValue]]] = {}
    for preset in PRESETS:
        resolved[preset] = {}
        for players in (3, 4, 5):
            try:
                resolved[preset][str(players)] = RuleSet(preset, players=players).resolved()
            except RulesetError as exc:  # pragma: no cover - every preset fits 3..5 today
                resolved[preset][str(players)] = {"error": str(exc)}
    return {
        "presets": list(PRESETS),
        "default": "standard",
        "preset_options": {name: dict(values) for name, values in PRESETS.items()},
        "options": {name: _option_meta(name, f) for name, f in Options.model_fields.items()},
        "resolved": resolved,
        "provenance": PROVENANCE,
        "option_conventions": OPTION_CONVENTIONS,
        "bot_levels": list(BOT_LEVELS),
        "best_bot": BEST_BOT,
        "example": worked_example(),
    }
