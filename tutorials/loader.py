"""Load tutorials/content/{lessons,puzzles}/*.toml into the database, validated.

Run by ``manage.py load_site_content`` (``make run``/``make test``) through
:meth:`tutorials.apps.TutorialsConfig.load_site_content`. Idempotent: a lesson is written
only when its file changed (a hash of the file is kept), and lessons whose file is gone are
removed (lessons made in the admin, without a file, are left alone).

Every file is checked first, shape and play (:mod:`tutorials.validation`, engine and
solver). An invalid lesson is refused: it is not written, each problem is printed to
stderr, and the summary says how many were refused — loud, but the valid lessons still load.
"""

from __future__ import annotations

import hashlib
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from django.conf import settings
from django.db import transaction

from .models import Choice, Lesson, ScriptLine, Step, WrongMove
from .spec import LANGS, LessonSpec, Problem, read_lesson
from .validation import validate_lesson

#: Bump to reload every lesson even if its file did not change (a new loader).
LOADER_VERSION = "1"
FOLDERS = (("lessons", False), ("puzzles", True))


@dataclass
class LoadResult:
    lessons: int = 0
    puzzles: int = 0
    written: int = 0
    unchanged: int = 0
    removed: int = 0
    refused: list[tuple[str, list[Problem]]] = field(default_factory=list)

    def summary(self) -> str:
        text = (
            f"{self.lessons} lessons, {self.puzzles} puzzles "
            f"({self.written} written, {self.unchanged} unchanged, {self.removed} removed)"
        )
        if self.refused:
            text += f"; {len(self.refused)} REFUSED as invalid (see the problems above)"
        return text


def content_dir() -> Path:
    return Path(__file__).resolve().parent / "content"


def content_files(root: Path) -> list[tuple[Path, bool]]:
    """``(path, is_puzzle_folder)`` for every lesson and puzzle file, in a stable order."""
    found = []
    for folder, puzzles in FOLDERS:
        for path in sorted((root / folder).glob("*.toml")):
            found.append((path, puzzles))
    return found


def source_name(path: Path) -> str:
    """A content file's name as stored in ``Lesson.source``: relative to the repository."""
    base = Path(settings.BASE_DIR).resolve()
    path = path.resolve()
    return path.relative_to(base).as_posix() if path.is_relative_to(base) else path.as_posix()


def read_file(path: Path, puzzle_folder: bool) -> tuple[LessonSpec | None, list[Problem], str]:
    """Parse and shape-check one file: ``(spec or None, problems, content hash)``."""
    source = source_name(path)
    raw = path.read_bytes()
    digest = hashlib.sha256(raw + LOADER_VERSION.encode()).hexdigest()
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, [Problem(source, f"not valid TOML: {exc}")], digest
    spec, problems = read_lesson(data, source)
    if puzzle_folder != spec.is_puzzle:
        where = "puzzles/" if puzzle_folder else "lessons/"
        problems.append(
            Problem(
                spec.slug,
                f"a file in {where} must have category "
                f"{'puzzles' if puzzle_folder else 'basics, local-rules, the-round or strategy'}",
            )
        )
    if path.stem != spec.slug:
        problems.append(Problem(spec.slug, f"the file should be named {spec.slug}.toml"))
    return spec, problems, digest


def check_files(
    root: Path | None = None, langs: tuple[str, ...] = LANGS
) -> list[tuple[LessonSpec | None, list[Problem], str]]:
    """Read and fully validate every content file (no database)."""
    root = root or content_dir()
    results = []
    slugs: dict[str, str] = {}
    for path, puzzles in content_files(root):
        spec, problems, digest = read_file(path, puzzles)
        if spec is not None:
            if spec.slug in slugs:
                problems.append(Problem(spec.slug, f"slug also used by {slugs[spec.slug]}"))
            slugs[spec.slug] = spec.source
            if not problems:
                problems = validate_lesson(spec, langs).problems
        results.append((spec, problems, digest))
    return results


def load_content(
    root: Path | None = None, *, verbosity: int = 1, err: TextIO | None = None
) -> LoadResult | None:
    """Load every content file; ``None`` when the content folder does not exist."""
    root = root or content_dir()
    err = err or sys.stderr
    if not root.is_dir():
        return None
    result = LoadResult()
    sources = set()
    for spec, problems, digest in check_files(root):
        if spec is None or problems:
            name = spec.source if spec is not None else (problems[0].lesson if problems else "?")
            result.refused.append((name, problems))
            err.write(f"tutorials: REFUSED {name}: {len(problems)} problem(s)\n")
            for problem in problems:
                err.write(f"  {problem}\n")
            if spec is not None:
                sources.add(spec.source)  # keep its previous version, if any
            continue
        sources.add(spec.source)
        if spec.is_puzzle:
            result.puzzles += 1
        else:
            result.lessons += 1
        existing = Lesson.objects.filter(slug=spec.slug).first()
        if existing is not None and existing.source_hash == digest:
            result.unchanged += 1
            continue
        save_lesson(spec, digest)
        result.written += 1
        if verbosity >= 2:
            err.write(f"tutorials: wrote {spec.slug}\n")
    # Lessons loaded from this folder before whose file is gone (not admin-made ones, nor
    # ones loaded from another folder).
    prefix = source_name(root).rstrip("/") + "/"
    stale = Lesson.objects.filter(source__startswith=prefix).exclude(source__in=sources)
    result.removed = stale.count()
    stale.delete()
    return result


def _set_texts(obj: object, texts: dict[str, dict[str, str]], names: tuple[str, ...]) -> None:
    for name in names:
        for lang in LANGS:
            setattr(obj, f"{name}_{lang}", texts.get(name, {}).get(lang, ""))


@transaction.atomic
def save_lesson(spec: LessonSpec, digest: str = "") -> Lesson:
    """Write a (validated) lesson and all its steps, replacing any previous version."""
    lesson = Lesson.objects.filter(slug=spec.slug).first() or Lesson(slug=spec.slug)
    lesson.order = spec.order
    lesson.category = spec.category
    lesson.difficulty = spec.difficulty
    lesson.rules = spec.rules
    lesson.section = spec.section
    lesson.source = spec.source
    lesson.source_hash = digest
    _set_texts(lesson, spec.texts, ("title", "summary"))
    lesson.save()
    lesson.steps.all().delete()
    for index, step_spec in enumerate(spec.steps):
        data = dict(step_spec.data)
        if step_spec.script:
            data["script"] = [line.action for line in step_spec.script]
        step = Step(
            lesson=lesson, order=index, kind=step_spec.kind, table=step_spec.table, data=data
        )
        _set_texts(
            step,
            step_spec.texts,
            ("text", "prompt", "question", "hint1", "hint2", "right", "other"),
        )
        step.save()
        for i, line in enumerate(step_spec.script):
            script_line = ScriptLine(step=step, order=i)
            _set_texts(script_line, {"caption": line.captions}, ("caption",))
            script_line.save()
        for wrong in step_spec.wrong:
            wrong_move = WrongMove(step=step, move=wrong.move)
            _set_texts(wrong_move, {"text": wrong.texts}, ("text",))
            wrong_move.save()
        for i, choice_spec in enumerate(step_spec.choices):
            choice = Choice(
                step=step, order=i, correct=choice_spec.correct, engine_check=choice_spec.check
            )
            _set_texts(choice, choice_spec.texts, ("text", "explain"))
            choice.save()
    return lesson
