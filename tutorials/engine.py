"""The tutor's use of the rules engine: tables, the learner's actions, goals, puzzles.

Nothing here knows about Django: the same functions serve validation (is this lesson
right?) and the views (is the learner's answer right?), so the two can never disagree.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine import CardError, Move, Refusal, Round, RulesError, RuleSet, parse_cards
from rules_engine.cards import format_cards
from rules_engine.effects import WENT_OUT
from rules_engine.scenarios import EXPECT_KEYS, ScenarioError, apply_step, build_round
from rules_engine.scenarios import validate as validate_scenario
from rules_engine.solver import SolverLimit, hero_place, position_key
from rules_engine.state import EXCHANGE, PLAY

from .spec import ACTIONS

LEARNER = 0
#: A puzzle the solver cannot settle within this many positions is refused: the tutor
#: answers every move of a puzzle with the solver, in the request.
PUZZLE_NODE_LIMIT = 400_000


class TableError(ValueError):
    """The table state cannot be built (bad rules, hands or an illegal play)."""


@dataclass
class Logged:
    """One action replayed at a table: who did what, and the round before and after."""

    action: dict[str, Any]
    seat: int
    before: Round
    after: Round


@dataclass
class Table:
    """A table state reached through the engine, and how it was reached."""

    start: Round
    round: Round
    log: list[Logged] = field(default_factory=list)


def rules_of(rules: Any) -> RuleSet:
    try:
        return RuleSet.from_json(rules)
    except (RulesError, TypeError) as exc:
        raise TableError(f"rules: {exc}") from None


def actor_of(r: Round, action: Mapping[str, Any]) -> int:
    if "by" in action and action["by"] is not None:
        return int(action["by"])
    return r.to_act


def run_action(r: Round, action: Mapping[str, Any]) -> Round:
    """Apply one play/pass/give/choose/name step (SCENARIOS.md); TableError if the engine
    refuses."""
    try:
        nxt, problem = apply_step(r, action)
    except (CardError, ValueError) as exc:
        raise TableError(str(exc)) from None
    if problem:
        raise TableError(problem)
    return nxt


def build_table(rules: Any, table: Mapping[str, Any] | None, extra: Sequence[Any] = ()) -> Table:
    """Replay ``table`` (hands, leader, revolution, previous, plays) and then ``extra``
    actions through the engine. Raises :class:`TableError` naming what went wrong."""
    if not isinstance(table, Mapping):
        raise TableError("the step needs a table")
    plays = list(table.get("plays") or [])
    scenario = {
        "name": "table",
        "rules": rules,
        "hands": table.get("hands"),
        "steps": plays,
    }
    for key in ("leader", "revolution", "previous"):
        if key in table and table[key] is not None:
            scenario[key] = table[key]
    try:
        validate_scenario(scenario)
    except ScenarioError as exc:
        raise TableError(str(exc)) from None
    for i, action in enumerate(plays, 1):
        if not any(k in action for k in ACTIONS):
            raise TableError(
                f"table play {i}: only play, pass, give, choose and name steps build a table"
            )
    try:
        start = build_round(scenario)
    except ScenarioError as exc:
        raise TableError(str(exc)) from None
    result = Table(start, start)
    r = start
    for i, action in enumerate([*plays, *extra], 1):
        seat = actor_of(r, action)
        try:
            nxt = run_action(r, action)
        except TableError as exc:
            where = f"table play {i}" if i <= len(plays) else f"action {i - len(plays)}"
            raise TableError(f"{where}: {exc}") from None
        result.log.append(Logged(dict(action), seat, r, nxt))
        r = nxt
    result.round = r
    return result


# -- the learner's actions ----------------------------------------------------------------------


def is_exchange(r: Round) -> bool:
    return r.phase == EXCHANGE


def learner_to_act(r: Round) -> bool:
    """Whether seat 0 has something to do: its turn in play, or cards owed in the exchange."""
    if r.phase == PLAY:
        return r.to_act == LEARNER
    if r.phase == EXCHANGE:
        return r.owed[LEARNER] > 0
    return False


def split_move(text: str) -> tuple[str, str | None]:
    """``"S5 JK JK/group"`` -> ``("S5 JK JK", "group")``."""
    cards, _slash, form = text.strip().partition("/")
    return cards.strip(), (form.strip() or None)


@dataclass
class Outcome:
    """What the engine made of one learner action."""

    move: str  # canonical move string ("pass", "S9 H9", "S5 JK JK/group", or gift cards)
    after: Round | None  # None when refused
    reason: str | None = None  # refusal reason code

    @property
    def legal(self) -> bool:
        return self.after is not None


def try_action(r: Round, text: str, form: str | None = None) -> Outcome:
    """Seat 0 tries ``text`` (a move string, or cards to give in the exchange).

    Raises :class:`CardError` for a card that does not exist.
    """
    text = text.strip()
    if "/" in text:
        text, form = split_move(text)
    if is_exchange(r):
        cards = parse_cards(text, 2)
        canonical = format_cards(cards)
        out = r.give(LEARNER, canonical)
        if isinstance(out, Refusal):
            return Outcome(canonical, None, out.reason)
        return Outcome(canonical, out)
    if text == "pass":
        move_text = "pass"
    else:
        parse_cards(text, 2)  # CardError for an unknown card, before anything else
        move = r.move(text, form)
        move_text = str(move) if isinstance(move, Move) else " ".join(text.split())
    out = r.apply(text, seat=LEARNER, form=form)
    if isinstance(out, Refusal):
        return Outcome(move_text, None, out.reason)
    return Outcome(move_text, out)


def normal_move(r: Round, text: str) -> str:
    """The canonical string of a move written by an author (CardError for bad cards)."""
    cards, form = split_move(text)
    if is_exchange(r):
        return format_cards(parse_cards(cards, 2))
    if cards == "pass":
        return "pass"
    parse_cards(cards, 2)
    move = r.move(cards, form)
    if isinstance(move, Move):
        return str(move)
    return " ".join(cards.split()) + (f"/{form}" if form else "")


def meets_goal(goal: str, before: Round, outcome: Outcome) -> bool:
    after = outcome.after
    if after is None:
        return False
    if goal == "any_legal":
        return True
    if goal == "any_pass":
        return outcome.move == "pass"
    if goal == "clears_field":
        return after.phase == PLAY and after.top is None
    if goal == "goes_out":
        return LEARNER in after.out and LEARNER not in before.out
    if goal == "revolution":
        return after.revolution != before.revolution
    return False


def legal_strings(r: Round) -> list[str]:
    return r.legal_strings() if r.phase == PLAY else []


def quiz_candidates(r: Round) -> list[str]:
    """What a legal quiz offers: every play seat 0's hand could make on an empty field
    (the current order), and pass. The legal ones are a subset."""
    hand = r.hands[LEARNER]
    filler = next(
        (1 << i for i in range(52) if not (hand | _all_hands(r)) >> i & 1),
        None,
    )
    candidates: list[str] = []
    if filler is not None and hand:
        lead = Round.start(
            r.rules, [hand, filler], leader=LEARNER, revolution=r.revolution ^ r.jback
        )
        candidates = lead.legal_strings()
    extra = [m for m in legal_strings(r) if m not in candidates]
    return ["pass", *[m for m in candidates if m != "pass"], *[m for m in extra if m != "pass"]]


def _all_hands(r: Round) -> int:
    total = 0
    for h in r.hands:
        total |= h
    return total & ((1 << 52) - 1)


def check_holds(r: Round, check: Mapping[str, Any]) -> tuple[bool, str]:
    """Whether scenario ``expect`` keys hold at ``r`` (and what differs when not)."""
    unknown = set(check) - EXPECT_KEYS
    if unknown:
        raise TableError(f"unknown check key(s) {sorted(unknown)}")
    try:
        _r, problem = apply_step(r, {"expect": dict(check)})
    except (CardError, ValueError, TypeError) as exc:
        raise TableError(f"check: {exc}") from None
    return problem is None, problem or ""


# -- puzzles -----------------------------------------------------------------------------------


class Oracle:
    """The solver's answers for one puzzle goal (hero = seat 0, ``place`` or better),
    memoised across questions: the tutor asks many about nearby positions.

    It reuses the engine's exhaustive search (``rules_engine.solver``) position by
    position; ``solve()`` itself answers only at the root.
    """

    def __init__(self, place: int, node_limit: int = PUZZLE_NODE_LIMIT) -> None:
        from rules_engine.solver import Solver  # the solver's memoised search

        self.place = place
        self.search = Solver(LEARNER, place, node_limit)
        self.lock = threading.Lock()

    def decided(self, r: Round) -> int | None:
        return hero_place(r, LEARNER)

    def reached(self, r: Round) -> bool:
        place = self.decided(r)
        return place is not None and place <= self.place

    def lost(self, r: Round) -> bool:
        place = self.decided(r)
        if place is not None:
            return place > self.place
        clean_above = sum(1 for s in r.out if s not in r.penalised)
        return clean_above > self.place

    def wins(self, r: Round) -> bool:
        """Can seat 0 force the goal from ``r`` (whoever is to act)? SolverLimit if too big."""
        with self.lock:
            self.search.nodes = 0
            return self.search.wins(r)

    def winning_moves(self, r: Round) -> list[Move]:
        return [m for m in r.legal_moves() if self.wins(_apply(r, m))]

    def defence(self, r: Round) -> Move:
        """The defenders' deterministic answer at ``r`` (a defender to act): the move after
        which seat 0's set of winning moves is smallest, ties by move order."""
        best: Move | None = None
        best_score = None
        memo: dict[Hashable, int] = {}
        for move in r.legal_moves():
            score = self._score(_apply(r, move), memo, depth=0)
            if best_score is None or score < best_score:
                best, best_score = move, score
        assert best is not None
        return best

    def _score(self, r: Round, memo: dict[Hashable, int], depth: int) -> int:
        if self.decided(r) is not None or r.phase != PLAY:
            return 1_000  # the hero's fate is sealed: the worst answer for a defender
        if r.to_act == LEARNER:
            return len(self.winning_moves(r))
        if depth >= r.n:
            return 1_000
        key = position_key(r)
        if key not in memo:
            memo[key] = min(self._score(_apply(r, m), memo, depth + 1) for m in r.legal_moves())
        return memo[key]

    def refutation(self, r: Round, budget: int = 20_000) -> list[tuple[int, Move, int | None]]:
        """After a losing move of seat 0 (``r`` is the position after it): a line that shows
        it, as ``(seat, move, place)`` with ``place`` (1-based) when that move takes a seat
        out. The others play to stop seat 0 as fast as they can, seat 0 plays its most
        stubborn defence; the line ends when the goal is out of reach. If that line is too
        costly to find, only the others' replies up to seat 0's next turn."""
        try:
            return self._longest_line(r, budget)
        except _Budget:
            return self._replies(r)

    def _replies(self, r: Round) -> list[tuple[int, Move, int | None]]:
        line: list[tuple[int, Move, int | None]] = []
        while r.phase == PLAY and r.to_act != LEARNER and not self.lost(r) and len(line) < 12:
            keep = [m for m in r.legal_moves() if not self.wins(_apply(r, m))]
            if not keep:  # pragma: no cover - r is lost for seat 0, so a reply exists
                break
            settling = [m for m in keep if self.lost(_apply(r, m))]
            move = (settling or keep)[0]
            nxt = _apply(r, move)
            line.append((r.to_act, move, _out_place(r, nxt)))
            r = nxt
        return line

    def _longest_line(self, r: Round, budget: int) -> list[tuple[int, Move, int | None]]:
        memo: dict[Hashable, tuple[int, Move | None]] = {}
        counter = [0]

        def depth(pos: Round) -> int:
            if self.lost(pos) or pos.phase != PLAY:
                return 0
            key = position_key(pos)
            if key in memo:
                return memo[key][0]
            counter[0] += 1
            if counter[0] > budget:
                raise _Budget
            memo[key] = (10_000, None)  # a cycle cannot happen (cards only leave); be safe
            hero = pos.to_act == LEARNER
            best: tuple[int, Move | None] | None = None
            for move in pos.legal_moves():
                nxt = _apply(pos, move)
                if not hero and self.wins(nxt):
                    continue  # the others keep seat 0 from the goal
                d = 1 + depth(nxt)
                if best is None or (d > best[0] if hero else d < best[0]):
                    best = (d, move)
            memo[key] = best if best is not None else (0, None)
            return memo[key][0]

        depth(r)
        line: list[tuple[int, Move, int | None]] = []
        while not self.lost(r) and r.phase == PLAY and len(line) < 40:
            move = memo.get(position_key(r), (0, None))[1]
            if move is None:
                break
            nxt = _apply(r, move)
            line.append((r.to_act, move, _out_place(r, nxt)))
            r = nxt
        return line


