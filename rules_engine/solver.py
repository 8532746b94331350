"""Exact endgame search with every hand known.

The question the solver answers is the puzzle's: *can ``hero`` make sure of
finishing in place ``k`` or better (0 = first), whatever everybody else does?*
Everybody else is treated as one opponent playing against the hero (the
"paranoid" assumption), which is exactly "against every defence". The search
is an AND/OR tree over :meth:`Round.legal_moves` and :meth:`Round.apply`,
memoised on the position, with a node budget so that a question too big to
answer says so instead of running forever.

>>> from rules_engine import RuleSet, Round
>>> r = Round.start(RuleSet.preset("basic"), ["S2 S3", "HK", "D4"], leader=0)
>>> sol = solve(r, hero=0)
>>> sol.proven, [str(m) for m in sol.winning_moves]
(True, ['S2'])
>>> sol.unique
True
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from .moves import Move
from .state import NAME_CHOICE, Refusal, Round

DEFAULT_NODE_LIMIT = 2_000_000


class SolverLimit(Exception):
    """The search needed more nodes than it was allowed."""


@dataclass
class Solution:
    """``proven``: the hero can force place ``place`` or better.
    ``winning_moves``: every first move that forces it (empty when not proven).
    ``nodes``: positions searched."""

    proven: bool
    place: int
    winning_moves: list[Move] = field(default_factory=list)
    nodes: int = 0

    @property
    def unique(self) -> bool:
        return len(self.winning_moves) == 1


def position_key(r: Round) -> Hashable:
    """What decides the rest of a round: equal keys, equal futures (history aside)."""
    top = r.top
    return (
        r.hands,
        r.to_act,
        (top.cards, top.form, top.low) if top is not None else None,
        r.last,
        r.passed,
        r.revolution,
        r.jback,
        r.lock,
        r.streak,
        r.nlock,
        r.out,
        r.penalised,
        # House rules (RULES.md section 8): the turn's direction and a choice still owed.
        r.direction,
        r.pending,
    )


def hero_place(r: Round, hero: int) -> int | None:
    """The hero's final place if it is already decided, else ``None``."""
    place = r.place_of(hero)  # the engine's one reading of places (1-based)
    return None if place is None else place - 1


class Solver:
    """The memoised search for one question ("can ``hero`` force ``place`` or better?"),
    reusable across many positions: its memo keeps what earlier calls proved.

    >>> from rules_engine import RuleSet, Round
    >>> r = Round.start(RuleSet.preset("basic"), ["S2 S3", "HK", "D4"], leader=0)
    >>> solver = Solver(hero=0, place=0)
    >>> solver.wins(r.apply("S2")), solver.wins(r.apply("S3"))
    (True, False)

    A house-rule choice is searched like a move: here giving the 9 with the 7 (7渡し)
    leaves the 2 to go out with, giving the 2 does not.

    >>> r = Round.start(RuleSet.preset("basic", seven_pass="groups"), ["S7 S9 S2", "HK", "DA C4"],
    ...                 leader=0)
    >>> owed = r.apply("S7")
    >>> Solver(hero=0).wins(owed), Solver(hero=0).wins(owed.choose(0, "S2"))
    (True, False)

    ``node_limit`` bounds the positions searched per :meth:`wins` call (reset ``nodes``
    to start a new count); past it, :class:`SolverLimit` is raised.
    """

    def __init__(self, hero: int, place: int = 0, node_limit: int = DEFAULT_NODE_LIMIT) -> None:
        self.hero = hero
        self.place = place
        self.node_limit = node_limit
        self.nodes = 0
        self.memo: dict[Hashable, bool] = {}

    def wins(self, r: Round) -> bool:
        decided = hero_place(r, self.hero)
        if decided is not None:
            return decided <= self.place
        # Others who went out cleanly are above the hero for good.
        clean_above = sum(1 for s in r.out if s not in r.penalised)
        if clean_above > self.place:
            return False
        key = position_key(r)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SolverLimit(f"more than {self.node_limit} positions")
        if r.pending is not None:
            result = self._choice_wins(r)
            self.memo[key] = result
            return result
        moves = r.legal_moves()
        # Plays that empty a hand first, bigger plays before smaller: the
        # decisive lines come early and cut the search.
        moves.sort(key=lambda m: -m.size)
        if r.to_act == self.hero:
            result = False
            for move in moves:
                nxt = r.apply(move)
                assert not isinstance(nxt, Refusal)
                if self.wins(nxt):
                    result = True
                    break
        else:
            result = True
            for move in moves:
                nxt = r.apply(move)
                assert not isinstance(nxt, Refusal)
                if not self.wins(nxt):
                    result = False
                    break
        self.memo[key] = result
        return result

    def _choice_wins(self, r: Round) -> bool:
        # A house-rule choice is searched like a move: every legal choice of the seat
        # that owes it (the hero needs one that wins, any other seat's must all lose).
        owed = r.owed_choice()
        assert owed is not None
        seat, kind, _, _ = owed
        mine = seat == self.hero
        for choice in r.legal_choices():
            nxt = r.name(seat, choice) if kind == NAME_CHOICE else r.choose(seat, choice)
            assert not isinstance(nxt, Refusal)
            if self.wins(nxt) == mine:
                return mine
        return not mine


def solve(
    r: Round,
    hero: int,
    place: int = 0,
    node_limit: int = DEFAULT_NODE_LIMIT,
    all_moves: bool = True,
) -> Solution:
    """Can ``hero`` force finishing in ``place`` or better from ``r``?

    When the hero is to act, ``winning_moves`` lists every first move that
    forces it (``all_moves=False`` stops at the first). Raises
    :class:`SolverLimit` when the position is too big for ``node_limit``.
    """
    search = Solver(hero, place, node_limit)
    if r.phase != 1 or r.to_act != hero or r.pending is not None:
        proven = search.wins(r)
        return Solution(proven, place, [], search.nodes)
    winning: list[Move] = []
    for move in r.legal_moves():
        nxt = r.apply(move)
        assert not isinstance(nxt, Refusal)
        if search.wins(nxt):
            winning.append(move)
            if not all_moves:
                break
    return Solution(bool(winning), place, winning, search.nodes)


def best_place(r: Round, hero: int, node_limit: int = DEFAULT_NODE_LIMIT) -> int:
    """The best place the hero can force (0 = first), against every defence."""
    for place in range(r.n):
        if solve(r, hero, place, node_limit, all_moves=False).proven:
            return place
    return r.n - 1  # pragma: no cover - the last place is always reachable
