"""The lesson data format, as plain data: read from a TOML file or from the database.

Both the loader (files) and the admin/``check_lessons`` (database) turn a lesson into a
:class:`LessonSpec`, and :mod:`tutorials.validation` judges only specs, so a lesson is
checked the same way wherever it comes from. Reading a TOML lesson also checks its shape
(known keys, types, texts in both languages); those findings are :class:`Problem` s too.

The format (one file per lesson or puzzle) is documented in tutorials/README.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: Language suffixes of the text keys and of the modeltranslation columns.
LANGS: tuple[str, ...] = ("zh_hans", "ja")
CATEGORIES = ("basics", "local-rules", "the-round", "strategy", "puzzles")
KINDS = ("explain", "watch", "play", "choose", "legal", "puzzle")
GOALS = ("clears_field", "any_pass", "any_legal", "goes_out", "revolution")
TABLE_KEYS = {"hands", "leader", "revolution", "previous", "plays", "show_hands"}
ACTION_KEYS = {"play", "pass", "give", "choose", "name", "form", "by"}
#: The one action an action table holds: a move, an exchange gift, or a house rule's owed
#: choice (cards to give or discard, ranks to name; RULES.md section 8).
ACTIONS = ("play", "pass", "give", "choose", "name")

#: Step text fields (model columns) per kind: (required, optional). A legal quiz's
#: ``explain`` text is stored in the ``right`` column.
STEP_TEXTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "explain": (("text",), ()),
    "watch": ((), ("text",)),
    "play": (("prompt", "hint1", "hint2", "right"), ("text", "other")),
    "choose": (("question",), ("text", "hint1", "hint2")),
    "legal": (("question", "right"), ("text", "hint1", "hint2")),
    "puzzle": (("prompt", "hint1", "hint2", "right"), ("text", "other")),
}
#: Non-text keys per kind, besides ``kind`` and ``table``.
STEP_DATA_KEYS: dict[str, set[str]] = {
    "explain": set(),
    "watch": {"script"},
    "play": {"accept", "goal", "wrong", "only", "place"},
    "choose": {"choices", "only", "solution", "place"},
    "legal": {"answer"},
    "puzzle": {"place", "solution", "unique"},
}
#: TOML text key -> model column, where they differ.
TEXT_KEY_ALIASES = {("legal", "explain"): "right"}


Texts = dict[str, str]  # language suffix -> text


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a lesson, naming the lesson and (1-based) step."""

    lesson: str
    message: str
    step: int | None = None  # 0-based index
    kind: str = ""
    lang: str | None = None

    @property
    def where(self) -> str:
        if self.step is None:
            return self.lesson
        kind = f" ({self.kind})" if self.kind else ""
        return f"{self.lesson} step {self.step + 1}{kind}"

    def __str__(self) -> str:
        lang = f" [{self.lang}]" if self.lang else ""
        return f"{self.where}{lang}: {self.message}"


@dataclass
class ChoiceSpec:
    texts: dict[str, Texts]  # "text", "explain"
    correct: bool
    check: dict[str, Any] | None = None


@dataclass
class WrongSpec:
    move: str
    texts: Texts


@dataclass
class ScriptSpec:
    action: dict[str, Any]  # play/pass/give/choose/name (+ form, by)
    captions: Texts


@dataclass
class StepSpec:
    kind: str
    table: dict[str, Any] | None = None
    data: dict[str, Any] = field(default_factory=dict)
    texts: dict[str, Texts] = field(default_factory=dict)
    script: list[ScriptSpec] = field(default_factory=list)
    wrong: list[WrongSpec] = field(default_factory=list)
    choices: list[ChoiceSpec] = field(default_factory=list)

    def text(self, name: str, lang: str) -> str:
        return self.texts.get(name, {}).get(lang, "")


@dataclass
class LessonSpec:
    slug: str
    order: int = 0
    category: str = "basics"
    difficulty: int | None = None
    rules: dict[str, Any] = field(default_factory=lambda: {"preset": "basic"})
    section: str = ""
    texts: dict[str, Texts] = field(default_factory=dict)
    steps: list[StepSpec] = field(default_factory=list)
    source: str = ""

    @property
    def is_puzzle(self) -> bool:
        return self.category == "puzzles"


