"""What seeing every card would be worth to the search (a diagnostic; prints, never
asserts): benchmarks/bots.py with each search level's sampled worlds replaced by the true
deal, in the decisions ``--peek`` names.

    python3 benchmarks/peek.py --peek play --common-random --deals 250 --seed 61 \\
        --pairs strong+budget=1e9+contract_budget=1e9+samples=34:easy --diffs peek_play.txt

``--peek play``: only in the trick play; ``contract``: only before it (the bids, the
kitty, the first lead and call); ``auction``, ``discard``, ``lead``: only in that one of
the contract's phases; ``all``: everywhere. Three partial peeks keep the samples but fix
one hidden fact in them: in the trick play, ``bidder``, the bidder's hand (for every
other seat), and ``partner``, who holds the called card (for the seats that do not
know); in the bids, ``kitty``, which cards the kitty holds. The other arguments are
bots.py's. Paired deal by deal with the same command's bots.py run (``pair_diffs.py``),
the difference bounds what any better inference of the hidden cards could add in those
decisions, the search itself unchanged. No bot may look: the true deal is read here
through ``SeatView``'s private field, which only a benchmark that holds the match itself
can reach.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots

import app.bots.search as search
from app.bots.sampling import PILE, Knowledge
from app.rules import DealState, Phase, SeatView

# The whole deal seen in one phase of the contract alone.
PHASES = {"auction": Phase.AUCTION, "discard": Phase.DISCARD, "lead": Phase.LEAD}
# One hidden fact pinned to the truth (``_pin``), and the phase where it is.
PARTIAL = {"bidder": Phase.PLAY, "partner": Phase.PLAY, "kitty": Phase.AUCTION}
WHERE = ("play", "contract", "all", *PARTIAL, *PHASES)


def peeking(where: str) -> type[Knowledge]:
    """A ``Knowledge`` whose every sample is the true deal in the decisions ``where``
    names, and the usual samples elsewhere."""

    class Peek(Knowledge):
        def __init__(self, view: SeatView, *args: object, **kwargs: object) -> None:
            super().__init__(view, *args, **kwargs)  # type: ignore[arg-type]
            phase = view.phase
            self.true: DealState | None = view._deal  # (see the docstring)
            if where in PARTIAL:
                self.peek = False
                if phase == PARTIAL[where] and self.true is not None:
                    self._pin(where, self.true)
            elif where in PHASES:
                self.peek = phase == PHASES[where]
            else:
                self.peek = where == "all" or (where == "play") == (phase == Phase.PLAY)

        def _pin(self, what: str, true: DealState) -> None:
            """The holders each unseen card may have, narrowed to the true one where
            ``what`` fixes it (the true deal meets every other constraint, so a sample
            still exists)."""
            bidder = self.bidder
            if what == "kitty":
                pin = self._held_by(PILE, true.kitty)
            elif what == "bidder":
                assert bidder is not None
                if self.seat == bidder:
                    return
                pin = self._held_by(bidder, true.hands[bidder])
            else:
                called = self.called
                if called is None or called not in self.allowed:
                    return  # played already, or held here: nothing hidden
                holder = next(s for s in range(self.n) if true.hands[s] >> called & 1)
                pin = dict(self.allowed)
                pin[called] = [holder]
            self.allowed = self.base_allowed = pin

        def _held_by(self, holder: int, held: int) -> dict[int, list[int]]:
            """The holders each unseen card may have, with exactly ``held`` at ``holder``."""
            return {c: [holder] if held >> c & 1 else [s for s in h if s != holder]
                    for c, h in self.allowed.items()}

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
