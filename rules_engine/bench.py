"""``python -m rules_engine bench``: seeded random full rounds, timed.

Each turn draws a move uniformly from the exact legal set (pass included) and
applies it through :meth:`Round.apply`, the same call every client uses.
"""

from __future__ import annotations

import random
import time

from .rules import RuleSet
from .state import Refusal, Round


def play_random_round(r: Round, rng: random.Random) -> tuple[Round, int, int]:
    """Play ``r`` to its end with uniform random legal moves.

    Returns the final round, the number of moves applied and of legal-move
    generations made.
    """
    moves = gens = 0
    choice = rng.choice
    while r.phase == 1:
        legal = r.legal_moves()
        gens += 1
        nxt = r.apply(choice(legal))
        if isinstance(nxt, Refusal):  # pragma: no cover - would be an engine bug
            raise AssertionError(f"legal move refused: {nxt.reason}")
        r = nxt
        moves += 1
    return r, moves, gens


def run_bench(preset: str, players: int, games: int, seed: int) -> list[tuple[str, float]]:
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    moves = gens = 0
    start = time.perf_counter()
    for i in range(games):
        r = Round.deal(rules, players, f"{seed}:{i}")
        _, m, g = play_random_round(r, rng)
        moves += m
        gens += g
    elapsed = time.perf_counter() - start
    return [
        ("games/s", games / elapsed),
        ("moves/s", moves / elapsed),
        ("legal/s", gens / elapsed),
    ]