class _Budget(Exception):
    pass


def _out_place(before: Round, after: Round) -> int | None:
    """The 1-based place of the seat that just went out cleanly, if one did (the
    engine's own record of the move)."""
    return next((e.place for e in after.effects if e.kind == WENT_OUT), None)


def _apply(r: Round, move: Move) -> Round:
    nxt = r.apply(move)
    assert not isinstance(nxt, Refusal), nxt
    return nxt


_ORACLES: OrderedDict[Hashable, Oracle] = OrderedDict()
_ORACLES_LOCK = threading.Lock()
ORACLE_CACHE_SIZE = 8


def oracle_for(key: Hashable, place: int) -> Oracle:
    """A process-wide oracle per puzzle step (few puzzles are open at once)."""
    with _ORACLES_LOCK:
        oracle = _ORACLES.get((key, place))
        if oracle is None:
            oracle = Oracle(place)
            _ORACLES[(key, place)] = oracle
            while len(_ORACLES) > ORACLE_CACHE_SIZE:
                _ORACLES.popitem(last=False)
        else:
            _ORACLES.move_to_end((key, place))
        return oracle


__all__ = [
    "LEARNER",
    "PUZZLE_NODE_LIMIT",
    "Logged",
    "Oracle",
    "Outcome",
    "SolverLimit",
    "Table",
    "TableError",
    "build_table",
    "check_holds",
    "learner_to_act",
    "legal_strings",
    "meets_goal",
    "normal_move",
    "oracle_for",
    "quiz_candidates",
    "rules_of",
    "try_action",
]
