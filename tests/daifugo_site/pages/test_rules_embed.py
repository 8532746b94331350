"""Rules sections embed the first interactive step of their lesson (the tutor in the rules)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def lessons(content: None) -> None:
    from tutorials.loader import load_content
    from tutorials.models import Lesson

    if not Lesson.objects.filter(section="eight-cut").exists():
        result = load_content()
        assert result is not None and not result.refused


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_a_section_with_a_lesson_lets_the_reader_try_it_in_place(
    client: Client, lessons: None, lang: str, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(12):
        html = client.get(f"/{lang}/rules/eight-cut/").content.decode()
    embed = html[html.index('class="tutor-embed"') :]
    assert 'data-embed="eight-cut"' in embed
    assert f'href="/{lang}/learn/eight-cut/' in embed, "continue this lesson"
    assert "data-card=" in embed


def test_a_section_without_a_lesson_embeds_nothing(client: Client, lessons: None) -> None:
    response = client.get("/zh-hans/rules/sources/")
    assert response.status_code == 200
    assert "tutor-embed" not in response.content.decode()
