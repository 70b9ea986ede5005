"""Full random deals per second of our engine against OpenSpiel's ``oh_hell`` in one run.

    python benchmarks/engine.py [--seconds 3] [--rounds 5]

A "deal" is a whole deal: shuffle and deal, auction, kitty exchange, first lead and call,
every trick, scoring (void deals that are redealt count as part of the next deal's cost).
Three figures for our side, each the best of ``--rounds`` runs of ``--seconds``:

- ``engine``: ``DealState`` driven by uniform random legal actions (what OpenSpiel's
  state API is driven by below);
- ``match``: the same through ``Match`` (totals, dealer rotation, redeals);
- ``simulate``: ``amerikaner simulate``'s own loop (``app.simulate.play_deal``): a
  single-deal ``Match`` per deal with its two seeded generators, a ``SeatView`` per seat
  and the ``random`` bot, whose auctions lean to passes (a third of the deals are redealt)
  and whose contracts all need a first lead with a call.

OpenSpiel ``oh_hell`` (4 players, ``num_tricks_fixed`` 12: 51 chance nodes deal, then
4 bids and 48 plays) is driven two ways, both from Python with the same random source:
``openspiel_chance``: chance nodes sampled from ``chance_outcomes()`` (the API for chance),
``openspiel_legal``: chance nodes sampled from ``legal_actions()`` (uniform in this game;
the fastest Python driver we know).  Ratios are printed against both.
Measurements alternate between the sides so that machine load affects them alike, and
each figure is per CPU second of this process (``time.process_time``; every run lasts
``--seconds`` of wall time), so that time the machine gives to other work counts against
neither side.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import get_bot
from app.bots.random_bot import random_discard
from app.rules import DiscardAny, Match, RuleSet
from app.rules.deal import DealState
from app.rules.match import deal_cards
from app.simulate import parse_rules, play_deal

RULES = RuleSet("standard")


def engine_deals(seconds: float, rng: random.Random) -> float:
    rand = rng.random
    done = 0
    dealer = 0
    start = time.perf_counter()
    cpu = time.process_time()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            while True:
                hands, kitty = deal_cards(RULES, rng)
                deal = DealState(RULES, dealer, hands, kitty)
                seat = deal.turn
                while seat is not None:
                    legal = deal.legal_actions()
                    action = legal[int(rand() * len(legal))]
                    if type(action) is DiscardAny:
                        action = random_discard(deal.hands[seat], action.number,
                                                deal.discard_allowed, rng)
                    deal.apply(seat, action)
                    seat = deal.turn
                if deal.outcome != "void":
                    break
            dealer = (dealer + 1) % 4
            done += 1
    return done / (time.process_time() - cpu)


def match_deals(seconds: float, rng: random.Random) -> float:
    """The engine loop through ``Match``: totals, dealer rotation, automatic redeals."""
    rand = rng.random
    rules = RULES.with_changes({"match": "deals:100"})
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    end = start + seconds
    match = Match(rules, rng)
    while time.perf_counter() < end:
        for _ in range(100):
            if match.finished:
                match = Match(rules, rng)
            match.start_deal()
            deals = match.deals
            seat = deals[-1].turn
            while seat is not None:
                deal = deals[-1]  # a void deal is redealt by the match
                legal = deal.legal_actions()
                action = legal[int(rand() * len(legal))]
                if type(action) is DiscardAny:
                    action = random_discard(deal.hands[seat], action.number,
                                            deal.discard_allowed, rng)
                match.apply(seat, action)
                seat = deals[-1].turn
            done += 1
    return done / (time.process_time() - cpu)


def simulate_deals(seconds: float, rng: random.Random) -> float:
    """What ``amerikaner simulate`` does per deal, with its own function."""
    rules = parse_rules("standard")
    bots = [get_bot("random")] * 4
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            play_deal(rules, bots, rng.getrandbits(64))
            done += 1
    return done / (time.process_time() - cpu)


def openspiel_games(seconds: float, rng: random.Random, chance_api: bool) -> float:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rand = rng.random
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                if chance_api and state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rand() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rand() * len(legal))])
            done += 1
    return done / (time.process_time() - cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
        have_openspiel = True
    except ImportError:
        have_openspiel = False
        print("open_spiel is not installed (pip install open_spiel): ours only", file=sys.stderr)
    rng = random.Random(2026)
    runs: dict[str, Callable[[], float]] = {
        "engine": lambda: engine_deals(args.seconds, rng),
        "match": lambda: match_deals(args.seconds, rng),
        "simulate": lambda: simulate_deals(args.seconds, rng),
    }
    if have_openspiel:
        runs["openspiel_chance"] = lambda: openspiel_games(args.seconds, rng, True)
        runs["openspiel_legal"] = lambda: openspiel_games(args.seconds, rng, False)
    best: dict[str, float] = dict.fromkeys(runs, 0.0)
    for _ in range(args.rounds):
        for name, run in runs.items():
            best[name] = max(best[name], run())
    out: dict[str, object] = {
        "python": platform.python_version(),
        "per_second": {k: round(v) for k, v in best.items()},
    }
    if have_openspiel:
        out["ratios"] = {
            f"{ours}/{theirs}": round(best[ours] / best[theirs], 2)
            for ours in ("engine", "match", "simulate")
            for theirs in ("openspiel_chance", "openspiel_legal")
        }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