# -- reading the TOML format ------------------------------------------------------------------


def _texts(data: Mapping[str, Any], name: str) -> Texts:
    return {
        lang: data[f"{name}_{lang}"]
        for lang in LANGS
        if isinstance(data.get(f"{name}_{lang}"), str)
    }


def _text_names(keys: Iterable[str]) -> dict[str, str]:
    """``{"title_zh_hans": "title", …}`` for keys that end in a language suffix."""
    found = {}
    for key in keys:
        for lang in LANGS:
            if key.endswith(f"_{lang}"):
                found[key] = key[: -len(lang) - 1]
    return found


class _Reader:
    def __init__(self, slug: str) -> None:
        self.slug = slug
        self.problems: list[Problem] = []

    def bad(self, message: str, step: int | None = None, kind: str = "") -> None:
        self.problems.append(Problem(self.slug, message, step, kind))

    def texts_of(
        self,
        data: Mapping[str, Any],
        allowed: Iterable[str],
        where: str,
        step: int | None = None,
        kind: str = "",
        plain: Iterable[str] = (),
    ) -> dict[str, Texts]:
        """Read ``<name>_<lang>`` keys; report unknown keys and non-string texts."""
        allowed = set(allowed)
        plain = set(plain)
        names = _text_names(data)
        for key in data:
            if key in plain:
                continue
            name = names.get(key)
            if name is None or name not in allowed:
                self.bad(f"{where}: unknown key {key!r}", step, kind)
            elif not isinstance(data[key], str):
                self.bad(f"{where}: {key} must be a string", step, kind)
        return {name: _texts(data, name) for name in allowed if _texts(data, name)}


def read_lesson(data: Mapping[str, Any], source: str = "") -> tuple[LessonSpec, list[Problem]]:
    """A lesson from parsed TOML, and what is wrong with its shape (not its play)."""
    slug = data.get("slug")
    reader = _Reader(slug if isinstance(slug, str) and slug else (source or "?"))
    if not isinstance(slug, str) or not slug:
        reader.bad("slug must be a non-empty string")
        slug = reader.slug
    lesson = LessonSpec(slug=slug, source=source)
    plain = {"slug", "order", "category", "difficulty", "rules", "section", "steps"}
    lesson.texts = reader.texts_of(data, ("title", "summary"), "lesson", plain=plain)

    order = data.get("order", 0)
    if isinstance(order, bool) or not isinstance(order, int):
        reader.bad("order must be an integer")
    else:
        lesson.order = order
    category = data.get("category")
    if category not in CATEGORIES:
        reader.bad(f"category must be one of {', '.join(CATEGORIES)}, not {category!r}")
    else:
        lesson.category = category
    difficulty = data.get("difficulty")
    if difficulty is not None:
        if isinstance(difficulty, bool) or not isinstance(difficulty, int):
            reader.bad("difficulty must be an integer 1..5")
        else:
            lesson.difficulty = difficulty
    rules = data.get("rules", {"preset": "basic"})
    if not isinstance(rules, Mapping):
        reader.bad('rules must be a table such as { preset = "basic" }')
    else:
        lesson.rules = dict(rules)
    section = data.get("section", "")
    if not isinstance(section, str):
        reader.bad("section must be a string (a rules section slug)")
    else:
        lesson.section = section

    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        reader.bad("a lesson needs at least one [[steps]]")
        steps = []
    for index, step_data in enumerate(steps):
        lesson.steps.append(_read_step(reader, step_data, index))
    return lesson, reader.problems


