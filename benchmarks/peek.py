"""What seeing every card would be worth to the search (a diagnostic; prints, never
asserts): benchmarks/bots.py with each search level's sampled worlds replaced by the true
deal, in the decisions ``--peek`` names.

    python3 benchmarks/peek.py --peek play --common-random --deals 250 --seed 61 \\
        --pairs strong+budget=1e9+contract_budget=1e9+samples=34:easy --diffs peek_play.txt

``--peek play``: only in the trick play; ``contract``: only before it (the bids, the
kitty); ``all``: everywhere.  The other arguments are bots.py's.  Paired deal by deal
with the same command's bots.py run (``pair_diffs.py``), the difference bounds what any
better inference of the hidden cards could add in those decisions, the search itself
unchanged.  No bot may look: the true deal is read here through ``SeatView``'s private
field, which only a benchmark that holds the match itself can reach.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots

import app.bots.search as search
from app.bots.sampling import Knowledge
from app.rules import DealState, Phase, SeatView

WHERE = ("play", "contract", "all")


def peeking(where: str) -> type[Knowledge]:
    """A ``Knowledge`` whose every sample is the true deal in the decisions ``where``
    names, and the usual samples elsewhere."""

    class Peek(Knowledge):
        def __init__(self, view: SeatView, *args: object, **kwargs: object) -> None:
            super().__init__(view, *args, **kwargs)  # type: ignore[arg-type]
            in_play = view.phase == Phase.PLAY
            self.peek = where == "all" or (where == "play") == in_play
            self.true: DealState | None = view._deal  # (see the docstring)

        def sample(self, rng: random.Random) -> tuple[list[int], int]:
            return ([], 0) if self.peek else super().sample(rng)

        def state(self, hands: list[int], pile: int,
                  rng: random.Random) -> DealState | None:
            if self.peek and self.true is not None:
                return self.true.copy()
            return super().state(hands, pile, rng)

    return Peek


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "--peek" or argv[1] not in WHERE:
        print(f"usage: peek.py --peek {{{','.join(WHERE)}}} BOTS.PY-ARGUMENTS...",
              file=sys.stderr)
        return 2
    with mock.patch.object(search, "Knowledge", peeking(argv[1])):
        return bots.main(argv[2:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
