"""Fixtures for the tutor's tests: a small lesson and a puzzle of our own (tests/tutorials/
content/), independent of the site's real lessons in tutorials/content/."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "content"
LESSON_FILE = FIXTURES / "lessons" / "tutor-test-basics.toml"
PUZZLE_FILE = FIXTURES / "puzzles" / "tutor-test-puzzle.toml"
LESSON = "tutor-test-basics"
PUZZLE = "tutor-test-puzzle"


def toml(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def lesson_data() -> dict[str, Any]:
    return copy.deepcopy(toml(LESSON_FILE))


@pytest.fixture
def puzzle_data() -> dict[str, Any]:
    return copy.deepcopy(toml(PUZZLE_FILE))


@pytest.fixture
def loaded(db: None) -> None:
    """The fixture lesson and puzzle in the test database."""
    from tutorials.loader import load_content

    result = load_content(FIXTURES)
    assert result is not None and not result.refused, result and result.refused
