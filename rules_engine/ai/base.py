"""What every computer player shares: the interface, the budget, and small
card helpers that read a move's effects the way RULES.md states them.

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
    RANK_2,
    RANK_3,
    RANK_8,
    RANK_MASKS,
    REAL_MASK,
    SPADE_3,
)
from ..moves import GROUP, JOKER_ONLY, SEQUENCE, SINGLE, Move, analyse
from ..observation import Observation
from ..rules import RuleSet


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
    ``obs.owe`` cards from ``obs.hand``.
    """

    name: str

    def choose_move(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> Move: ...

    def choose_return(self, obs: Observation, rng: random.Random) -> int: ...


# -- card and move helpers ------------------------------------------------------------

_MASK_2 = RANK_MASKS[RANK_2]
_MASK_3 = RANK_MASKS[RANK_3]
_MASK_8 = RANK_MASKS[RANK_8]

_FF_JOKER, _FF_LONE, _FF_TOP, _FF_EIGHT, _FF_CUT, _FF_S3, _FF_REVO = (1 << i for i in range(7))


def strength(rank: int, rev: bool) -> int:
    """Strength 0..12 of a rank under an order, 13 for the joker."""
    if rank == JOKER_RANK or not rev:
        return rank
    return 12 - rank


def rank_count(cards: int, rank: int) -> int:
    """Ordinary cards of one rank in a card set."""
    return ((cards >> (4 * rank)) & 0xF).bit_count()


def top_rank_of(rev: bool) -> int:
    """The strongest ordinary rank under an order (2, or 3 when reversed)."""
    return RANK_3 if rev else RANK_2


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


def cuts(move: Move, rules: RuleSet) -> bool:
    """Whether a play makes an 8-cut (RULES.md section 3)."""
    ec = rules.eight_cut
    if ec == "off" or move.form == 0:
        return False
    if ec == "groups":
        return move.form != SEQUENCE and move.rank == RANK_8
    return bool(move.cards & _MASK_8)


def toggles_revolution(move: Move, rules: RuleSet) -> bool:
    """Whether a play toggles revolution."""
    if not rules.revolution:
        return False
    if move.form == GROUP:
        return move.size >= rules.revolution_group_min
    if move.form == SEQUENCE:
        smin = rules.revolution_sequence_min
        return smin is not None and move.size >= smin
    return False


def forbidden_finish(move: Move, rules: RuleSet, revolution: bool, top: Move | None) -> bool:
    """Whether going out with ``move`` would be an illegal finish (RULES.md
    section 5), judged in the state before the play.

    >>> from rules_engine.cards import parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> forbidden_finish(group_move(parse_cards("S2")), rules, False, None)
    True
    >>> forbidden_finish(group_move(parse_cards("S9")), rules, False, None)
    False
    """
    ff = rules.ff_mask
    if not ff or move.form == 0:
        return False
    if rules.forbidden_finish_sequences_exempt and move.form == SEQUENCE:
        return False
    real = move.cards & REAL_MASK
    if ff & _FF_JOKER and move.jokers:
        return True
    if ff & _FF_LONE and not real:
        return True
    if ff & _FF_TOP and real & (_MASK_3 if revolution else _MASK_2):
        return True
    if ff & _FF_EIGHT and rules.eight_cut != "off" and real & _MASK_8:
        return True
    if ff & _FF_CUT and cuts(move, rules):
        return True
    if (
        ff & _FF_S3
        and rules.spade3_return
        and move.cards == SPADE_3
        and top is not None
        and top.form == SINGLE
        and top.rank == JOKER_RANK
    ):
        return True
    return bool(ff & _FF_REVO and toggles_revolution(move, rules))


def points_for(result: tuple[int, ...], seat: int) -> int:
    """Points of a seat in a finished round: n-1 for first down to 0 for last."""
    return len(result) - 1 - result.index(seat)


def pick_legal(move: Move, legal: tuple[Move, ...] | list[Move]) -> Move | None:
    """The entry of ``legal`` equal to ``move`` (same cards and form), if any."""
    for m in legal:
        if m == move:
            return m
    return None
