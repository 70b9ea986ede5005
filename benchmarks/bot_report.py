"""What benchmarks/bots.py prints: a pair's report (points, decision times, contracts,
roles, tricks as bidder, optimal plays with four tricks left) and the ``--shapes``
summary table of docs/bots.md.
"""

from __future__ import annotations

import math

from bot_stats import Stats, mean_ci, signed_ci


def report(a: str, b: str, stats: Stats, n: int) -> None:
    plays = len(stats.diffs) * n
    print(f"== {a} vs {b}: {len(stats.diffs)} deals x {n} seats = {plays} deal-plays")
    for name in (a, b):
        m, ci = mean_ci(stats.points[name])
        print(f"  {name:>7}: {m:6.2f} ± {ci:.2f} points per deal")
    m, ci = mean_ci(stats.diffs)
    print(f"  difference {a} - {b}: {m:+.2f} ± {ci:.2f}")
    for name in (a, b):
        ts = sorted(stats.times.get(name, []))
        if ts:
            print(f"  {name:>7} decisions: {len(ts)}, mean {1000 * sum(ts) / len(ts):.1f} ms, "
                  f"p95 {1000 * ts[int(0.95 * (len(ts) - 1))]:.1f} ms, "
                  f"max {1000 * ts[-1]:.1f} ms")
        cpu = sorted(stats.cpu.get(name, []))
        if cpu:
            print(f"  {name:>7} CPU time a decision: mean {1000 * sum(cpu) / len(cpu):.1f} ms, "
                  f"p95 {1000 * cpu[int(0.95 * (len(cpu) - 1))]:.1f} ms, "
                  f"max {1000 * cpu[-1]:.1f} ms")
        samples = getattr(stats, "samples", {}).get(name, [])
        if samples:
            mean = sum(samples) / len(samples)
            print(f"  {name:>7} samples a searched decision: mean {mean:.1f} "
                  f"({len(samples)} decisions)")
    for name in (a, b):
        won, made, total = stats.contracts.get(name, [0, 0, 0])
        if won:
            print(f"  {name:>7} contracts: won {won}, made {made} ({100 * made / won:.0f}%), "
                  f"mean bid {total / won:.2f}")
        roles = ", ".join(f"{role} {sum(v) / len(v):+.2f} ({len(v)})"
                          for (who, role), v in sorted(stats.roles.items()) if who == name)
        print(f"  {name:>7} points by role: {roles}")
    total = sum(len(v) for v in stats.role_diffs.values())
    parts = []
    for role, v in sorted(stats.role_diffs.items()):
        m, ci = mean_ci(v)
        parts.append(f"{role} {m:+.2f} ± {ci:.2f} x {len(v)} = {m * len(v) / total:+.2f}")
    print(f"  difference by {a}'s role (mean x deal-plays = share of the difference): "
          + "; ".join(parts))
    edges = getattr(stats, "seat_edges", {})
    if edges:
        # Against b in the same seat (the deal played by b throughout), not against the
        # table: a defender is below the table's mean whatever it plays.
        print(f"  edge over {b} in the same seat, by {a}'s role (a deal-play): "
              + "; ".join(f"{role} {signed_ci(*mean_ci(v))} ({len(v)})"
                          for role, v in sorted(edges.items())))
    pairs = getattr(stats, "role_pairs", {})
    if pairs:
        print(f"  the same edge by {a}'s role / {b}'s role in that seat (a deal-play): "
              + "; ".join(f"{key} {signed_ci(*mean_ci(v))} ({len(v)})"
                          for key, v in sorted(pairs.items())))
    if stats.side_tricks:
        ms, cs = mean_ci(stats.side_tricks)
        mr, cr = mean_ci(stats.random_tricks)
        print(f"  {a} as bidder ({len(stats.side_tricks)} deals): side takes {ms:.2f} ± {cs:.2f}"
              f" tricks; random play in the bidder's seat {mr:.2f} ± {cr:.2f}")
    if stats.choices:
        share = stats.optimal / stats.choices
        ci = 1.96 * math.sqrt(share * (1 - share) / stats.choices)
        print(f"  {a} optimal with four tricks left where it matters: {stats.optimal} of "
              f"{stats.choices} = {100 * share:.1f}% ± {100 * ci:.1f}")


def table_row(shape: str, a: str, b: str, stats: Stats) -> str:
    """One line of ``--shapes``' summary table."""
    m, ci = mean_ci(stats.diffs)
    share = "-"
    if stats.choices:
        p = stats.optimal / stats.choices
        share = f"{100 * p:.1f} % ± {196 * math.sqrt(p * (1 - p) / stats.choices):.1f}"
    return (f"| {shape} | {a} - {b} | {m:+.2f} ± {ci:.2f} | {share} "
            f"| {_mean_p95(stats.times.get(a, []))} | {_mean_p95(stats.cpu.get(a, []))} |")


def _mean_p95(values: list[float]) -> str:
    ts = sorted(values)
    if not ts:
        return "-"
    return f"{1000 * sum(ts) / len(ts):.0f} / {1000 * ts[int(0.95 * (len(ts) - 1))]:.0f}"


TABLE_HEAD = ["| shape | pair | edge a deal | optimal, 4 tricks left | a's time ms, mean / p95 "
              "| a's CPU ms, mean / p95 |", "|---|---|---|---|---|---|"]


def print_table(saved: dict[tuple[str, str, str], Stats]) -> None:
    """The Markdown table of docs/bots.md, a row per shape and pair."""
    print("\n".join([*TABLE_HEAD, *(table_row(shape, a, b, stats)
                                     for (shape, a, b), stats in saved.items())]))
