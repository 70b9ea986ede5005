"""The clubs' ratings in plain floats (app/clubs/weng_lin.py) are openskill's: the same
Plackett-Luce update, game by game, for any ratings and any ranking with ties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from app.clubs import weng_lin

MODEL = PlackettLuce()

skills = st.builds(weng_lin.Skill, st.floats(-20, 70), st.floats(0.05, 9.0))


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(
    st.lists(skills, min_size=n, max_size=n),
    st.lists(st.integers(1, n).map(float), min_size=n, max_size=n))))
def test_a_game_rates_as_openskill_rates_it(game: tuple[list[weng_lin.Skill],
                                                        list[float]]) -> None:
    players, ranks = game
    expected = MODEL.rate([[MODEL.rating(mu=p.mu, sigma=p.sigma)] for p in players],
                          ranks=ranks)
    for mine, [theirs] in zip(weng_lin.rate(players, ranks), expected, strict=True):
        assert abs(mine.mu - theirs.mu) < 1e-9
        assert abs(mine.sigma - theirs.sigma) < 1e-9


def test_the_default_rating_is_openskill_s() -> None:
    default = MODEL.rating()
    assert (weng_lin.DEFAULT.mu, weng_lin.DEFAULT.sigma) == (default.mu, default.sigma)
