"""The rules reference's content, loaded once for the session's test database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


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
