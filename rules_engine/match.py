"""A match: 3, 5 or 7 rounds (or the one-round 1v1 game), points, the winner.

A match is its rules, table size, number of rounds, seed and action log; its
state is rebuilt by replaying the log (:meth:`Match.from_record`).

>>> from rules_engine import RuleSet
>>> m = Match.new(RuleSet.preset("standard"), players=4, rounds=3, seed=5)
>>> m.round_no, m.scores
(0, (0, 0, 0, 0))
>>> Match.from_record(m.to_record()).round == m.round
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import Action, ActionError
from .observation import Observation, observe
from .rules import RulesError, RuleSet
from .state import _R, Refusal, Round

ROUND_COUNTS = (1, 3, 5, 7)


class RecordError(ValueError):
    """A stored game that cannot be replayed."""


def apply_to_round(r: Round, action: Action) -> Round | Refusal:
    seat = action.seat
    if action.kind == "give":
        assert action.cards is not None and seat is not None
        return r.give(seat, action.cards)
    if action.kind == "pass":
        return r.apply("pass", seat=seat)
    assert action.cards is not None
    if action.kind == "choose":
        return r.choose(seat, action.cards)
    if action.kind == "name":
        return r.name(seat, action.cards)
    return r.apply(action.cards, seat=seat, form=action.form)


#: Match's attributes (named apart from ``__slots__``, which compiled classes do not expose).
MATCH_FIELDS = ("rules", "players", "rounds", "seed", "round_no", "round", "results", "log")


class Match:
    """Immutable; :meth:`apply` returns a new match or a :class:`Refusal`."""

    __slots__ = MATCH_FIELDS

    rules: RuleSet
    players: int
    rounds: int
    seed: int | str
    round_no: int
    round: Round
    results: tuple[tuple[int, ...], ...]
    log: tuple[Action, ...]

    @classmethod
    def new(cls, rules: RuleSet, players: int, rounds: int, seed: int | str) -> Match:
        if rounds not in ROUND_COUNTS:
            raise ValueError("a match has 1, 3, 5 or 7 rounds")
        m = cls()
        m.rules = rules
        m.players = players
        m.rounds = rounds
        m.seed = seed
        m.round_no = 0
        m.results = ()
        m.log = ()
        m.round = m.deal_round(0)
        return m

    def deal_round(self, round_no: int) -> Round:
        """Round ``round_no`` as dealt (after the exchange's automatic gifts).

        At two seats no rank is carried over (RULES.md section 6, the 1v1 game): there is
        no exchange or miyako-ochi anyway, and each round is led as a first round is.
        """
        previous = None
        if round_no > 0 and self.players >= 3:
            previous = self.results[round_no - 1]
        return Round.deal(self.rules, self.players, f"{self.seed}:{round_no}", previous=previous)

    def round_log(self) -> tuple[Action, ...]:
        """The actions of the current round (everything after the last ``next``)."""
        log = self.log
        for i in range(len(log) - 1, -1, -1):
            if log[i].kind == "next":
                return log[i + 1 :]
        return log

    def replay_round(self) -> list[tuple[Action, Round, Round]]:
        """Each action of the current round with the round before and after it."""
        r = self.deal_round(self.round_no)
        steps: list[tuple[Action, Round, Round]] = []
        for action in self.round_log():
            out = apply_to_round(r, action)
            assert not isinstance(out, Refusal), "a stored action no longer applies"
            steps.append((action, r, out))
            r = out
        return steps

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its attributes (a compiled Match has no slots for pickle to read).
        return (_match_again, (tuple((n, getattr(self, n)) for n in MATCH_FIELDS),))

    def _copy(self) -> Match:
        m = Match()
        for name in MATCH_FIELDS:
            setattr(m, name, getattr(self, name))
        return m

    # -- reading -----------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far: n-1 for first place down to 0 for last, per round."""
        scores = [0] * self.players
        for result in self.results:
            for place, seat in enumerate(result):
                scores[seat] += self.players - 1 - place
        return tuple(scores)

    @property
    def round_over(self) -> bool:
        return self.round.over

    @property
    def over(self) -> bool:
        return len(self.results) == self.rounds

    def standings(self) -> list[int]:
        """Seats from best to worst: most points, ties to the better place in
        the last round played."""
        scores = self.scores
        last = self.results[-1] if self.results else tuple(range(self.players))
        return sorted(range(self.players), key=lambda s: (-scores[s], last.index(s)))

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may see now, the match's points and the rounds to come included."""
        return observe(self.round, seat, self.scores, self.rounds - 1 - self.round_no)

    @property
    def winner(self) -> int | None:
        return self.standings()[0] if self.over else None

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action) -> Match | Refusal:
        """Apply one action; refusals carry the engine's reason codes."""
        kind = action.kind
        if kind == "next":
            if not self.round.over:
                return _R["wrong_phase"]
            if self.over:
                return _R["round_over"]
            return self._next_round(action)
        if self.round.over:
            return _R["round_over"]
        if action.seat is None or not 0 <= action.seat < self.players:
            return _R["not_your_turn"]
        out = apply_to_round(self.round, action)
        if isinstance(out, Refusal):
            return out
        m = self._copy()
        m.round = out
        m.log = self.log + (action,)
        if out.over:
            assert out.result is not None
            m.results = self.results + (out.result,)
        return m

    def _next_round(self, action: Action) -> Match:
        m = self._copy()
        m.round_no = self.round_no + 1
        previous = self.results[-1] if self.players >= 3 else None
        m.round = Round.deal(
            self.rules, self.players, f"{self.seed}:{m.round_no}", previous=previous
        )
        m.log = self.log + (action,)
        return m

    # -- records -----------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "players": self.players,
            "rounds": self.rounds,
            "seed": self.seed,
            "actions": [a.to_json() for a in self.log],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Match:
        """Replay a stored game through the engine."""
        try:
            rules = RuleSet.from_json(record["rules"])
            m = cls.new(rules, int(record["players"]), int(record["rounds"]), record["seed"])
            for i, data in enumerate(record.get("actions", [])):
                out = m.apply(Action.from_json(data))
                if isinstance(out, Refusal):
                    raise RecordError(f"action {i} refused on replay: {out.reason}")
                m = out
        except (KeyError, TypeError, ValueError, RulesError, ActionError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"bad game record: {exc}") from None
        return m


def _match_again(items: tuple[tuple[str, object], ...]) -> Match:
    """A pickled Match back (see :meth:`Match.__reduce__`)."""
    m = Match()
    for name, value in items:
        setattr(m, name, value)
    return m
