"""``manage.py check_lessons``: one line per problem, the summary line, exit status."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tutorials.models import Lesson

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, int]:
    out = io.StringIO()
    try:
        call_command("check_lessons", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error.returncode
    return out.getvalue(), 0


def test_all_valid(loaded: None) -> None:
    output, status = run()
    assert status == 0
    assert output.splitlines() == ["1 lessons, 1 puzzles, 6 steps checked, 0 errors"]


def test_errors_one_line_each_and_exit_1(loaded: None) -> None:
    step = Lesson.objects.get(slug="tutor-test-basics").steps.get(kind="play")
    step.data = {"accept": ["S4"]}
    step.hint2_ja = ""
    step.save()
    output, status = run()
    assert status == 1
    assert output.splitlines() == [
        "tutor-test-basics step 3 (play) [ja]: hint2 is missing",
        "tutor-test-basics step 3 (play): accepted move 'S4' is not legal here (not_stronger)",
        "1 lessons, 1 puzzles, 6 steps checked, 2 errors",
    ]
    # Only the Chinese texts: the missing Japanese hint is not reported.
    output, status = run("--lang", "zh-hans")
    assert status == 1
    assert output.splitlines()[-1] == "1 lessons, 1 puzzles, 6 steps checked, 1 errors"
    assert "hint2" not in output


def test_no_lessons() -> None:
    assert run() == ("0 lessons, 0 puzzles, 0 steps checked, 0 errors\n", 0)
