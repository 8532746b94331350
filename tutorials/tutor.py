"""The tutor's actions on one step: answer, hint, solution, retry, next, back, reset.

Each action changes the visitor's :class:`~tutorials.models.Progress` (saved by the view at
once) and says where keyboard focus should go next. Feedback is stored as codes and moves,
never as sentences, so a language switch shows it in the new language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules_engine import CardError, Move, Round

from . import engine, presenter
from .models import INTERACTIVE_KINDS, Kind, Lesson, Progress, Step
from .progress import reset_lesson, reset_step, step_state

ACTIONS = ("answer", "pass", "hint", "solution", "retry", "next", "prev", "advance", "reset")
FORMS = ("group", "sequence")


@dataclass
class Lessonful:
    """A lesson with its steps loaded once per request."""

    lesson: Lesson
    steps: list[Step]

    @classmethod
    def load(cls, lesson: Lesson) -> Lessonful:
        steps = list(
            lesson.steps.prefetch_related("script_lines", "wrong_moves", "choices").order_by(
                "order", "id"
            )
        )
        return cls(lesson, steps)

    def embed_index(self) -> int:
        """The step a rules page embeds: the first interactive one (else watch, else 0)."""
        for kinds in (INTERACTIVE_KINDS, (Kind.WATCH,)):
            for index, step in enumerate(self.steps):
                if step.kind in kinds:
                    return index
        return 0


def step_key(lesson: Lesson, step: Step, index: int) -> tuple[Any, ...]:
    """Identifies a puzzle position's solver memo: the rules and table are part of it, so an
    edited lesson never reuses answers about another game."""
    return (
        lesson.pk,
        index,
        json.dumps(lesson.rules, sort_keys=True),
        json.dumps(step.table, sort_keys=True),
    )


def can_next(step: Step, state: Mapping[str, Any]) -> bool:
    return step.kind == Kind.EXPLAIN or bool(state.get("done"))


def oracle(lesson: Lesson, step: Step, index: int) -> engine.Oracle:
    return engine.oracle_for(step_key(lesson, step, index), int(step.data.get("place", 0)))


def perform(
    ls: Lessonful,
    progress: Progress,
    index: int,
    action: str,
    post: Mapping[str, Any],
    *,
    embed: bool = False,
) -> str:
    """Apply ``action`` to step ``index``; return where focus goes (see presenter)."""
    steps = ls.steps
    if action == "reset":
        if post.get("confirm") == "yes" and not embed:
            reset_lesson(progress, ls.lesson)
            return "heading"
        return "controls"
    if not 0 <= index < len(steps):
        if action == "prev" and steps and not embed:
            progress.step_index = len(steps) - 1
            return "heading"
        return "heading"
    step = steps[index]
    state = step_state(progress, index)
    if action == "next":
        if embed or not can_next(step, state):
            return "controls"
        progress.step_index = index + 1
        if progress.step_index >= len(steps):
            progress.completed = True
        return "heading"
    if action == "prev":
        if not embed and index > 0:
            progress.step_index = index - 1
        return "heading"
    if action == "hint":
        if int(state.get("hint", 0)) < presenter.hint_stages(step):
            state["hint"] = int(state.get("hint", 0)) + 1
        return "hint"
    if action == "solution":
        if step.kind in INTERACTIVE_KINDS:
            if presenter.solution_wait(state) > 0:
                state["feedback"] = {"type": "not_yet"}
                return "feedback"
            state["solution"] = True
        return "solution"
    if action == "retry":
        reset_step(state)
        return "answer"
    if action == "advance":
        if step.kind == Kind.WATCH:
            total = len(step.data.get("script", []))
            shown = min(total, int(state.get("shown", 0)) + 1)
            state["shown"] = shown
            state["feedback"] = {"type": "watch", "line": shown}
            if shown >= total:
                state["done"] = True
                return "next"
            return "advance"
        return "heading"
    if action in ("answer", "pass") and step.kind in INTERACTIVE_KINDS and not state.get("done"):
        answer = {
            Kind.PLAY: answer_play,
            Kind.CHOOSE: answer_choose,
            Kind.LEGAL: answer_legal,
            Kind.PUZZLE: answer_puzzle,
        }[Kind(step.kind)]
        answer(ls.lesson, step, index, state, action, post)
        return "next" if state.get("done") else "answer"
    return "heading"


# -- answers -------------------------------------------------------------------------------


def _learner_text(
    state: dict[str, Any], action: str, post: Mapping[str, Any]
) -> tuple[str, str | None] | None:
    """The move the form carries: ``("pass", None)``, ``("S9 H9", form)`` or None."""
    if action == "pass":
        return "pass", None
    codes = _getlist(post, "card")
    if not codes:
        state["feedback"] = {"type": "select"}
        return None
    form = post.get("form") or None
    if form not in FORMS:
        form = None
    return " ".join(codes), form


def _getlist(post: Mapping[str, Any], key: str) -> list[str]:
    getlist = getattr(post, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(key)]
    value = post.get(key, [])
    return [str(v) for v in (value if isinstance(value, list | tuple) else [value])]


def _try(state: dict[str, Any], r: Round, text: str, form: str | None) -> engine.Outcome | None:
    try:
        outcome = engine.try_action(r, text, form)
    except (CardError, ValueError):
        state["feedback"] = {"type": "unknown_card"}
        state["tries"] = int(state.get("tries", 0)) + 1
        return None
    if not outcome.legal:
        feedback = {"type": "refused", "move": outcome.move, "reason": outcome.reason}
        if outcome.reason == "not_a_combination" and _reads_both_ways(r, text):
            feedback["ambiguous"] = True
            feedback["move"] = " ".join(text.split())
        state["feedback"] = feedback
        state["tries"] = int(state.get("tries", 0)) + 1
        return None
    return outcome


def _reads_both_ways(r: Round, text: str) -> bool:
    return all(isinstance(r.move(text, form), Move) for form in FORMS)


def accepted_moves(r: Round, step: Step) -> set[str]:
    found = set()
    for text in step.data.get("accept") or []:
        try:
            found.add(engine.normal_move(r, text))
        except (CardError, ValueError):
            continue
    return found


def is_accepted(r: Round, step: Step, outcome: engine.Outcome) -> bool:
    goal = step.data.get("goal")
    if goal:
        return engine.meets_goal(goal, r, outcome)
    return outcome.move in accepted_moves(r, step)


def answer_play(
    lesson: Lesson, step: Step, index: int, state: dict[str, Any], action: str, post: Any
) -> None:
    r = engine.build_table(lesson.rules, step.table).round
    learner = _learner_text(state, action, post)
    if learner is None:
        return
    outcome = _try(state, r, *learner)
    if outcome is None:
        return
    if is_accepted(r, step, outcome):
        state["done"] = True
        state["answer"] = outcome.move
        state["feedback"] = {"type": "right", "move": outcome.move}
    else:
        state["tries"] = int(state.get("tries", 0)) + 1
        state["feedback"] = {"type": "wrong", "move": outcome.move}


def answer_choose(
    lesson: Lesson, step: Step, index: int, state: dict[str, Any], action: str, post: Any
) -> None:
    choices = list(step.choices.all())
    try:
        picked = int(post.get("choice", ""))
    except (TypeError, ValueError):
        state["feedback"] = {"type": "choose_first"}
        return
    if not 0 <= picked < len(choices):
        state["feedback"] = {"type": "choose_first"}
        return
    state["choice"] = picked
    state["feedback"] = {"type": "choice", "index": picked}
    if choices[picked].correct:
        state["done"] = True
    else:
        state["tries"] = int(state.get("tries", 0)) + 1


def answer_legal(
    lesson: Lesson, step: Step, index: int, state: dict[str, Any], action: str, post: Any
) -> None:
    r = engine.build_table(lesson.rules, step.table).round
    candidates = set(engine.quiz_candidates(r))
    picked = [m for m in _getlist(post, "moves") if m in candidates]
    state["picked"] = picked
    legal = set(engine.legal_strings(r))
    chosen = set(picked)
    if chosen == legal:
        state["done"] = True
        state["feedback"] = {"type": "legal", "correct": True}
        return
    extra = []
    for move in sorted(chosen - legal, key=picked.index):
        outcome = engine.try_action(r, move)
        extra.append([move, outcome.reason or "not_stronger"])
    state["tries"] = int(state.get("tries", 0)) + 1
    state["feedback"] = {"type": "legal", "missing": len(legal - chosen), "extra": extra}


def _action_of(r: Round, move: Move) -> dict[str, Any]:
    return presenter.answer_action(str(move), seat=r.to_act)


def answer_puzzle(
    lesson: Lesson, step: Step, index: int, state: dict[str, Any], action: str, post: Any
) -> None:
    line: list[dict[str, Any]] = list(state.get("line", []))
    table = engine.build_table(lesson.rules, step.table, line)
    r = table.round
    learner = _learner_text(state, action, post)
    if learner is None:
        return
    outcome = _try(state, r, *learner)
    if outcome is None:
        return
    assert outcome.after is not None
    solver = oracle(lesson, step, index)
    place = int(step.data.get("place", 0))
    try:
        winning = solver.wins(outcome.after)
    except engine.SolverLimit:
        state["feedback"] = {"type": "too_big"}
        return
    if not winning:
        state["tries"] = int(state.get("tries", 0)) + 1
        state["feedback"] = losing_feedback(solver, outcome, place)
        return
    after = outcome.after
    line.append(presenter.answer_action(outcome.move))
    start = len(line) - 1
    try:
        while (
            after.phase == engine.PLAY
            and after.to_act != engine.LEARNER
            and not solver.reached(after)
        ):
            reply_action = _action_of(after, solver.defence(after))
            after = engine.run_action(after, reply_action)
            line.append(reply_action)
    except engine.SolverLimit:
        state["feedback"] = {"type": "too_big"}
        return
    state["line"] = line
    # The sentences are made when shown (in the language of the page), from the line.
    done = solver.reached(after)
    state["feedback"] = {
        "type": "puzzle_done" if done else "puzzle_good",
        "move": outcome.move,
        "actions": [start, len(line)],
    }
    if done:
        state["done"] = True


def losing_feedback(solver: engine.Oracle, outcome: engine.Outcome, place: int) -> dict[str, Any]:
    """Why a legal move does not force the goal, as data: either the place it ends in, or a
    line (seat, move, place out) in which the others stop seat 0."""
    after = outcome.after
    assert after is not None
    feedback: dict[str, Any] = {"type": "puzzle_losing", "move": outcome.move, "place": place}
    decided = solver.decided(after)
    if decided is not None:
        feedback["finished"] = decided
        return feedback
    feedback["line"] = [[seat, str(move), out] for seat, move, out in solver.refutation(after)]
    return feedback


def solution_moves(lesson: Lesson, step: Step, index: int, state: Mapping[str, Any]) -> list[str]:
    """The move(s) the "show solution" button reveals for a play or puzzle step."""
    if step.kind == Kind.PLAY:
        r = engine.build_table(lesson.rules, step.table).round
        accept = sorted(accepted_moves(r, step))
        if accept:
            return accept
        goal = step.data.get("goal")
        for move in engine.legal_strings(r):
            if goal and engine.meets_goal(goal, r, engine.try_action(r, move)):
                return [move]
        return []
    if step.kind == Kind.PUZZLE:
        line = list(state.get("line", []))
        if not line:
            return [str(step.data.get("solution", ""))]
        r = engine.build_table(lesson.rules, step.table, line).round
        try:
            winning = oracle(lesson, step, index).winning_moves(r)
        except engine.SolverLimit:
            return []
        return [str(winning[0])] if winning else []
    if step.kind == Kind.LEGAL:
        r = engine.build_table(lesson.rules, step.table).round
        return engine.legal_strings(r)
    return []


def line_events(
    table: engine.Table, line_length: int, start: int, end: int
) -> list[presenter.Event]:
    """Sentences for actions ``start:end`` of a puzzle line (the last ``line_length``
    actions of ``table``'s log)."""
    offset = len(table.log) - line_length
    events: list[presenter.Event] = []
    for logged in table.log[offset + start : offset + end]:
        events += presenter.describe(logged.action, logged.seat, logged.before, logged.after)
    return events
