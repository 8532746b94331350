"""Rating updates with OpenSkill (Weng-Lin, Plackett-Luce), on a Glicko-like scale: the
rated 1v1's players and the mined puzzles (tutorials/puzzle_rating.py) alike, so it lives
below both.

Why OpenSkill (``openskill`` on PyPI) rather than the ``glicko2`` package: it is
maintained (releases through 2026, typed), its update is made for one game at a time
(Glicko-2 assumes rating periods of many games each), and the same model rates a table
of 3-6 players should rooms become rated. The scale is set to read like Glicko: a new
player is 1500 with deviation 350; ``beta`` (the skill gap that makes a win ~76% likely)
is half of that. ``tau`` keeps the deviation from shrinking to nothing, so a rating
still moves after many games.
"""

from __future__ import annotations

from functools import cache

from openskill.models import PlackettLuce

START_MU = 1500.0
START_SIGMA = 350.0


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=START_SIGMA / 2, tau=START_SIGMA / 100)


def rate_1v1(
    winner: tuple[float, float], loser: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """New (mu, sigma) of the winner and of the loser.

    >>> (w, _), (l, _) = rate_1v1((1500, 350), (1500, 350))
    >>> w > 1500 > l and round(w - 1500) == round(1500 - l)
    True
    """
    m = model()
    a = m.rating(mu=winner[0], sigma=winner[1])
    b = m.rating(mu=loser[0], sigma=loser[1])
    [[a2], [b2]] = m.rate([[a], [b]], ranks=[1, 2])
    return (float(a2.mu), float(a2.sigma)), (float(b2.mu), float(b2.sigma))
