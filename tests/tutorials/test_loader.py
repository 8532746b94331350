"""Loading lesson files: idempotent, validated, loud about what it refuses."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tutorials.conftest import FIXTURES, LESSON, PUZZLE
from tutorials.loader import load_content
from tutorials.models import Choice, Lesson, ScriptLine, Step, WrongMove

pytestmark = pytest.mark.django_db


def copy_fixtures(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(FIXTURES, root)
    return root


def test_load_writes_every_part_in_both_languages() -> None:
    result = load_content(FIXTURES)
    assert result is not None
    assert (result.lessons, result.puzzles, result.written, result.refused) == (1, 1, 2, [])
    lesson = Lesson.objects.get(slug=LESSON)
    assert lesson.title_zh_hans == "测试课：压牌" and lesson.title_ja == "テスト：上から出す"
    assert lesson.section == "tutor-test-section"
    assert lesson.source == "tests/tutorials/content/lessons/tutor-test-basics.toml"
    kinds = list(lesson.steps.values_list("kind", flat=True))
    assert kinds == ["explain", "watch", "play", "choose", "legal"]
    watch = lesson.steps.get(kind="watch")
    assert watch.data["script"] == [{"play": "D5"}, {"play": "H7"}]
    assert list(watch.script_lines.values_list("caption_ja", flat=True)) == [
        "プレイヤー1が♦5を出します。",
        "プレイヤー2が♥7で上回ります。",
    ]
    play = lesson.steps.get(kind="play")
    assert play.data == {"accept": ["DK"]}
    assert play.wrong_moves.get().move == "pass"
    assert lesson.steps.get(kind="legal").right_ja == "7のペアより強いのは9のペアだけです。"
    choose = lesson.steps.get(kind="choose")
    assert [(c.correct, c.engine_check) for c in choose.choices.all()] == [
        (False, {"to_act": 1}),
        (True, {"to_act": 0}),
    ]
    puzzle = Lesson.objects.get(slug=PUZZLE)
    assert puzzle.is_puzzle and puzzle.difficulty == 1
    assert puzzle.steps.get().data == {"place": 0, "solution": "S9", "unique": True}


def test_loading_twice_changes_nothing() -> None:
    load_content(FIXTURES)
    ids = sorted(Step.objects.values_list("id", flat=True))
    counts = [m.objects.count() for m in (Lesson, Step, ScriptLine, WrongMove, Choice)]
    again = load_content(FIXTURES)
    assert again is not None and (again.written, again.unchanged) == (0, 2)
    assert sorted(Step.objects.values_list("id", flat=True)) == ids
    assert [m.objects.count() for m in (Lesson, Step, ScriptLine, WrongMove, Choice)] == counts


def test_changed_file_is_rewritten_and_removed_file_deleted(tmp_path: Path) -> None:
    root = copy_fixtures(tmp_path)
    load_content(root)
    path = root / "lessons" / f"{LESSON}.toml"
    path.write_text(path.read_text().replace("测试课：压牌", "测试课：改过"), encoding="utf-8")
    (root / "puzzles" / f"{PUZZLE}.toml").unlink()
    result = load_content(root)
    assert result is not None and (result.written, result.removed) == (1, 1)
    assert Lesson.objects.get(slug=LESSON).title_zh_hans == "测试课：改过"
    assert not Lesson.objects.filter(slug=PUZZLE).exists()


def test_invalid_file_is_refused_loudly(tmp_path: Path) -> None:
    root = copy_fixtures(tmp_path)
    path = root / "lessons" / f"{LESSON}.toml"
    path.write_text(path.read_text().replace('accept = ["DK"]', 'accept = ["S4"]'), "utf-8")
    err = io.StringIO()
    result = load_content(root, err=err)
    assert result is not None and len(result.refused) == 1
    assert not Lesson.objects.filter(slug=LESSON).exists()
    assert Lesson.objects.filter(slug=PUZZLE).exists()
    assert "REFUSED" in err.getvalue()
    assert "tutor-test-basics step 3 (play): accepted move 'S4' is not legal here" in err.getvalue()
    assert "1 REFUSED as invalid" in result.summary()


def test_broken_toml_and_misplaced_files(tmp_path: Path) -> None:
    root = copy_fixtures(tmp_path)
    (root / "lessons" / "broken.toml").write_text("slug = ", encoding="utf-8")
    shutil.move(root / "puzzles" / f"{PUZZLE}.toml", root / "lessons" / f"{PUZZLE}.toml")
    err = io.StringIO()
    result = load_content(root, err=err)
    assert result is not None and len(result.refused) == 2
    assert "not valid TOML" in err.getvalue()
    assert "a file in lessons/ must have category" in err.getvalue()


def test_app_config_skips_without_content_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("tutorials.loader.content_dir", lambda: tmp_path / "nothing")
    summary = apps.get_app_config("tutorials").load_site_content(verbosity=1)
    assert summary.startswith("skipped: no content folder yet")


def test_app_config_loads_the_content_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutorials.loader.content_dir", lambda: FIXTURES)
    summary = apps.get_app_config("tutorials").load_site_content(verbosity=1)
    assert summary.startswith("1 lessons, 1 puzzles (2 written")


def test_load_lessons_command(tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("load_lessons", str(FIXTURES), stdout=out)
    assert "1 lessons, 1 puzzles" in out.getvalue()
    root = copy_fixtures(tmp_path)
    path = root / "lessons" / f"{LESSON}.toml"
    path.write_text(path.read_text().replace('"S9 H9"]', '"S9 H9", "D6 C6"]'), "utf-8")
    with pytest.raises(CommandError):
        call_command("load_lessons", str(root), stdout=io.StringIO(), stderr=io.StringIO())
