"""A season's standings: a pure function of the club's finished matches.

The matches are a *set*: however and in whatever order they arrived (a repeat, a match
saved again by the process that took a room over, a restart), the standings are the
same, because the fold runs over the matches in one canonical order, by finish time,
then room id and match number.  The ratings are Weng-Lin's (openskill's Plackett-Luce
model), updated by each match's final ranking (the totals: higher is better, equal
totals share a rank) for the players who held its seats; a bot's seat, or a guest's,
is left out of the ranking.

Cost: a club of 1,000 matches and 20 players takes about 20 ms of CPU from scratch, a
third of it decoding the rows (benchmarks/club_standings.py, docs/clubs.md): the
ratings are plain floats (weng_lin.py, openskill's arithmetic without its objects).  The
caller runs this in a thread, and keeps the last fold per club and season
(``RatingsMemo``): a new match that sorts last, the usual case, costs one update.

Par (par_keeper.py) joins a match as its ``deals``: each deal's real points and, once it
is made, its par; a player's points above par a deal are the mean over the deals they
played that have a par, so the standings stay a function of the matches and their par.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rooms.core.frames import MatchSummary

from . import weng_lin
from .match_stats import SeatStats
from .wire import DealPar, LevelRating, Rating, StandingsRow

FORMER_PLAYER = "a former player"
_DEFAULT = weng_lin.DEFAULT


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A club's finished match as its row holds it."""

    room_id: str
    number: int
    room: str
    season: int
    finished_at: float
    players: tuple[str | None, ...]   # by seat
    summary: MatchSummary
    stats: tuple[SeatStats, ...] | None = None  # None: not derived from the record yet
    bots: tuple[str | None, ...] = ()  # by seat: the level of a bot's seat (rated too)
    deals: tuple[DealPar, ...] = ()  # the deals that get a par, with it once it is made

    @property
    def key(self) -> tuple[float, str, int]:
        """The canonical order: by finish time, then room id and match number."""
        return (self.finished_at, self.room_id, self.number)

    @property
    def identity(self) -> tuple[str, int]:
        return (self.room_id, self.number)


def canonical(matches: Iterable[MatchRow]) -> list[MatchRow]:
    """The set of ``matches`` (a repeat counts once) in the canonical order."""
    unique = {m.identity: m for m in matches}
    return sorted(unique.values(), key=lambda m: m.key)


def above_par(match: MatchRow) -> list[list[tuple[int, float]]]:
    """By seat: ``(deal, points - par)`` of each deal with a par that the seat's person
    played (the score sheet's rows from ``from_deal`` on: a bot played the ones before)."""
    n = len(match.players)
    starts = match.summary.get("from_deal", [0] * n)
    out: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for deal in match.deals:
        par = deal["par"]
        if par is None:
            continue
        for seat in range(min(n, len(par), len(deal["points"]))):
            if deal["row"] >= (starts[seat] if seat < len(starts) else 0):
                out[seat].append((deal["deal"], deal["points"][seat] - par[seat]))
    return out


def best_vs_par(match: MatchRow) -> list[int | None]:
    """By seat: the deal where its player beat par most (above 0; the first of equals),
    ``None`` for a seat without a player or a player who beat par in no deal yet."""
    out: list[int | None] = []
    for seat, deals in enumerate(above_par(match)):
        best = max(deals, key=lambda d: d[1], default=None)
        out.append(best[0] if best is not None and best[1] > 0
                   and match.players[seat] is not None else None)
    return out


# player -> rating.  A rating is an immutable tuple: a fold's dict may be shared.
Ratings = dict[str, weng_lin.Skill]


BOT = "bot:"  # a bot level's name among the rated (``bot:strong``): no player id has it


