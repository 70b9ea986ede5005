"""Rule sets: every option of docs/spec/RULES.md section 1, the presets of section 2, and the deck
shape that follows from them.

A rule set is written as ``{"preset": NAME, **overrides}`` (the game record's ``rules``).
``RuleSet.from_json`` validates it strictly and names the option at fault; everything the
engine needs per deal (removed twos, hand size, bid range) is computed once here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, field_validator
from pydantic_core import ErrorDetails

from .cards import JOKER1, JOKER2, NUM_CARDS, TWO_REMOVAL_ORDER

if TYPE_CHECKING:
    from .actions import Action

PresetName = Literal["standard", "guide", "norsk", "fullstokk"]
PRESET_NAMES: tuple[str, ...] = ("standard", "guide", "norsk", "fullstokk")
MATCH_PATTERN = re.compile(r"target|single_deal|deals:[0-9]{1,6}")


class RulesetError(ValueError):
    """A rule set that cannot work; ``option`` names the option at fault."""

    code = "bad_rules"

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


class Options(BaseModel):
    """The option values of docs/spec/RULES.md section 1 (``None`` bids: derived from the deck)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    players: Literal[3, 4, 5] = 4
    kitty: Literal[0, 4] = 4
    kitty_trick: bool = True
    jokers: Literal[0, 1, 2] = 0
    remove_twos: Literal["as_needed", "all"] = "as_needed"
    min_bid: int | None = None
    max_bid: int | None = None
    amerikaner: bool = True
    amerikaner_points: int = Field(default=52, ge=1, le=1000)
    first_bidder: Literal["left_of_dealer", "dealer"] = "left_of_dealer"
    all_pass: Literal["redeal_same_dealer", "redeal_next_dealer", "minus_round"] = (
        "redeal_same_dealer"
    )
    no_callable: Literal["redeal", "play_alone"] = "play_alone"
    show_kitty: bool = False
    grand: bool = False
    led_two_wins: bool = False
    bidder_double: bool = False
    target: int = Field(default=52, ge=1, le=10000)
    match: str = "target"

    @field_validator("players", "kitty", "jokers", mode="before")
    @classmethod
    def _whole_number(cls, value: object) -> object:
        # Literal[3, 4, 5] alone would take True or 4.0 (they compare equal to 1 and 4).
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("must be a whole number")
        return value


OPTION_NAMES: tuple[str, ...] = tuple(Options.model_fields)

# Section 2. `max_below_t` is how far the derived max bid stays under T (norsk: T - 1).
PRESETS: dict[str, dict[str, JsonValue]] = {
    "standard": {"kitty": 4, "kitty_trick": True, "no_callable": "play_alone",
                 "first_bidder": "left_of_dealer"},
    "guide": {"kitty": 4, "kitty_trick": False, "no_callable": "redeal",
              "first_bidder": "left_of_dealer"},
    "norsk": {"kitty": 0, "kitty_trick": False, "no_callable": "redeal",
              "first_bidder": "left_of_dealer"},
    "fullstokk": {"kitty": 0, "kitty_trick": False, "no_callable": "redeal",
                  "first_bidder": "dealer"},
}
MAX_BELOW_T = {"standard": 0, "guide": 0, "norsk": 1, "fullstokk": 0}


@dataclass(frozen=True, slots=True)
class DeckShape:
    """What the options make of the deck: who gets how many cards, and the bid range."""

    deck: int            # mask of the cards in play (removed twos excluded)
    deck_bits: tuple[int, ...]  # the same cards, one bit each, ready to shuffle
    removed: int         # mask of the removed twos
    hand_size: int       # h: cards per hand, tricks per deal
    side_tricks: int     # T: tricks the bidder's side can take (h, +1 with a kitty trick)
    min_bid: int
    max_bid: int


def _shape(o: Options, max_below_t: int) -> DeckShape:
    deck_size = 52 + o.jokers
    in_deck = deck_size - o.kitty
    if o.remove_twos == "all":
        removed_count = 4
        if (in_deck - 4) % o.players:
            raise RulesetError(
                "remove_twos",
                f"without all four twos, {deck_size - 4 - o.kitty} cards cannot be dealt "
                f"evenly to {o.players} players",
            )
    else:
        removed_count = next(r for r in range(5) if (in_deck - r) % o.players == 0)
    removed = 0
    for two in TWO_REMOVAL_ORDER[:removed_count]:
        removed |= 1 << two
    deck = ((1 << 52) - 1) & ~removed
    if o.jokers >= 1:
        deck |= 1 << JOKER1
    if o.jokers == 2:
        deck |= 1 << JOKER2
    hand = (in_deck - removed_count) // o.players
    side = hand + (1 if o.kitty_trick and o.kitty > 0 else 0)
    min_bid = o.min_bid if o.min_bid is not None else math.ceil(side / 2)
    max_bid = o.max_bid if o.max_bid is not None else side - max_below_t
    if min_bid < 1:
        raise RulesetError("min_bid", "the lowest bid must be at least 1")
    if max_bid > side:
        raise RulesetError(
            "max_bid", f"the bidder's side can take at most {side} tricks, so {max_bid} "
            "cannot be bid")
    if min_bid > max_bid:
        which = "min_bid" if o.min_bid is not None else "max_bid"
        raise RulesetError(which, f"the lowest bid ({min_bid}) is above the highest ({max_bid})")
    assert deck < (1 << NUM_CARDS)
    bits = tuple(1 << c for c in range(NUM_CARDS) if deck >> c & 1)
    return DeckShape(deck, bits, removed, hand, side, min_bid, max_bid)


