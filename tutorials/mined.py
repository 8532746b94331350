"""Mined puzzles (:mod:`tutorials.mine`) as tutor lessons: texts in both languages, the
lesson spec the tutor's validator checks, and the words for goals and themes.

A mined puzzle is stored as a tutor lesson of category ``puzzles`` (one puzzle step, every
hand face up), so the tutor's own table, move handling, defence and refutations serve it;
:class:`tutorials.models.MinedPuzzle` adds its rating, themes and line. The texts are made
from the record with gettext, so they are the same words in every puzzle.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .spec import LANGS, LessonSpec, StepSpec

#: Mined puzzles come after every hand-made lesson and players' puzzle.
ORDER = 20000

THEME_NAMES = {
    "eight-cut": pgettext_lazy("puzzle theme", "8-cut"),
    "revolution": pgettext_lazy("puzzle theme", "Revolution"),
    "eleven-back": pgettext_lazy("puzzle theme", "11-back"),
    "lock": pgettext_lazy("puzzle theme", "Lock"),
    "spade-3": pgettext_lazy("puzzle theme", "Spade 3"),
    "forbidden-finish": pgettext_lazy("puzzle theme", "Forbidden finish"),
    "miyako-ochi": pgettext_lazy("puzzle theme", "Miyako-ochi"),
    "pass-until-clear": pgettext_lazy("puzzle theme", "Pass until the field clears"),
    "counting": pgettext_lazy("puzzle theme", "Counting cards"),
    "endgame": pgettext_lazy("puzzle theme", "Plain endgame"),
}

PRESET_NAMES = {
    "standard": pgettext_lazy("preset", "Standard"),
    "party": pgettext_lazy("preset", "Party"),
    "classic": pgettext_lazy("preset", "Classic"),
    "basic": pgettext_lazy("preset", "Basic (no local rules)"),
}

#: ``record["source"]`` of a puzzle found in a finished game of people on this site
#: (:mod:`tutorials.mine_games`); the lesson's ``source`` column says it too.
SOURCE_SITE = "site"

GOAL_FIRST = gettext_lazy("Go out first, whatever the others do.")
GOAL_PLACE = gettext_lazy("Finish in place %(place)s or better, whatever the others do.")


def goal_text(place: int) -> str:
    if place == 0:
        return str(GOAL_FIRST)
    return str(GOAL_PLACE) % {"place": place + 1}


def theme_name(slug: str) -> str:
    return str(THEME_NAMES.get(slug, slug))


def _texts(record: dict[str, Any]) -> dict[str, dict[str, str]]:
    from daifugo_site.review.presenter import move_label

    names = ("title", "summary", "prompt", "hint1", "hint2", "right", "other")
    out: dict[str, dict[str, str]] = {k: {} for k in names}
    for lang in LANGS:
        with translation.override(lang.replace("_", "-")):
            themes = ", ".join(theme_name(t) for t in record["themes"])
            number = record["id"]
            out["title"][lang] = _("Puzzle %(number)s") % {"number": number}
            if record.get("source") == SOURCE_SITE:
                out["summary"][lang] = _("A position from a game played on this site.")
            else:
                out["summary"][lang] = _("A position from a game between computer players.")
            out["prompt"][lang] = _(
                "Every hand is face up (%(preset)s rules). It is your turn. %(goal)s"
            ) % {"preset": PRESET_NAMES[record["preset"]], "goal": goal_text(record["place"])}
            out["hint1"][lang] = _("Themes: %(themes)s.") % {"themes": themes}
            out["hint2"][lang] = _("Start with %(move)s.") % {
                "move": move_label(record["solution"])
            }
            out["right"][lang] = _(
                "%(move)s reaches the goal against any defence: the solver checked every reply."
            ) % {"move": move_label(record["solution"])}
            out["other"][lang] = _("After that move the others can stop you.")
    return out


def lesson_spec(record: dict[str, Any]) -> LessonSpec:
    """The record as the tutor's lesson (slug ``mined-<id>``), ready to validate or save."""
    texts = _texts(record)
    return LessonSpec(
        slug=f"mined-{record['id'].lower()}",
        order=ORDER,
        category="puzzles",
        difficulty=max(1, min(5, (int(record["rating"]) - 600) // 300 + 1)),
        rules={"preset": record["preset"]},
        texts={"title": texts["title"], "summary": texts["summary"]},
        steps=[
            StepSpec(
                kind="puzzle",
                table={**record["table"], "show_hands": True},
                data={"place": record["place"], "solution": record["solution"], "unique": True},
                texts={k: texts[k] for k in ("prompt", "hint1", "hint2", "right", "other")},
            )
        ],
    )


# -- loading -------------------------------------------------------------------------------------


def data_file() -> Path:
    return Path(__file__).resolve().parent / "content" / "mined.jsonl.gz"


def read_records(path: Path | None = None) -> list[dict[str, Any]]:
    path = path or data_file()
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def record_digest(record: dict[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def load_mined(path: Path | None = None) -> str:
    """Write the mined puzzles of the data file that are new or changed (bulk inserts:
    thousands load in seconds), remove those no longer in it. Not validated again here:
    the miner validated each one, and tests/tutorials re-prove a sample."""
    from .models import Lesson, MinedPuzzle, Step

    records = read_records(path)
    wanted = {r["id"]: (r, record_digest(r)) for r in records}
    # Only the data file's own: puzzles approved from players' games are not in it.
    have = dict(MinedPuzzle.objects.filter(lesson__source="mined").values_list("key", "digest"))
    stale = [k for k, d in have.items() if k not in wanted or wanted[k][1] != d]
    removed = 0
    with transaction.atomic():
        if stale:
            removed = len(stale)
            Lesson.objects.filter(mined__key__in=stale).delete()
        fresh = [(r, d) for k, (r, d) in wanted.items() if k not in have or k in stale]
        for start in range(0, len(fresh), 500):
            _insert(fresh[start : start + 500], Lesson, Step, MinedPuzzle)
    return f"{len(records)} mined puzzles ({len(fresh)} written, {removed} removed)"


def _insert(
    batch: list[tuple[dict[str, Any], str]],
    lesson_model,
    step_model,
    mined_model,
    source: str = "mined",
) -> list[Any]:
    lessons = []
    steps = []
    for record, _digest in batch:
        spec = lesson_spec(record)
        lesson = lesson_model(
            slug=spec.slug,
            order=spec.order,
            category=spec.category,
            difficulty=spec.difficulty,
            rules=spec.rules,
            source=source,
        )
        for name in ("title", "summary"):
            for lang in LANGS:
                setattr(lesson, f"{name}_{lang}", spec.texts[name][lang])
            setattr(lesson, name, spec.texts[name]["zh_hans"])
        lessons.append(lesson)
        step_spec = spec.steps[0]
        step = step_model(order=0, kind="puzzle", table=step_spec.table, data=step_spec.data)
        for name, texts in step_spec.texts.items():
            for lang in LANGS:
                setattr(step, f"{name}_{lang}", texts[lang])
            setattr(step, name, texts["zh_hans"])
        steps.append(step)
    lesson_model.objects.bulk_create(lessons)
    slugs = [lesson.slug for lesson in lessons]
    ids = dict(lesson_model.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    for lesson, step in zip(lessons, steps, strict=True):
        step.lesson_id = ids[lesson.slug]
    step_model.objects.bulk_create(steps)
    mined_model.objects.bulk_create(
        [
            mined_model(
                key=record["id"],
                lesson_id=ids[lesson.slug],
                preset=record["preset"],
                players=record["players"],
                place=record["place"],
                solution=record["solution"],
                line=record["line"],
                themes="," + ",".join(record["themes"]) + ",",
                length=record["length"],
                rating=float(record["rating"]),
                digest=digest,
            )
            for (record, digest), lesson in zip(batch, lessons, strict=True)
        ]
    )
    return lessons
