"""Every lesson and puzzle in tutorials/content/ validates, in both languages, through the
engine and the solver — and loads."""

from __future__ import annotations

from functools import cache

import pytest

from tutorials.loader import check_files, content_dir, content_files, load_content

FILES = content_files(content_dir()) if content_dir().is_dir() else []


@cache
def checked() -> list[tuple[object, list[object], str]]:
    """Every content file read and validated once (engine and solver), both languages."""
    return list(check_files())  # type: ignore[arg-type]


@pytest.mark.skipif(not FILES, reason="tutorials/content/ has no lessons yet")
@pytest.mark.parametrize("path", [p for p, _puzzle in FILES], ids=lambda p: p.stem)
def test_content_file_validates_in_both_languages(path: object) -> None:
    problems = [
        str(problem)
        for spec, found, _digest in checked()
        for problem in found
        if spec is None or spec.source.endswith(f"/{path.name}")  # type: ignore[attr-defined]
    ]
    assert problems == []


@pytest.mark.skipif(not FILES, reason="tutorials/content/ has no lessons yet")
@pytest.mark.django_db
def test_all_content_loads() -> None:
    result = load_content()
    assert result is not None and result.refused == []
    assert result.lessons + result.puzzles == len(FILES)


def _post_move(client: object, slug: str, lang: str, move: str) -> None:
    from tests.tutorials.helpers import act

    if move == "pass":
        act(client, slug, "pass", lang=lang)  # type: ignore[arg-type]
        return
    cards, _slash, form = move.partition("/")
    act(client, slug, "answer", lang=lang, card=cards.split(), form=form)  # type: ignore[arg-type]


@pytest.mark.skipif(not FILES, reason="tutorials/content/ has no lessons yet")
@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_every_content_lesson_can_be_completed(lang: str) -> None:
    """Each step of each lesson renders and can be answered right through the views
    (the runtime path, not only the validator), in both languages."""
    from django.test import Client

    from tests.tutorials.helpers import act, current, read, step_state
    from tutorials.models import Kind, Lesson
    from tutorials.tutor import Lessonful, solution_moves

    load_content()
    for lesson in Lesson.objects.all():
        client = Client()
        ls = Lessonful.load(lesson)
        for index, step in enumerate(ls.steps):
            response = read(client, lesson.slug, index, lang)
            assert response.status_code == 200, (lesson.slug, index)
            if step.kind == Kind.WATCH:
                for _ in step.data["script"]:
                    act(client, lesson.slug, "advance", lang=lang)
            elif step.kind == Kind.CHOOSE:
                right = next(i for i, c in enumerate(step.choices.all()) if c.correct)
                act(client, lesson.slug, "answer", lang=lang, choice=str(right))
            elif step.kind == Kind.LEGAL:
                act(client, lesson.slug, "answer", lang=lang, moves=step.data["answer"])
            elif step.kind in (Kind.PLAY, Kind.PUZZLE):
                for _ in range(40):
                    state = step_state(client, lesson.slug, index)
                    if state.get("done"):
                        break
                    (move, *_rest) = solution_moves(lesson, step, index, state)
                    _post_move(client, lesson.slug, lang, move)
            if step.kind != Kind.EXPLAIN:
                assert step_state(client, lesson.slug, index).get("done"), (lesson.slug, index)
        act(client, lesson.slug, "next", lang=lang)
        assert current(client, lesson.slug).completed, lesson.slug


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "gave"),
    [("zh-hans", ["七传：", "方块 3交给了你"]), ("ja", ["7渡し：", "あなたにダイヤの3を"])],
)
def test_a_watched_gift_is_narrated_to_its_receiver(lang: str, gave: list[str]) -> None:
    """Issue 40: a lesson's scripted choice goes through the engine and is told by the
    narrator, with its cards, to the learner it was given to."""
    from django.test import Client

    from tests.tutorials.helpers import act, feedback_text, read

    load_content()
    client = Client()
    read(client, "giving-and-discarding", 1, lang)
    act(client, "giving-and-discarding", "advance", lang=lang)
    html = act(client, "giving-and-discarding", "advance", lang=lang).content.decode()
    text = feedback_text(html)
    # the card itself is named: the learner is one of the gift's two seats
    assert all(word in text for word in gave), text