class RuleSet:
    """A validated rule set: a preset, the overrides given, the resolved options and shape."""

    __slots__ = ("_hash", "_resolved", "auction_legal", "deals_limit", "options", "overrides",
                 "preset", "shape")

    def __init__(self, preset: str = "standard", **overrides: JsonValue) -> None:
        if preset not in PRESETS:
            raise RulesetError(
                "preset", f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        unknown = [k for k in overrides if k not in OPTION_NAMES]
        if unknown:
            raise RulesetError(unknown[0], "there is no such option")
        try:
            options = Options.model_validate({**PRESETS[preset], **overrides})
        except ValidationError as exc:
            err = exc.errors()[0]
            option = str(err["loc"][0]) if err["loc"] else "rules"
            raise RulesetError(option, _pydantic_message(err)) from None
        if not MATCH_PATTERN.fullmatch(options.match):
            raise RulesetError(
                "match", "must be target, single_deal or deals:N (N from 1 to 1000)")
        deals_limit: int | None = None
        if options.match == "single_deal":
            deals_limit = 1
        elif options.match.startswith("deals:"):
            deals_limit = int(options.match[6:])
            if deals_limit < 1:
                raise RulesetError("match", "a match needs at least one deal (deals:1 or more)")
            if deals_limit > 1000:
                raise RulesetError("match", "at most 1000 deals")
        self.preset = preset
        self.overrides = dict(overrides)
        self.options = options
        self.deals_limit = deals_limit
        self.shape = _shape(options, MAX_BELOW_T[preset])
        # auction_legal[high]: the legal bids over a high bid of `high` (0: no bid yet),
        # computed once because the auction asks for it at every turn.
        self.auction_legal = _auction_table(self.shape, options.amerikaner)
        # made once: a rule set never changes, and rooms hash and compare theirs per frame
        resolved = options.model_dump()
        resolved.update(min_bid=self.shape.min_bid, max_bid=self.shape.max_bid, preset=preset,
                        hand_size=self.shape.hand_size,
                        removed=self.shape.removed.bit_count())
        self._resolved = resolved
        self._hash = hash(tuple(sorted(resolved.items())))

    @classmethod
    def shared(cls, data: object) -> RuleSet:
        """``from_json``, one object for equal rule sets (a server holds many rooms with the
        same rules; a rule set with its tables is a few kilobytes).  Rule sets are never
        changed once made, so sharing them is safe."""
        try:
            text = json.dumps(data, sort_keys=True)
        except (TypeError, ValueError):
            return cls.from_json(data)  # not JSON: let from_json say what is wrong
        return _shared(text)

    @classmethod
    def from_json(cls, data: object) -> RuleSet:
        """Build from ``{"preset": ..., **overrides}``; ``None`` means the default preset."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesetError("rules", "the rules must be a JSON object")
        data = dict(data)
        preset = data.pop("preset", "standard")
        if not isinstance(preset, str):
            raise RulesetError("preset", "the preset must be a name")
        return cls(preset, **data)

    def to_json(self) -> dict[str, JsonValue]:
        return {"preset": self.preset, **self.overrides}

    def resolved(self) -> dict[str, JsonValue]:
        """Every option with its value in force, the bid range included (a new dict)."""
        return dict(self._resolved)

    def with_changes(self, changes: Mapping[str, JsonValue]) -> RuleSet:
        """A new rule set with these overrides on top (``preset`` switches the preset)."""
        data = {**self.to_json(), **changes}
        return RuleSet.from_json(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleSet) and (
            self is other or (self._hash == other._hash and self._resolved == other._resolved))

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"RuleSet({self.to_json()!r})"


def _auction_table(shape: DeckShape, amerikaner: bool) -> tuple[tuple[Action, ...], ...]:
    from .actions import AMERIKANER, PASS, bid

    tail = (AMERIKANER,) if amerikaner else ()
    return tuple(
        (PASS, *(bid(v) for v in range(max(high + 1, shape.min_bid), shape.max_bid + 1)), *tail)
        for high in range(shape.max_bid + 1)
    )


def _pydantic_message(err: ErrorDetails) -> str:
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '')}"
    if kind == "value_error":
        return str(ctx.get("error", "is not valid"))
    if kind in ("int_type", "int_parsing"):
        return "must be a whole number"
    if kind == "bool_type":
        return "must be true or false"
    if kind == "string_type":
        return "must be a string"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}"
    return str(err.get("msg", "is not valid"))


@lru_cache(maxsize=256)
def _shared(text: str) -> RuleSet:
    return RuleSet.from_json(json.loads(text))
