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