def rated(match: MatchRow) -> list[str | None]:
    """Who is rated for each seat: its player, else the level of the bot that played it
    (several seats of one level in a match: the first only), else nobody."""
    out: list[str | None] = []
    for seat, player in enumerate(match.players):
        level = match.bots[seat] if seat < len(match.bots) else None
        name = player if player is not None else (BOT + level if level else None)
        out.append(name if name not in out else None)
    return out


# By seat: the change of its player's mu (else None).  The rating a player reads is
# ``mu ± sigma``, so the change is mu's: the ordinal (mu - 3 sigma, the standings' order)
# rises for a player who lost while their uncertainty shrinks, which reads as a bug.
Change = list[float | None]


def rate(ratings: Ratings, match: MatchRow) -> Change:
    """Update ``ratings`` with ``match``'s final ranking, of its players and its bots'
    levels, the ones a person played against (a match of bots alone rates nobody); the
    change of each seat's player's mu (what the players read beside sigma)."""
    totals = match.summary["totals"]
    change: Change = [None] * len(match.players)
    if all(p is None for p in match.players):
        return change
    seats = [(i, p, totals[i]) for i, p in enumerate(rated(match))
             if p is not None and i < len(totals)]
    if len(seats) < 2:
        return change  # nobody to rank against
    # (newcomers share the default, an immutable tuple: weng_lin rates by position, so
    # they move apart; openskill read one object given twice as one player)
    olds = [ratings.get(p) or _DEFAULT for _, p, _ in seats]
    # ranks: 1 for the highest total; equal totals share a rank
    ranks = [float(1 + sum(1 for _, _, t in seats if t > total)) for _, _, total in seats]
    for (seat, who, _), old, new in zip(seats, olds, weng_lin.rate(olds, ranks),
                                        strict=True):
        ratings[who] = new
        if match.players[seat] is not None:
            change[seat] = round(new.mu - old.mu, 4)
    return change


@dataclass(frozen=True)
class Fold:
    """The ratings after the matches ``keys`` (in the canonical order), and each match's
    changes."""

    keys: list[tuple[str, int]]
    ratings: Ratings
    changes: dict[tuple[str, int], Change]


def fold(ordered: Sequence[MatchRow], start: Fold | None = None) -> Fold:
    """``ordered`` folded, from ``start`` if it folded a beginning of them."""
    keys = [m.identity for m in ordered]
    if start is None or keys[:len(start.keys)] != start.keys:
        start = Fold([], {}, {})
    ratings, changes = dict(start.ratings), dict(start.changes)
    for match in ordered[len(start.keys):]:
        changes[match.identity] = rate(ratings, match)
    return Fold(keys, ratings, changes)


@dataclass
class RatingsMemo:
    """The last fold of each (club, season), for the ``limit`` asked last.  A set that
    extends the last one at its end continues from it; any other set is folded from the
    start (the result is the same)."""

    folds: dict[Any, Fold] = field(default_factory=dict)
    limit: int = 256
    # the club pages' threads share the memo (a fold itself runs outside the lock)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fold(self, where: Any, ordered: Sequence[MatchRow]) -> Fold:
        with self.lock:
            start = self.folds.get(where)
        done = fold(ordered, start)
        with self.lock:
            self.folds.pop(where, None)
            self.folds[where] = done  # (the last asked: the dict's end)
            while len(self.folds) > self.limit:
                del self.folds[next(iter(self.folds))]
        return done


def _folded(matches: Iterable[MatchRow], memo: RatingsMemo | None, where: Any
            ) -> tuple[list[MatchRow], Fold]:
    ordered = canonical(matches)
    return ordered, memo.fold(where, ordered) if memo is not None else fold(ordered)


def rating_changes(matches: Iterable[MatchRow], memo: RatingsMemo | None = None,
                   where: Any = None) -> dict[tuple[str, int], Change]:
    """Each match's change of its players' ratings (by (room id, match number))."""
    return _folded(matches, memo, where)[1].changes


