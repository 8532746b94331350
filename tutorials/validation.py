"""Is a lesson right? The rules engine and the solver say, step by step.

:func:`validate_lesson` checks a :class:`~tutorials.spec.LessonSpec` (from a file, the
database or an admin form being saved):

- every table state replays through the engine (rules, hands, plays);
- watch: every scripted action is legal in order, with a caption each;
- play: seat 0 is to act; every accepted move is legal; a goal is one of the known goals
  and some legal move meets it; tempting wrong moves are legal and not accepted;
- choose: at least one right and one wrong choice; each engine ``check`` holds for a
  correct choice and does not hold for a wrong one;
- legal: the answer equals the engine's legal set exactly;
- puzzle: the solver proves that seat 0 can force ``place`` or better, that the stated
  ``solution`` is a winning first move, and that the ``unique`` claim is true — within a
  node limit: a puzzle the solver cannot settle is invalid;
- texts: every text the step kind needs exists in each checked language, and every
  ``[[cards: …]]`` shortcode names real cards;
- "only" claims: a play or choose step whose explanation says a move is the only one or
  a must (zh 只有/必须/唯一/只能…, ja しか/だけ/必ず/唯一…) states ``only`` explicitly. With
  ``only = true`` the solver (all hands known, every defence) checks the claim: the step's
  moves (a play step's ``accept``, a choose step's ``solution``) are exactly the first moves
  with which seat 0 can force ``place`` or better (0 = out first); every other legal move
  falls short. ``only = false`` says the word is about the rules, not about the move.

Each :class:`~tutorials.spec.Problem` names the lesson and the step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from rules_engine import CardError, Round
from rules_engine.solver import SolverLimit, solve

from . import engine
from .shortcodes import shortcode_problems
from .spec import ACTIONS, CATEGORIES, GOALS, LANGS, STEP_TEXTS, LessonSpec, Problem, StepSpec

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: Words with which an explanation claims that a move is forced or the only good one.
#: Their presence makes ``only`` compulsory: the author must say whether the solver is to
#: check the claim (true) or the word is about the rules (false).
CLAIM_WORDS: dict[str, re.Pattern[str]] = {
    "zh_hans": re.compile(r"只有|必须|唯一|只能|非得|一定要|不得不"),
    "ja": re.compile(r"しか|だけ|必ず|唯一|なければ|ほかにない|他にない"),
}


def claim_words(text: str, lang: str) -> list[str]:
    """The "only"/"must" words of ``text`` (``lang`` a suffix: zh_hans, ja).

    >>> claim_words("能压住2的只有鬼牌。", "zh_hans")
    ['只有']
    >>> claim_words("ジョーカーで上回れば誰も返せません。", "ja")
    []
    """
    pattern = CLAIM_WORDS.get(lang)
    return sorted(set(pattern.findall(text))) if pattern else []


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    steps: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def lang_suffix(code: str) -> str:
    """``zh-hans`` / ``zh_hans`` / ``zh-Hans`` -> ``zh_hans``."""
    suffix = code.replace("-", "_").lower()
    if suffix not in LANGS:
        raise ValueError(f"unknown language {code!r}: use one of zh-hans, ja")
    return suffix


def validate_lesson(
    lesson: LessonSpec,
    langs: Iterable[str] = LANGS,
    node_limit: int = engine.PUZZLE_NODE_LIMIT,
) -> Report:
    checker = _Checker(lesson, tuple(lang_suffix(lang) for lang in langs), node_limit)
    checker.run()
    return checker.report


class _Checker:
    def __init__(self, lesson: LessonSpec, langs: tuple[str, ...], node_limit: int) -> None:
        self.lesson = lesson
        self.langs = langs
        self.node_limit = node_limit
        self.report = Report()

    def bad(
        self, message: str, index: int | None = None, kind: str = "", lang: str | None = None
    ) -> None:
        self.report.problems.append(Problem(self.lesson.slug, message, index, kind, lang))

    # -- the lesson ---------------------------------------------------------------------------

    def run(self) -> None:
        lesson = self.lesson
        if not SLUG.match(lesson.slug or ""):
            self.bad("slug must be lower-case words joined by hyphens")
        if lesson.category not in CATEGORIES:
            self.bad(f"unknown category {lesson.category!r}")
        if lesson.is_puzzle:
            if lesson.difficulty is None or not 1 <= lesson.difficulty <= 5:
                self.bad("a puzzle needs a difficulty from 1 to 5")
            if not any(step.kind == "puzzle" for step in lesson.steps):
                self.bad("a puzzle needs a step of kind puzzle")
        elif lesson.difficulty is not None:
            self.bad("difficulty is for puzzles only")
        if lesson.section and not SLUG.match(lesson.section):
            self.bad(f"section {lesson.section!r} is not a slug")
        for lang in self.langs:
            for name in ("title", "summary"):
                self.need_text(lesson.texts.get(name, {}).get(lang, ""), name, None, "", lang)
        try:
            engine.rules_of(lesson.rules)
        except engine.TableError as exc:
            self.bad(str(exc))
            return
        if not lesson.steps:
            self.bad("a lesson needs at least one step")
        for index, step in enumerate(lesson.steps):
            self.report.steps += 1
            self.check_texts(step, index)
            try:
                self.check_step(step, index)
            except engine.SolverLimit as exc:  # pragma: no cover - caught in check_puzzle
                self.bad(f"the solver gave up: {exc}", index, step.kind)
            if step.kind in ("play", "choose"):
                self.check_only_claim(step, index)

    def need_text(self, text: str, name: str, index: int | None, kind: str, lang: str) -> None:
        if not text or not text.strip():
            self.bad(f"{name} is missing", index, kind, lang)
            return
        for problem in shortcode_problems(text):
            self.bad(f"{name}: {problem}", index, kind, lang)

    def check_texts(self, step: StepSpec, index: int) -> None:
        required, optional = STEP_TEXTS.get(step.kind, ((), ()))
        kind = step.kind
        for lang in self.langs:
            for name in required:
                self.need_text(step.text(name, lang), name, index, kind, lang)
            for name in optional:
                text = step.text(name, lang)
                if text:
                    self.need_text(text, name, index, kind, lang)
                elif any(step.text(name, other) for other in LANGS):
                    self.bad(f"{name} is given in another language only", index, kind, lang)
            for i, line in enumerate(step.script, 1):
                self.need_text(
                    line.captions.get(lang, ""), f"caption of line {i}", index, kind, lang
                )
            for wrong in step.wrong:
                self.need_text(
                    wrong.texts.get(lang, ""), f"explanation of {wrong.move!r}", index, kind, lang
                )
            for i, choice in enumerate(step.choices, 1):
                self.need_text(
                    choice.texts.get("text", {}).get(lang, ""),
                    f"choice {i} text",
                    index,
                    kind,
                    lang,
                )
                self.need_text(
                    choice.texts.get("explain", {}).get(lang, ""),
                    f"choice {i} explanation",
                    index,
                    kind,
                    lang,
                )

    # -- "only" / "must" claims ----------------------------------------------------------

    def explanations(self, step: StepSpec) -> list[tuple[str, str, str]]:
        """(where, lang, text) of the texts that explain why a move is right."""
        found = []
        for lang in LANGS:
            if step.kind == "play":
                for name in ("right", "other"):
                    found.append((name, lang, step.text(name, lang)))
            else:
                for i, choice in enumerate(step.choices, 1):
                    if choice.correct:
                        text = choice.texts.get("explain", {}).get(lang, "")
                        found.append((f"choice {i} explanation", lang, text))
        return found

    def check_only_claim(self, step: StepSpec, index: int) -> None:
        kind = step.kind
        only = step.data.get("only")
        if only is None:
            for where, lang, text in self.explanations(step):
                words = claim_words(text, lang)
                if words:
                    self.bad(
                        f"{where} claims {'/'.join(words)}: state only = true (the solver "
                        "checks that no other move reaches the goal) or only = false (the "
                        "word is about the rules, not about this move)",
                        index,
                        kind,
                        lang,
                    )
            return
        if not isinstance(only, bool):
            self.bad("only must be true or false", index, kind)
            return
        if kind == "choose" and not only and "solution" in step.data:
            self.bad("solution is checked only with only = true", index, kind)
        if not only or step.table is None or not isinstance(step.table, dict):
            return
        try:
            r = engine.build_table(self.lesson.rules, step.table).round
        except engine.TableError:
            return  # reported by check_step
        if engine.is_exchange(r) or not engine.learner_to_act(r):
            self.bad("only = true needs seat 0 to play at the table state", index, kind)
            return
        place = step.data.get("place", 0)
        if isinstance(place, bool) or not isinstance(place, int) or not 0 <= place < r.n - 1:
            self.bad(f"place must be a place from 0 to {r.n - 2}", index, kind)
            return
        claimed = self.claimed_moves(step, index, r)
        if claimed is None:
            return
        try:
            result = solve(r, engine.LEARNER, place, node_limit=self.node_limit)
        except SolverLimit:
            self.bad(
                f"only = true: the solver could not settle this table within "
                f"{self.node_limit} positions: make it smaller or set only = false",
                index,
                kind,
            )
            return
        goal = "go out first" if place == 0 else f"finish in place {place + 1} or better"
        winning = {str(m) for m in result.winning_moves}
        if not winning:
            self.bad(
                f"only = true, but no move lets seat 0 force to {goal} against every defence",
                index,
                kind,
            )
            return
        if claimed != winning:
            self.bad(
                f"only = true, but the moves that force seat 0 to {goal} are "
                f"{sorted(winning)}, not {sorted(claimed)}",
                index,
                kind,
            )

    def claimed_moves(self, step: StepSpec, index: int, r: Round) -> set[str] | None:
        kind = step.kind
        if kind == "play":
            texts = step.data.get("accept")
            if not isinstance(texts, list) or not texts:
                self.bad("only = true needs accept = [...] (the moves claimed)", index, kind)
                return None
        else:
            solution = step.data.get("solution")
            if not isinstance(solution, str) or not solution.strip():
                self.bad('only = true on a choose step needs solution = "<move>"', index, kind)
                return None
            texts = [solution]
        claimed: set[str] = set()
        legal = set(engine.legal_strings(r))
        for text in texts:
            try:
                move = engine.normal_move(r, text)
            except (CardError, ValueError) as exc:
                self.bad(f"claimed move {text!r}: {exc}", index, kind)
                return None
            if move not in legal:
                self.bad(f"claimed move {text!r} is not legal here", index, kind)
                return None
            claimed.add(move)
        return claimed

    # -- the steps -------------------------------------------------------------------------

    def table(self, step: StepSpec, index: int) -> engine.Table | None:
        try:
            return engine.build_table(self.lesson.rules, step.table)
        except engine.TableError as exc:
            self.bad(f"table: {exc}", index, step.kind)
            return None

    def check_step(self, step: StepSpec, index: int) -> None:
        kind = step.kind
        if step.data.get("_bad_data"):
            self.bad("data must be an object (and its script a list)", index, kind)
            return
        if step.table is not None and not isinstance(step.table, dict):
            self.bad("table must be an object", index, kind)
            return
        if kind == "explain":
            if step.table is not None:
                self.table(step, index)
            return
        if step.table is None:
            self.bad("this kind of step needs a [steps.table]", index, kind)
            return
        table = self.table(step, index)
        if table is None:
            return
        getattr(self, f"check_{kind}")(step, index, table)

    def check_watch(self, step: StepSpec, index: int, table: engine.Table) -> None:
        if not step.script:
            self.bad("a watch step needs scripted actions", index, "watch")
        extra = step.data.get("_extra_captions")
        if extra:
            self.bad(f"{extra} caption(s) without a scripted action", index, "watch")
        r = table.round
        for i, line in enumerate(step.script, 1):
            action = line.action
            if not isinstance(action, dict) or sum(k in action for k in ACTIONS) != 1:
                self.bad(
                    f"script line {i} must be one play, pass, give, choose or name",
                    index,
                    "watch",
                )
                return
            try:
                r = engine.run_action(r, action)
            except engine.TableError as exc:
                self.bad(f"script line {i} is not legal here: {exc}", index, "watch")
                return

    def learner_must_act(self, r: Round, index: int, kind: str, play_only: bool = False) -> bool:
        if play_only and engine.is_exchange(r):
            self.bad("the table is in the exchange, not in play", index, kind)
            return False
        if not engine.learner_to_act(r):
            who = "nobody" if r.to_act < 0 else f"seat {r.to_act}"
            self.bad(
                f"seat 0 (the learner) must be to act at the table state, not {who}", index, kind
            )
            return False
        return True

    def check_play(self, step: StepSpec, index: int, table: engine.Table) -> None:
        kind = "play"
        r = table.round
        if not self.learner_must_act(r, index, kind):
            return
        accept = step.data.get("accept")
        goal = step.data.get("goal")
        if (accept is None) == (goal is None):
            self.bad("give exactly one of accept or goal", index, kind)
            return
        accepted: set[str] = set()
        if accept is not None:
            if not accept:
                self.bad("accept lists no move", index, kind)
            for text in accept:
                outcome = self.outcome(r, text, index, kind, "accepted move")
                if outcome is None:
                    continue
                if not outcome.legal:
                    self.bad(
                        f"accepted move {text!r} is not legal here ({outcome.reason})", index, kind
                    )
                accepted.add(outcome.move)
        else:
            if goal not in GOALS:
                self.bad(f"unknown goal {goal!r}: use one of {', '.join(GOALS)}", index, kind)
                return
            if engine.is_exchange(r):
                if goal != "any_legal":
                    self.bad("in the exchange, use accept (or goal any_legal)", index, kind)
            elif not any(
                engine.meets_goal(goal, r, engine.try_action(r, m)) for m in engine.legal_strings(r)
            ):
                self.bad(f"no legal move meets the goal {goal!r}", index, kind)
        seen = set()
        for wrong in step.wrong:
            outcome = self.outcome(r, wrong.move, index, kind, "wrong move")
            if outcome is None:
                continue
            if outcome.move in seen:
                self.bad(f"wrong move {wrong.move!r} is listed twice", index, kind)
            seen.add(outcome.move)
            if not outcome.legal:
                self.bad(
                    f"wrong move {wrong.move!r} is not legal here ({outcome.reason}): "
                    "list only legal moves (illegal ones get the engine's reason)",
                    index,
                    kind,
                )
            elif outcome.move in accepted or (goal and engine.meets_goal(goal, r, outcome)):
                self.bad(f"wrong move {wrong.move!r} is also accepted", index, kind)

    def outcome(
        self, r: Round, text: str, index: int, kind: str, what: str
    ) -> engine.Outcome | None:
        try:
            return engine.try_action(r, text)
        except (CardError, ValueError) as exc:
            self.bad(f"{what} {text!r}: {exc}", index, kind)
            return None

    def check_choose(self, step: StepSpec, index: int, table: engine.Table) -> None:
        kind = "choose"
        if len(step.choices) < 2:
            self.bad("a choose step needs at least two choices", index, kind)
        if not any(c.correct for c in step.choices):
            self.bad("no choice is marked correct", index, kind)
        if all(c.correct for c in step.choices):
            self.bad("every choice is marked correct", index, kind)
        for i, choice in enumerate(step.choices, 1):
            if not choice.check:
                continue
            try:
                holds, detail = engine.check_holds(table.round, choice.check)
            except engine.TableError as exc:
                self.bad(f"choice {i}: {exc}", index, kind)
                continue
            if choice.correct and not holds:
                self.bad(f"choice {i} is marked correct but its check fails: {detail}", index, kind)
            if not choice.correct and holds:
                self.bad(
                    f"choice {i} is marked wrong but its check {choice.check} holds", index, kind
                )

    def check_legal(self, step: StepSpec, index: int, table: engine.Table) -> None:
        kind = "legal"
        r = table.round
        if not self.learner_must_act(r, index, kind, play_only=True):
            return
        answer = step.data.get("answer")
        if not isinstance(answer, list):
            self.bad("answer must list move strings", index, kind)
            return
        given = set()
        for text in answer:
            try:
                given.add(engine.normal_move(r, text))
            except (CardError, ValueError) as exc:
                self.bad(f"answer {text!r}: {exc}", index, kind)
                return
        legal = set(engine.legal_strings(r))
        if given != legal:
            missing = sorted(legal - given)
            extra = sorted(given - legal)
            self.bad(
                f"answer differs from the engine's legal set: missing {missing}, not legal {extra}",
                index,
                kind,
            )
        if len(answer) != len(given):
            self.bad("answer lists a move twice", index, kind)

    def check_puzzle(self, step: StepSpec, index: int, table: engine.Table) -> None:
        kind = "puzzle"
        r = table.round
        if not self.learner_must_act(r, index, kind, play_only=True):
            return
        place = step.data.get("place", 0)
        if isinstance(place, bool) or not isinstance(place, int) or not 0 <= place < r.n - 1:
            self.bad(f"place must be a place from 0 to {r.n - 2}", index, kind)
            return
        solution = step.data.get("solution")
        if not isinstance(solution, str) or not solution.strip():
            self.bad('a puzzle needs solution = "<first move>"', index, kind)
            return
        unique = step.data.get("unique")
        if unique is not None and not isinstance(unique, bool):
            self.bad("unique must be true or false", index, kind)
            unique = None
        try:
            solution_move = engine.normal_move(r, solution)
        except (CardError, ValueError) as exc:
            self.bad(f"solution {solution!r}: {exc}", index, kind)
            return
        if solution_move not in engine.legal_strings(r):
            self.bad(f"solution {solution!r} is not a legal move here", index, kind)
            return
        try:
            result = solve(r, engine.LEARNER, place, node_limit=self.node_limit)
        except SolverLimit:
            self.bad(
                f"the solver could not settle this puzzle within {self.node_limit} "
                "positions: make it smaller",
                index,
                kind,
            )
            return
        goal = "go out first" if place == 0 else f"finish in place {place + 1} or better"
        if not result.proven:
            self.bad(
                f"not proven: seat 0 cannot force to {goal} against every defence", index, kind
            )
            return
        winning = sorted(str(m) for m in result.winning_moves)
        if solution_move not in winning:
            self.bad(
                f"solution {solution!r} does not force the goal; the winning first "
                f"moves are {winning}",
                index,
                kind,
            )
        if unique is True and len(winning) != 1:
            self.bad(f"claimed unique, but {len(winning)} first moves win: {winning}", index, kind)
        if unique is False and len(winning) == 1:
            self.bad(f"claimed not unique, but only {winning[0]!r} wins", index, kind)


def validate_all(
    lessons: Iterable[LessonSpec], langs: Iterable[str] = LANGS
) -> tuple[list[Problem], int]:
    """Every lesson's problems, plus cross-lesson ones (duplicate slugs); and steps checked."""
    problems: list[Problem] = []
    steps = 0
    seen: dict[str, str] = {}
    langs = tuple(langs)
    for lesson in lessons:
        if lesson.slug in seen:
            problems.append(Problem(lesson.slug, f"slug also used by {seen[lesson.slug]}"))
        seen[lesson.slug] = lesson.source or lesson.slug
        report = validate_lesson(lesson, langs)
        problems += report.problems
        steps += report.steps
    return problems, steps