def _read_step(reader: _Reader, data: Any, index: int) -> StepSpec:
    if not isinstance(data, Mapping):
        reader.bad("a step must be a table", index)
        return StepSpec(kind="explain")
    kind = data.get("kind")
    if kind not in KINDS:
        reader.bad(f"kind must be one of {', '.join(KINDS)}, not {kind!r}", index)
        return StepSpec(kind="explain")
    step = StepSpec(kind=kind)
    required, optional = STEP_TEXTS[kind]
    text_names = set(required) | set(optional)
    # TOML names that differ from the column (legal: explain -> right).
    toml_for_column = {col: name for (k, name), col in TEXT_KEY_ALIASES.items() if k == kind}
    toml_names = {toml_for_column.get(n, n) for n in text_names}
    plain = {"kind", "table"} | STEP_DATA_KEYS[kind]
    texts = reader.texts_of(data, toml_names, "step", index, kind, plain=plain)
    step.texts = {TEXT_KEY_ALIASES.get((kind, name), name): value for name, value in texts.items()}

    if "table" in data:
        table = data["table"]
        if not isinstance(table, Mapping):
            reader.bad("table must be a table", index, kind)
        else:
            step.table = dict(table)
            unknown = set(table) - TABLE_KEYS
            if unknown:
                reader.bad(f"table: unknown key(s) {sorted(unknown)}", index, kind)
            plays = table.get("plays", [])
            if not isinstance(plays, list):
                reader.bad("table: plays must be a list", index, kind)
            else:
                for i, action in enumerate(plays, 1):
                    _check_action(reader, action, f"table play {i}", index, kind)
    if kind == "watch":
        script = data.get("script")
        if not isinstance(script, list) or not script:
            reader.bad("a watch step needs at least one [[steps.script]]", index, kind)
            script = []
        for i, line in enumerate(script, 1):
            if not isinstance(line, Mapping):
                reader.bad(f"script line {i} must be a table", index, kind)
                continue
            action = {k: v for k, v in line.items() if k in ACTION_KEYS}
            captions = reader.texts_of(
                {k: v for k, v in line.items() if k not in ACTION_KEYS},
                ("caption",),
                f"script line {i}",
                index,
                kind,
            )
            _check_action(reader, action, f"script line {i}", index, kind)
            step.script.append(ScriptSpec(action, captions.get("caption", {})))
    elif kind == "play":
        if "accept" in data:
            accept = data["accept"]
            if not isinstance(accept, list) or not all(isinstance(m, str) for m in accept):
                reader.bad("accept must be a list of move strings", index, kind)
            else:
                step.data["accept"] = list(accept)
        if "goal" in data:
            step.data["goal"] = data["goal"]
        _read_only_claim(reader, data, step, index, kind)
        for i, wrong in enumerate(data.get("wrong", []) or [], 1):
            if not isinstance(wrong, Mapping) or not isinstance(wrong.get("move"), str):
                reader.bad(f'wrong move {i} needs move = "..."', index, kind)
                continue
            texts = reader.texts_of(
                wrong, ("text",), f"wrong move {i}", index, kind, plain={"move"}
            )
            step.wrong.append(WrongSpec(wrong["move"], texts.get("text", {})))
    elif kind == "choose":
        choices = data.get("choices")
        if not isinstance(choices, list):
            reader.bad("a choose step needs [[steps.choices]]", index, kind)
            choices = []
        for i, choice in enumerate(choices, 1):
            if not isinstance(choice, Mapping):
                reader.bad(f"choice {i} must be a table", index, kind)
                continue
            texts = reader.texts_of(
                choice, ("text", "explain"), f"choice {i}", index, kind, plain={"correct", "check"}
            )
            correct = choice.get("correct", False)
            if not isinstance(correct, bool):
                reader.bad(f"choice {i}: correct must be true or false", index, kind)
                correct = False
            check = choice.get("check")
            if check is not None and not isinstance(check, Mapping):
                reader.bad(f"choice {i}: check must be a table of expect keys", index, kind)
                check = None
            step.choices.append(ChoiceSpec(texts, correct, dict(check) if check else None))
        _read_only_claim(reader, data, step, index, kind)
    elif kind == "legal":
        answer = data.get("answer")
        if not isinstance(answer, list) or not all(isinstance(m, str) for m in answer):
            reader.bad("answer must be a list of move strings", index, kind)
        else:
            step.data["answer"] = list(answer)
    elif kind == "puzzle":
        for key in ("place", "solution", "unique"):
            if key in data:
                step.data[key] = data[key]
    return step


def _read_only_claim(
    reader: _Reader, data: Mapping[str, Any], step: StepSpec, index: int, kind: str
) -> None:
    """``only`` (bool), ``place`` (int) and, for choose, ``solution`` (a move string)."""
    if "only" in data:
        if not isinstance(data["only"], bool):
            reader.bad("only must be true or false", index, kind)
        else:
            step.data["only"] = data["only"]
    if "place" in data:
        place = data["place"]
        if isinstance(place, bool) or not isinstance(place, int):
            reader.bad("place must be an integer (0 = out first)", index, kind)
        else:
            step.data["place"] = place
    if "solution" in data:
        if not isinstance(data["solution"], str):
            reader.bad('solution must be a move string such as "S3 H3"', index, kind)
        else:
            step.data["solution"] = data["solution"]