def level_ratings(matches: Iterable[MatchRow], memo: RatingsMemo | None = None,
                  where: Any = None) -> list[LevelRating]:
    """The bot levels' ratings from the same fold as the standings', the best first: a
    person reads where they stand among them."""
    ratings = _folded(matches, memo, where)[1].ratings
    out: list[LevelRating] = [{"level": name[len(BOT):], "rating": _wire(held)}
                              for name, held in ratings.items() if name.startswith(BOT)]
    out.sort(key=lambda r: (-r["rating"]["ordinal"], r["level"]))
    return out


def _wire(held: weng_lin.Skill) -> Rating:
    mu, sigma = held
    return {"mu": round(mu, 4), "sigma": round(sigma, 4), "ordinal": round(mu - 3 * sigma, 4)}


def standings(matches: Iterable[MatchRow], names: Mapping[str, str],
              memo: RatingsMemo | None = None, where: Any = None) -> list[StandingsRow]:
    """The standings of ``matches`` (one season's): a line per player who held a seat of
    one, named by ``names`` (player -> name; a player not in it is a former player),
    sorted by rating (mu - 3 sigma), then points, then id."""
    ordered, folded = _folded(matches, memo, where)
    ratings = folded.ratings
    lines: dict[str, dict[str, Any]] = {}
    for match in ordered:
        totals = match.summary["totals"]
        best = max(totals) if totals else 0
        rows = len(match.summary["score_sheet"])
        starts = match.summary.get("from_deal", [0] * len(totals))
        vs_par = above_par(match)
        for seat, player in enumerate(match.players):
            if player is None or seat >= len(totals):
                continue
            line = lines.get(player)
            if line is None:  # (not setdefault: its new dict was made for every seat)
                line = lines[player] = {
                    "matches": 0, "wins": 0, "deals": 0, "points": 0, "bidder_deals": 0,
                    "bidder_made": 0, "partner_deals": 0, "partner_made": 0,
                    "amerikaner_bids": 0, "above_par": 0.0, "par_deals": 0}
            line["matches"] += 1
            line["wins"] += totals[seat] == best
            line["deals"] += max(0, rows - (starts[seat] if seat < len(starts) else 0))
            line["points"] += totals[seat]
            if match.stats is not None and seat < len(match.stats):
                for k, v in match.stats[seat].items():
                    line[k] += v
            if vs_par[seat]:
                line["par_deals"] += len(vs_par[seat])
                line["above_par"] += sum(d[1] for d in vs_par[seat])
    out: list[StandingsRow] = []
    for player, line in lines.items():
        rating = _wire(ratings.get(player) or _DEFAULT)
        deals = line["deals"]
        out.append({
            "player": player, "name": names.get(player, FORMER_PLAYER),
            "matches": line["matches"], "wins": line["wins"], "deals": deals,
            "points": line["points"],
            "points_per_deal": round(line["points"] / deals, 3) if deals else 0.0,
            "bidder_deals": line["bidder_deals"], "bidder_made": line["bidder_made"],
            "partner_deals": line["partner_deals"], "partner_made": line["partner_made"],
            "amerikaner_bids": line["amerikaner_bids"], "rating": rating,
            "above_par_per_deal": (round(line["above_par"] / line["par_deals"], 3)
                                   if line["par_deals"] else None),
            "par_deals": line["par_deals"]})
    out.sort(key=lambda r: (-r["rating"]["ordinal"], -r["points"], r["player"]))
    return out


def club_tables(matches: Iterable[MatchRow], names: Mapping[str, str],
                memo: RatingsMemo | None = None, where: Any = None
                ) -> tuple[list[StandingsRow], list[LevelRating],
                           dict[tuple[str, int], Change]]:
    """The club page's standings, bot levels and ratings' changes, from one fold (one
    call for the caller's thread)."""
    rows = list(matches)
    return (standings(rows, names, memo, where), level_ratings(rows, memo, where),
            rating_changes(rows, memo, where))
