"""What benchmarks/soak.py concludes and how it prints it: whether the RSS and the live
heap came back near the warm figures (with their tolerances), and the units it prints.
"""

from __future__ import annotations

import argparse
from typing import Any

# the live heap's tolerance: a few hundred kilobytes of small objects, or 1 MiB
HEAP_TOLERANCE = {"blocks": 5_000, "KiB": 1_024}
MIB = 1024


def verdict(memory: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The final RSS against the empty and the warm one; did it come back?"""
    final, empty, warm = memory["rooms_expired"], memory["empty"], memory["warm"]
    tolerance = max(args.tolerance_pct / 100 * warm, args.tolerance_mib * MIB)
    back = final - warm <= tolerance
    out = {"ratio_to_empty": round(final / empty, 3), "diff_to_empty_kib": final - empty,
           "ratio_to_warm": round(final / warm, 3), "diff_to_warm_kib": final - warm,
           "rule": f"final RSS at most max({args.tolerance_pct:g} % of the warm RSS, "
                   f"{args.tolerance_mib:g} MiB) above the RSS after the warm-up room",
           "tolerance_kib": round(tolerance), "came_back": back}
    after = memory["after_each_round"]
    if len(after) > 1:  # a leak grows with every round; an allocator's high-water mark not
        out["last_round_growth_kib"] = after[-1] - after[-2]
        say(f"the last round added {signed_mib(after[-1] - after[-2])} to the one before "
            f"(the first added {signed_mib(after[0] - warm)} to the warm RSS)")
    say(f"final RSS {mib(final)}: {out['ratio_to_empty']}x the empty RSS "
        f"({signed_mib(final - empty)}), {out['ratio_to_warm']}x the warm RSS "
        f"({signed_mib(final - warm)})")
    say(f"rule: {out['rule']} (tolerance {mib(out['tolerance_kib'])})")
    say(f"memory came back near its start: {'YES' if back else 'NO'}")
    return out


def heap_verdict(heap: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The live heap after the rooms left against the one after the warm-up room: what a
    leak grows, whatever the allocator keeps of its high-water mark."""
    final, warm, unit = heap["rooms_expired"], heap["warm"], heap["unit"]
    tolerance = max(args.tolerance_pct / 100 * warm, HEAP_TOLERANCE[unit])
    back = final - warm <= tolerance
    say(f"live heap: {final:,} {unit} after the rooms left, {final - warm:+,} against the "
        f"warm-up room's {warm:,} (tolerance {tolerance:,.0f}): came back: "
        f"{'YES' if back else 'NO'}")
    return {"unit": unit, "diff_to_warm": final - warm, "tolerance": round(tolerance),
            "came_back": back}


def say(line: str) -> None:
    print(line, flush=True)


def mib(kib: float) -> str:
    return f"{kib / MIB:.1f} MiB"


def signed_mib(kib: float) -> str:
    return f"{kib / MIB:+.1f} MiB"


def ms(seconds: float) -> float:
    return round(1000 * seconds, 2)
