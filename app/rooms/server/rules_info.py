"""``GET /api/rules``: presets and option metadata for the rules panel and the rules page,
derived from the engine's ``Options`` and ``PRESETS`` so that nothing drifts."""

from __future__ import annotations

import typing
from functools import lru_cache
from typing import Any

from annotated_types import Ge, Le

from app.bots import BEST_BOT, BOT_LEVELS
from app.rules import RuleSet, RulesetError
from app.rules.ruleset import PRESETS, Options


def _option_meta(name: str, field: Any) -> dict[str, Any]:
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
    meta: dict[str, Any] = {"type": "int", "default": default}
    for m in field.metadata:
        if isinstance(m, Ge):
            meta["min"] = m.ge
        elif isinstance(m, Le):
            meta["max"] = m.le
    return meta


@lru_cache(maxsize=1)
def rules_info() -> dict[str, Any]:
    resolved: dict[str, dict[str, Any]] = {}
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
        "bot_levels": list(BOT_LEVELS),
        "best_bot": BEST_BOT,
    }
