"""What every computer player shares: the interface, the budget, and small
card helpers; a move's rule effects come from :mod:`rules_engine.effects`, the
functions the engine itself judges plays with.

A player sees an :class:`~rules_engine.observation.Observation` (one seat's
view) and nothing else. Helpers here work on card sets and moves only.

>>> from rules_engine.cards import parse_cards
>>> strength(0, False), strength(0, True), strength(13, True)
(0, 12, 13)
>>> str(group_move(parse_cards("S7 D7")))
'S7 D7'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..cards import (
    JOKER_RANK,
    JOKER_SHIFT,
    RANK_MASKS,
    REAL_MASK,
)
from ..moves import GROUP, JOKER_ONLY, SEQUENCE, SINGLE, Move, analyse
from ..observation import Observation


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a player may think about one move.

    ``time_ms``: limit in milliseconds of CPU time of the searching thread
    (``None``: no limit; CPU, not wall, time: load slows a search, it does
    not cut it short);
    ``playouts``: limit on simulated games (``None``: no limit). A search
    stops at whichever comes first. A playouts-only budget makes the advanced
    player's choice a pure function of the observation and the random seed;
    with a time limit, where the clock stops the search may vary.

    >>> Budget(time_ms=300).playouts is None
    True
    """

    time_ms: float | None = None
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.time_ms is not None and self.time_ms <= 0:
            raise ValueError("time_ms must be positive")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("playouts must be at least 1")


@runtime_checkable
class Player(Protocol):
    """A computer player: one interface for every level.

    ``choose_move`` is called when ``obs.to_act == obs.seat`` in the play
    phase and returns one of ``obs.legal``. ``choose_return`` is called in
    the exchange phase when ``obs.owe > 0`` and returns a card set of exactly
    ``obs.owe`` cards from ``obs.hand``. ``choose_choice`` is called when the seat owes
    a house-rule choice (``obs.owed_choice``, RULES.md section 8) and returns a card set
    of the size owed from ``obs.hand`` (to give or discard) or a set of ranks to name
    (bit r: rank r).
    """

    name: str

    def choose_move(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> Move: ...

    def choose_return(self, obs: Observation, rng: random.Random) -> int: ...

    def choose_choice(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> int: ...


# -- card and move helpers ------------------------------------------------------------


def strength(rank: int, rev: bool) -> int:
    """Strength 0..12 of a rank under an order, 13 for the joker."""
    if rank == JOKER_RANK or not rev:
        return rank
    return 12 - rank


def rank_count(cards: int, rank: int) -> int:
    """Ordinary cards of one rank in a card set."""
    return ((cards >> (4 * rank)) & 0xF).bit_count()


_GROUP_MOVES: dict[int, Move] = {}


def group_move(cards: int) -> Move:
    """The single or group made of ordinary cards of one rank (cached).

    Raises ``ValueError`` when the cards are not one rank.
    """
    move = _GROUP_MOVES.get(cards)
    if move is None:
        real = cards & REAL_MASK
        if not real or cards >> JOKER_SHIFT:
            if real or not cards:
                raise ValueError("not a group of one rank")
            move = JOKER_ONLY[cards >> JOKER_SHIFT]
        else:
            rank = ((real & -real).bit_length() - 1) >> 2
            if real & ~RANK_MASKS[rank]:
                raise ValueError("not a group of one rank")
            form = SINGLE if real.bit_count() == 1 else GROUP
            move = Move(cards, form, rank, rank, rank)
        _GROUP_MOVES[cards] = move
    return move


_SEQ_MOVES: dict[tuple[int, bool, int], Move | None] = {}


def sequence_move(cards: int, rev: bool, sequence_min: int) -> Move | None:
    """The sequence ``cards`` make under an order, or ``None`` (cached)."""
    key = (cards, rev, sequence_min)
    if key in _SEQ_MOVES:
        return _SEQ_MOVES[key]
    move = analyse(cards, SEQUENCE, rev, sequence_min)
    if len(_SEQ_MOVES) > 100_000:
        _SEQ_MOVES.clear()
    _SEQ_MOVES[key] = move
    return move


def points_for(result: tuple[int, ...], seat: int) -> int:
    """Points of a seat in a finished round: n-1 for first down to 0 for last."""
    return len(result) - 1 - result.index(seat)


def pick_legal(move: Move, legal: tuple[Move, ...] | list[Move]) -> Move | None:
    """The entry of ``legal`` equal to ``move`` (same cards and form), if any."""
    for m in legal:
        if m == move:
            return m
    return None
