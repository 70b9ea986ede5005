"""``amerikaner simulate``: bots play deals against each other; a JSON summary is printed.

Each deal is its own single-deal ``Match`` (so a written record is a one-deal match, with
any redeals before it).  Everything is derived from ``--seed``: deal ``i`` gets a seed of
its own, its match shuffles with ``random.Random(deal seed)`` and the bots draw from
another generator seeded from it.  With ``--rotate`` a deal is played once per seat with
the bot list turned one seat further each time; since each replay's match starts from the
same deal seed, the same cards (and the same redeals, as long as the bots pass the same
way) come up every time: the duplicate format of bridge.

The loop is the engine itself, one ``SeatView`` per seat and deal and nothing else per
action: the engine's own speed, less what the bots think.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import TextIO

from app.bots import ALIASES, BOT_LEVELS, BOTS, Bot
from app.rules import Match, RuleSet, RulesetError, SeatView

MAX_REDEALS = 1000  # redeals in a row before a deal is declared unplayable


class SimulateError(ValueError):
    """A command-line argument that cannot work; ``option`` names it."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


def parse_rules(text: str | None) -> RuleSet:
    """``--rules``: a preset name or a JSON object, made a single-deal match."""
    text = "standard" if text is None else text.strip()
    try:
        if text[:1] in ('{', '[', '"') or text[:1].isdigit():
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise SimulateError("--rules", f"not valid JSON ({exc.msg} at "
                                    f"character {exc.pos})") from None
            rules = RuleSet.from_json(data)
        else:
            rules = RuleSet(text)
        return rules.with_changes({"match": "single_deal"})
    except RulesetError as exc:
        raise SimulateError("--rules", str(exc)) from None


def parse_bots(text: str | None, players: int) -> list[str]:
    """``--bots``: one name per seat, or one name for every seat (default ``random``);
    a level's old name (``heuristic`` for ``easy``) is kept as written, so summaries and
    records name the bots as the command line did."""
    if text is None:
        return ["random"] * players
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in BOTS:
            shown = name or "(empty)"
            aliases = ", ".join(f"{old} = {new}" for old, new in ALIASES.items())
            raise SimulateError("--bots", f"unknown bot {shown!r}; choose from "
                                f"{', '.join(BOT_LEVELS)} ({aliases})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise SimulateError("--bots", f"{len(names)} bots given for {players} players: "
                            f"name one bot per seat, or one bot for every seat")
    return names


def play_deal(rules: RuleSet, seat_bots: list[Bot], deal_seed: int) -> Match:
    """Play one single-deal match to its end with these bots in seat order."""
    match = Match(rules, rng=random.Random(deal_seed))
    bot_rng = random.Random(deal_seed ^ 0x5EED_B07)
    match.start_deal()
    choose = [bot.choose for bot in seat_bots]
    apply = match.apply
    deals = match.deals
    while not match.finished:
        if len(deals) > MAX_REDEALS:
            raise SimulateError("--bots", f"{MAX_REDEALS} redeals in a row: these bots "
                                "never win an auction under these rules")
        deal = deals[-1]
        views = [SeatView(match, s) for s in range(match.n)]  # a view reads its deal live
        seat = deal.turn
        while seat is not None:
            apply(seat, choose[seat](views[seat], bot_rng))
            seat = deal.turn
    return match


def simulate(rules: RuleSet, bots: list[str], deals: int, seed: int, rotate: bool,
             on_deal: Callable[[Match, list[str]], None] | None = None,
             progress: Callable[[int, int], None] | None = None) -> dict[str, object]:
    """Play the deals and return the summary (see docs/bots.md)."""
    n = rules.options.players
    seeds = random.Random(seed)
    rotations = n if rotate else 1
    total = deals * rotations
    points: dict[str, int] = dict.fromkeys(bots, 0)
    seats_played: dict[str, int] = dict.fromkeys(bots, 0)
    bid: dict[str, int] = dict.fromkeys(bots, 0)
    made: dict[str, int] = dict.fromkeys(bots, 0)
    played = 0
    started = time.perf_counter()
    for _ in range(deals):
        deal_seed = seeds.getrandbits(64)
        for k in range(rotations):
            # Replay k puts the first bot in seat k.
            names = [bots[(s - k) % n] for s in range(n)]
            match = play_deal(rules, [BOTS[name] for name in names], deal_seed)
            final = match.deals[-1]
            for s, name in enumerate(names):
                points[name] += match.totals[s]
                seats_played[name] += 1
            if final.bidder is not None:
                bid[names[final.bidder]] += 1
                made[names[final.bidder]] += bool(final.made)
            played += 1
            if on_deal is not None:
                on_deal(match, names)
            if progress is not None:
                progress(played, total)
    seconds = time.perf_counter() - started
    return {
        "deals": played,
        "seed": seed,
        "rotate": rotate,
        "rules": rules.to_json(),
        "bots": bots,
        "mean_points": {name: round(points[name] / seats_played[name], 4) for name in points},
        "contracts": {name: {"won": bid[name], "made": made[name]} for name in bid},
        "seconds": round(seconds, 3),
        "deals_per_second": round(played / seconds, 1) if seconds > 0 else None,
    }


class _ProgressBar:
    """A one-line bar on a terminal, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def run_simulate(args: argparse.Namespace) -> int:
    """The ``simulate`` subcommand: 0 on success, 2 for bad arguments (a message, no
    traceback)."""
    try:
        if args.deals < 1:
            raise SimulateError("--deals", "play at least one deal (--deals 1 or more)")
        rules = parse_rules(args.rules)
        bots = parse_bots(args.bots, rules.options.players)
        records = _open_records(args.records)
    except SimulateError as exc:
        print(f"amerikaner simulate: error: {exc}", file=sys.stderr)
        return 2
    writer = None
    if records is not None:
        from app.rules.record import match_to_record

        def writer(match: Match, names: list[str]) -> None:
            assert records is not None
            records.write(json.dumps(match_to_record(match, names), separators=(",", ":")))
            records.write("\n")

    progress = _ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        summary = simulate(rules, bots, args.deals, args.seed, args.rotate, writer, progress)
    except SimulateError as exc:
        print(f"amerikaner simulate: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\namerikaner simulate: interrupted", file=sys.stderr)
        return 130
    finally:
        if records is not None:
            records.close()
    print(json.dumps(summary))
    return 0


def _open_records(path: str | None) -> TextIO | None:
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")  # closed by run_simulate
    except OSError as exc:
        raise SimulateError("--records", f"cannot write {path}: {exc.strerror}") from None
