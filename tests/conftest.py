"""Shared test set-up.

- Translations are compiled before any test (pure Python, only stale catalogues), so a bare
  ``pytest`` works without ``make`` and never tests yesterday's strings.
- Tests under tests/browser/ get the ``browser`` marker. pyproject.toml deselects them by
  default (``-m "not browser"``); ``make test`` runs them in a second process with
  ``pytest -m browser`` (Playwright's sync API and async tests must not share a process).
- The journeys marked ``journeys_full`` are deselected unless ``--journeys-full`` is given.
- Hypothesis profiles: ``default`` locally, ``ci`` when CI is set (or HYPOTHESIS_PROFILE).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

BROWSER_TESTS = Path(__file__).parent / "browser"

# No deadline: a 2-core CI machine rendering templates has timing noise, not bugs.
hypothesis_settings.register_profile("default", max_examples=100, deadline=None)
hypothesis_settings.register_profile(
    "ci", max_examples=100, deadline=None, derandomize=True, print_blob=True, database=None
)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    # trylast: pytest-django has called django.setup() by now.
    from daifugo_site.pages.management.commands.compile_translations import (
        project_locale_dirs,
    )
    from daifugo_site.translations import compile_catalogues

    compile_catalogues(project_locale_dirs())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--journeys-full",
        action="store_true",
        help="also run the journeys marked journeys_full (tests/browser/test_journeys.py)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # tryfirst: mark before pytest's own -m filtering looks at the markers.
    for item in items:
        if item.path.is_relative_to(BROWSER_TESTS):
            item.add_marker(pytest.mark.browser)
    # The journeys' crossed combinations run always; the other two only when asked for
    # (CI's time limit): `pytest -m browser --journeys-full`.
    if not config.getoption("--journeys-full"):
        full = [item for item in items if item.get_closest_marker("journeys_full")]
        if full:
            config.hook.pytest_deselected(items=full)
            items[:] = [item for item in items if not item.get_closest_marker("journeys_full")]


# -- the rules reference's content (pages app), for any test that renders it ----------------


@pytest.fixture(scope="session")
def _content_loaded(
    django_db_setup: None, django_db_blocker: pytest.FixtureRequest
) -> Iterator[None]:
    from daifugo_site.pages.loader import load

    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        load()
    yield


@pytest.fixture
def content(_content_loaded: None, db: None) -> None:
    """Every rules section, example, option, FAQ entry and glossary term in the database.

    Loaded once per session outside any test transaction; loaded again (inside this test's
    transaction) if a transactional test of another app flushed the tables meanwhile.
    """
    from daifugo_site.pages.loader import load
    from daifugo_site.pages.models import RuleSection

    if not RuleSection.objects.exists():
        load()
