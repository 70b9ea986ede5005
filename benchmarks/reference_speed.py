"""This machine's speed against the reference machine of docs/performance.md and
docs/scaling.md (benchmarks/engine.py's random deals per CPU second), which the load
benchmarks print beside their CPU times.
"""

from __future__ import annotations

import random

# benchmarks/engine.py's ``engine`` figure on the machine of the figures in
# docs/performance.md and docs/scaling.md (2026-11-30): machines differ by a factor of
# three here, and a CPU time in milliseconds means little without the machine's speed
REFERENCE_ENGINE_DEALS = 17_211


# each of the three runs of ``machine_speed`` (``--speed-seconds``); the tests' tiny runs
# take 0.02 s, which still gives a figure, but one that moves more from run to run
SPEED_SECONDS = 0.5


def machine_speed(seconds: float = SPEED_SECONDS) -> dict[str, float]:
    """This machine's speed against the reference: the engine's random deals per CPU
    second of this process (best of three runs of ``seconds``), and how many times slower
    than the reference machine that is."""
    from engine import engine_deals

    rng = random.Random(1)
    deals = max(engine_deals(seconds, rng) for _ in range(3))
    slower = REFERENCE_ENGINE_DEALS / deals
    print(f"machine: {deals:,.0f} engine deals per CPU second (the reference machine of "
          f"docs/performance.md: {REFERENCE_ENGINE_DEALS:,}): {slower:.2f} times slower",
          flush=True)
    return {"engine_deals_per_cpu_s": round(deals), "times_slower_than_reference":
            round(slower, 2)}
