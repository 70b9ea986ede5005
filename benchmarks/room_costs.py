"""What benchmarks/rooms.py compares the server with, measured in this process: the
engine alone playing the same scored deals with the same bots, and the costs of one
change (the store's append, the four seats' views, a bot decision).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

from room_clients import RULES_JSON  # noqa: E402

from app.bots import BOT_LEVELS, choose_action, get_bot  # noqa: E402
from app.rules import Match, RuleSet, SeatView  # noqa: E402

ENGINE_MIN_S = 1.0                        # the baseline repeats its deals at least this long
ENGINE_BUDGET_S = 30.0                    # and never runs longer


# -- the same in this process -------------------------------------------------------------

def engine_baseline(deals: int, bots: str, rng: random.Random) -> dict[str, Any]:
    """``deals`` scored deals by ``Match`` with the server run's players: a random bot in
    seat 0 (the client's stand-in), ``bots`` elsewhere; a finished match starts a new one.
    The deals are played again until ``ENGINE_MIN_S`` has passed (a few hundred deals take
    milliseconds, too short to time)."""
    rules = RuleSet.from_json(RULES_JSON)
    levels = ["random"] + [bots] * (rules.options.players - 1)
    players = [get_bot(level) for level in levels]
    match = Match(rules, rng)
    done = 0
    start = time.perf_counter()
    while (done % deals or time.perf_counter() - start < ENGINE_MIN_S) and (
            time.perf_counter() - start < ENGINE_BUDGET_S):
        if match.finished:
            match = Match(rules, rng)
        match.start_deal()
        while (seat := match.turn) is not None:
            match.apply(seat, players[seat].choose(SeatView(match, seat), rng))
        done += 1
    elapsed = time.perf_counter() - start
    return {"deals": done, "rounds": done / deals, "seconds": round(elapsed, 2),
            "deals_per_s": round(done / elapsed, 2)}  # strong: under 1 a second


def _timed(run: Callable[[], object], count: int, budget: float) -> float:
    """Mean milliseconds of ``run`` over at most ``count`` calls or ``budget`` seconds."""
    times = 0
    start = time.perf_counter()
    while times < count and time.perf_counter() - start < budget:
        run()
        times += 1
    return 1000 * (time.perf_counter() - start) / times


def in_process_costs(tmp: Path, rng: random.Random) -> dict[str, float]:
    """One change's costs on a mid-deal room: the save (one log entry), the views and
    frames of four seats, a bot's decision."""
    from app.rooms.core.effects import Save
    from app.rooms.core.records import Acted, Dealt, MatchBegun
    from app.rooms.core.room_core import RoomCore
    from app.rooms.core.state import Conn, Timing, evolve
    from app.rooms.core.views import state_sends
    from app.rooms.server.chance import chance_of
    from app.rooms.store.sqlite import SqliteStore
    from app.rules.cards import ids_of

    store = SqliteStore(tmp / "in_process")
    core, _, save = RoomCore.create("abcdefghjk", RuleSet.from_json(RULES_JSON), False,
                                    "Ann", 30, 10, Timing(0.0, 0.0), chance_of(rng))
    loop = asyncio.new_event_loop()
    loop.run_until_complete(store.append(core.code, save))
    state = core.state

    def deal() -> None:
        assert state.match is not None
        hands, kitty = state.chance.deal(state.rules)
        evolve(state, Dealt(dealer=state.match.dealer, hands=[ids_of(h) for h in hands],
                            kitty=ids_of(kitty)))

    evolve(state, MatchBegun(dealer=0))
    deal()
    match = state.match
    assert match is not None
    bot = get_bot("random")
    for _ in range(500):  # to mid-deal: some tricks played (a void deal is dealt again)
        seat = match.turn
        assert match.deal is not None
        if seat is None:
            deal()
            continue
        if match.deal.action_count >= 25:
            break
        evolve(state, Acted.of(seat, bot.choose(SeatView(match, seat), rng)))
    for i in range(len(state.seats)):
        core.conns[i] = Conn(i)
    entry = Acted(seat=1, play="KD")
    seq = [state.seq]

    def save_one() -> None:
        loop.run_until_complete(store.append(core.code, Save(seq[0], [entry], [])))
        seq[0] += 1

    def views() -> None:
        for send in state_sends(core.state, core.rt, []):
            json.dumps(send.frame, separators=(",", ":"))

    out = {"save": _timed(save_one, 2000, 2.0), "views_all_seats": _timed(views, 2000, 2.0)}
    loop.run_until_complete(store.close())
    loop.close()
    for level in BOT_LEVELS:
        out[f"bot_{level}"] = bot_decision_ms(level, random.Random(rng.random()))
    return {k: round(v, 3) for k, v in out.items()}


def bot_decision_ms(level: str, rng: random.Random, deals: int = 20,
                    budget: float = 2.0) -> float:
    """Mean milliseconds of a ``level`` decision over the positions of a few random deals."""
    rules = RuleSet.from_json(RULES_JSON)
    play = get_bot("random")
    thinking = 0.0
    decisions = 0
    start = time.perf_counter()
    match = Match(rules, rng)
    for _ in range(deals):
        if match.finished or time.perf_counter() - start > budget:
            break
        match.start_deal()
        while (seat := match.turn) is not None:
            view = SeatView(match, seat)
            t0 = time.perf_counter()
            choose_action(level, view, rng)
            thinking += time.perf_counter() - t0
            decisions += 1
            match.apply(seat, play.choose(view, rng))
    return 1000 * thinking / decisions
