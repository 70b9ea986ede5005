"""The clubs' HTTP bodies and answers (docs/spec/PROTOCOL.md, "Players and clubs"):
declared once here; app/rooms/schema_doc.py lists them, so that docs/protocol.md, the
JSON Schema and the client's types are generated from these classes."""

from __future__ import annotations

from typing import Annotated, NotRequired

from pydantic import BaseModel, ConfigDict, Field, with_config
from typing_extensions import TypedDict

from app.rooms.core.frames import JsonObject
from app.rules.wire import FORBID


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PlayerBody(_Strict):
    """``POST /api/players``, ``PATCH /api/players/me``: the player's name."""

    name: Annotated[str, Field(max_length=100)]


class ClaimBody(_Strict):
    """``POST /api/players/claim``: a device code, as typed."""

    code: Annotated[str, Field(max_length=40)]


class ClubBody(_Strict):
    """``POST /api/clubs``: the club's name."""

    name: Annotated[str, Field(max_length=100)]


class ClubChangeBody(_Strict):
    """``PATCH /api/clubs/{club}`` (the host): a new name, or the rules of the club's new
    tables (a rule set, as ``POST /api/rooms`` takes it)."""

    name: Annotated[str, Field(max_length=100)] | None = None
    rules: JsonObject | None = None


class JoinClubBody(_Strict):
    """``POST /api/clubs/{club}/join``: the club's invite."""

    invite: Annotated[str, Field(max_length=100)]


@with_config(FORBID)
class PlayerKey(TypedDict):
    """``POST /api/players`` (201) and ``POST /api/players/claim``: the player and their
    key, told only here and only to its owner (keep it: it is not stored)."""

    player: str
    key: str
    name: str


@with_config(FORBID)
class ClubRef(TypedDict):
    club: str
    name: str


@with_config(FORBID)
class TableRef(TypedDict):
    """A room where one of the player's seats is bound (rejoin it with the seat's token,
    which the browser keeps: the server keeps only its hash)."""

    room: str
    club: str | None


@with_config(FORBID)
class PlayerInfo(TypedDict):
    """``GET /api/players/me``, ``PATCH /api/players/me``."""

    player: str
    name: str
    clubs: list[ClubRef]
    tables: NotRequired[list[TableRef]]  # (GET /api/players/me) the latest first


@with_config(FORBID)
class DeviceCode(TypedDict):
    """``POST /api/players/me/device-code``: type ``code`` on the other device within
    ``expires_in`` seconds; it works once."""

    code: str
    expires_in: int


@with_config(FORBID)
class ClubCreated(TypedDict):
    """``POST /api/clubs`` (201): the maker is a member and the club's host."""

    club: str
    invite: str
    url: str


@with_config(FORBID)
class Rating(TypedDict):
    """A Weng-Lin rating (openskill's Plackett-Luce): ``mu`` the skill, ``sigma`` how
    unsure it is; ``ordinal`` = mu - 3 sigma, what the standings sort by."""

    mu: float
    sigma: float
    ordinal: float


@with_config(FORBID)
class LevelRating(TypedDict):
    """A bot level rated as a player of the club's matches (its seats at a club's table)."""

    level: str
    rating: Rating


@with_config(FORBID)
class StandingsRow(TypedDict):
    """A player's line of a season's standings."""

    player: str
    name: str                 # "a former player" once they deleted themselves
    matches: int
    wins: int                 # matches where their total was the highest (each tied one)
    deals: int                # deals they played (a late joiner's first rows are a bot's)
    points: int               # the sum of their final totals
    points_per_deal: float
    bidder_deals: int         # deals they played as the bidder
    bidder_made: int          # ... and made
    partner_deals: int        # deals they played as the bidder's partner
    partner_made: int
    amerikaner_bids: int      # deals they won the auction with an Amerikaner bid
    rating: Rating
    # par (docs/clubs.md, "Par"): the mean of (their points - their seat's par) over
    # their deals that have a par yet (None: none has); ``par_deals`` how many those are
    above_par_per_deal: float | None
    par_deals: int


@with_config(FORBID)
class MatchSeat(TypedDict):
    player: str | None        # None: a bot, a guest without a key, or a former player
    name: str                 # the name at the table


@with_config(FORBID)
class DealPar(TypedDict):
    """A finished deal of a club match beside its par: what the bot (all four seats, the
    same hands and kitty) scored on the same cards, each seat's mean over its plays."""

    deal: int                 # the deal's index in the match's game record (from 0)
    row: int                  # its row of the score sheet
    points: list[int]         # the real result, by seat
    par: list[float] | None   # par by seat; None: not computed yet (it comes later)


@with_config(FORBID)
class ClubMatch(TypedDict):
    """A finished match of the club: ``GET /api/clubs/{club}/record?room=R&match=N`` is
    its game record (for the club's members)."""

    room: str
    match: int
    season: int
    finished_at: float
    seats: list[MatchSeat]
    totals: list[int]
    score_sheet: list[list[int]]
    # (On the club page.) by seat: how the match changed its player's mu (the rating
    # read as mu ± sigma); None for a bot's or a guest's seat
    rating_changes: NotRequired[list[float | None]]
    # (On the club page.) the deals that get a par (played to their end), in order
    deals: NotRequired[list[DealPar]]
    # (On the club page.) by seat: the ``deal`` where its player beat par most (points
    # minus par highest, above 0), among the deals they played that have a par yet;
    # None for a bot's or a guest's seat, or a player who beat par in none
    best_vs_par: NotRequired[list[int | None]]


@with_config(FORBID)
class ClubMember(TypedDict):
    player: str
    name: str
    host: bool


@with_config(FORBID)
class SeasonInfo(TypedDict):
    season: int
    started_at: float
    ended_at: float | None    # None: the current season


@with_config(FORBID)
class ClubPage(TypedDict):
    """``GET /api/clubs/{club}`` (members only), ``?season=N`` for an earlier season."""

    club: str
    name: str
    url: str
    invite: str
    rules: JsonObject | None  # the rules of the club's new tables (None: the default)
    you_are_host: bool
    season: int               # the season shown
    current_season: int
    seasons: list[SeasonInfo]
    members: list[ClubMember]
    standings: list[StandingsRow]
    bot_levels: list[LevelRating]  # the bots' levels, rated in the same matches
    matches: list[ClubMatch]  # the season's, the latest first


@with_config(FORBID)
class InviteRenewed(TypedDict):
    """``POST /api/clubs/{club}/invite`` (the host): the old invite works no more."""

    invite: str


@with_config(FORBID)
class SeasonOpened(TypedDict):
    """``POST /api/clubs/{club}/season`` (the host): the current season closed, this
    one opened."""

    season: int


@with_config(FORBID)
class PlayerExport(TypedDict):
    """``GET /api/players/me/export``: everything stored about the player (their keys
    only as the count of browsers that hold one)."""

    player: str
    name: str
    created_at: float
    seen_at: float
    browsers: int
    clubs: list[ClubRef]
    hosted_clubs: list[str]
    seats: list[str]          # codes of the rooms where one of their seats is bound
    matches: list[ClubMatch]  # the club matches they played