def _check_action(reader: _Reader, action: Any, where: str, step: int, kind: str) -> None:
    if not isinstance(action, Mapping):
        reader.bad(f'{where} must be a table like {{play = "S3"}}', step, kind)
        return
    unknown = set(action) - ACTION_KEYS
    if unknown:
        reader.bad(f"{where}: unknown key(s) {sorted(unknown)}", step, kind)
    if sum(1 for k in ACTIONS if k in action) != 1:
        reader.bad(f"{where}: needs exactly one of {', '.join(ACTIONS)}", step, kind)


# -- reading the database ------------------------------------------------------------------------


def _model_texts(obj: Any, names: Iterable[str]) -> dict[str, Texts]:
    result: dict[str, Texts] = {}
    for name in names:
        values = {lang: getattr(obj, f"{name}_{lang}", "") or "" for lang in LANGS}
        values = {lang: text for lang, text in values.items() if text}
        if values:
            result[name] = values
    return result


STEP_TEXT_COLUMNS = ("text", "prompt", "question", "hint1", "hint2", "right", "other")


def step_from_model(
    step: Any,
    script_lines: Iterable[Any] | None = None,
    wrong_moves: Iterable[Any] | None = None,
    choices: Iterable[Any] | None = None,
) -> StepSpec:
    """A step (saved or not) as a spec; sub-objects default to the saved ones."""
    if script_lines is None:
        script_lines = step.script_lines.all() if step.pk else []
    if wrong_moves is None:
        wrong_moves = step.wrong_moves.all() if step.pk else []
    if choices is None:
        choices = step.choices.all() if step.pk else []
    data = dict(step.data) if isinstance(step.data, Mapping) else {}
    spec = StepSpec(
        kind=step.kind,
        table=dict(step.table) if isinstance(step.table, Mapping) else step.table,
        data={k: v for k, v in data.items() if k != "script"},
        texts=_model_texts(step, STEP_TEXT_COLUMNS),
    )
    if step.data is not None and not isinstance(step.data, Mapping):
        spec.data["_bad_data"] = True
    actions = data.get("script") or []
    if not isinstance(actions, list):
        spec.data["_bad_data"] = True
        actions = []
    lines = sorted(script_lines, key=lambda line: line.order)
    for i, action in enumerate(actions):
        captions = _model_texts(lines[i], ("caption",)).get("caption", {}) if i < len(lines) else {}
        spec.script.append(
            ScriptSpec(dict(action) if isinstance(action, Mapping) else action, captions)
        )
    if len(lines) > len(actions):
        spec.data["_extra_captions"] = len(lines) - len(actions)
    for wrong in wrong_moves:
        spec.wrong.append(WrongSpec(wrong.move, _model_texts(wrong, ("text",)).get("text", {})))
    for choice in sorted(choices, key=lambda c: c.order):
        spec.choices.append(
            ChoiceSpec(
                _model_texts(choice, ("text", "explain")),
                bool(choice.correct),
                dict(choice.engine_check)
                if isinstance(choice.engine_check, Mapping)
                else choice.engine_check,
            )
        )
    return spec


def lesson_from_model(lesson: Any, steps: Iterable[StepSpec] | None = None) -> LessonSpec:
    """A lesson (saved or not) as a spec; ``steps`` defaults to its saved steps."""
    if steps is None:
        steps = (
            [
                step_from_model(step)
                for step in lesson.steps.prefetch_related("script_lines", "wrong_moves", "choices")
            ]
            if lesson.pk
            else []
        )
    return LessonSpec(
        slug=lesson.slug,
        order=lesson.order,
        category=lesson.category,
        difficulty=lesson.difficulty,
        rules=dict(lesson.rules) if isinstance(lesson.rules, Mapping) else lesson.rules,
        section=lesson.section,
        texts=_model_texts(lesson, ("title", "summary")),
        steps=list(steps),
        source=lesson.source,
    )
