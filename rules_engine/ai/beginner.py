"""The beginner: legal moves with simple preferences and human mistakes.

It leads its weakest card (alone, or with the other cards of its rank), now
and then a sequence; it follows with the weakest play that beats the field,
even when that breaks a pair or spends a 2; it passes sometimes when it
could play, and once in a while plays something at random.

>>> from rules_engine import RuleSet, Round, observe
>>> r = Round.start(RuleSet.preset("basic"), ["S3 H3 D9", "C4 S5", "HK"], leader=0)
>>> str(BeginnerPlayer().choose_move(observe(r, 0), random.Random(2)))
'S3 H3'
"""

from __future__ import annotations

import random

from ..cards import JOKER_SHIFT, NUM_RANKS, REAL_MASK
from ..moves import PASS, SEQUENCE, Move
from ..observation import Observation
from ..state import NAME_CHOICE
from .base import Budget, strength
from .choices import rank_scores

#: Chance of a random legal play instead of the preferred one.
MISTAKE_RATE = 0.08
#: Chance of passing on a field it could beat.
PASS_RATE = 0.2
#: Chance of leading a sequence when it holds one.
SEQUENCE_RATE = 0.3


def _weakness(m: Move, rev: bool) -> tuple[int, int, int]:
    key_rank = (12 - m.high if rev else m.low) if m.form == SEQUENCE else strength(m.rank, rev)
    return (m.jokers, key_rank, -m.size)


class BeginnerPlayer:
    """Weakest-first play with random slips; uses only the generator it is given."""

    def __init__(self, name: str = "beginner") -> None:
        self.name = name

    def choose_move(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> Move:
        legal = obs.legal
        if not legal:
            raise ValueError("not this seat's turn to play")
        if len(legal) == 1:
            return legal[0]
        rev = obs.revolution ^ obs.jback
        plays = [m for m in legal if m.form != 0]
        if rng.random() < MISTAKE_RATE:
            return rng.choice(plays)
        if obs.field is None:
            sequences = [m for m in plays if m.form == SEQUENCE and not m.jokers]
            if sequences and rng.random() < SEQUENCE_RATE:
                return min(sequences, key=lambda m: _weakness(m, rev))
            weakest = min(
                (m for m in plays if m.form != SEQUENCE),
                key=lambda m: (m.jokers, strength(m.rank, rev), m.size),
            )
            if weakest.jokers or rng.random() < 0.5:
                return weakest
            # The whole rank of the weakest card, jokers left out.
            same = [
                m for m in plays if m.form != SEQUENCE and m.rank == weakest.rank and not m.jokers
            ]
            return max(same, key=lambda m: m.size)
        if rng.random() < PASS_RATE:
            return PASS
        return min(plays, key=lambda m: _weakness(m, rev))

    def choose_choice(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> int:
        """A house-rule choice: its weakest cards under the order in force (jokers kept),
        or the ranks that shed its weak cards and take the others' strong ones."""
        owed = obs.owed_choice
        if owed is None or owed[0] != obs.seat:
            raise ValueError("this seat owes no choice")
        _, kind, k, _ = owed
        rev = obs.revolution ^ obs.jback
        if kind == NAME_CHOICE:
            scores = rank_scores(obs.hand, obs.unseen(), rev)
            return sum(1 << r for r in sorted(range(NUM_RANKS), key=lambda r: -scores[r])[:k])
        cards = [1 << i for i in range(52) if obs.hand >> i & 1]
        cards.sort(key=lambda c: strength((c.bit_length() - 1) >> 2, rev))
        cards.extend([1 << JOKER_SHIFT] * (obs.hand >> JOKER_SHIFT))
        return sum(cards[:k])

    def choose_return(self, obs: Observation, rng: random.Random) -> int:
        owe = obs.owe
        if owe <= 0:
            return 0
        cards = [1 << i for i in range(52) if obs.hand >> i & 1]
        cards.extend([1 << JOKER_SHIFT] * (obs.hand >> JOKER_SHIFT))
        if rng.random() < MISTAKE_RATE:
            rng.shuffle(cards)
            # Even a slip keeps the joker when it can.
            cards.sort(key=lambda c: c >> JOKER_SHIFT)
        else:
            cards.sort(key=lambda c: (c >> JOKER_SHIFT, (c & REAL_MASK).bit_length()))
        chosen = 0
        for c in cards[:owe]:
            chosen += c
        return chosen
