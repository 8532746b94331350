"""One Markdown pipeline, one strict sanitiser, for rules pages, FAQ and lessons alike.

Hostile author text (an admin account taken over, a bad content commit) must come out as
harmless text: no script, no event handler, no ``javascript:`` link, no image or frame
(an image from another host would also tell that host who reads the page). And no text an
author writes can forge the placeholders the shortcodes use.
"""

from __future__ import annotations

import doctest
import shutil
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

import daifugo_site.ui.markup
import tutorials.shortcodes
from daifugo_site.pages import markup as pages_markup
from tests.html import find_all, find_one
from tests.tutorials.conftest import FIXTURES, LESSON
from tutorials import markup as lesson_markup

HOSTILE = {
    "script": "<script>alert(1)</script>",
    "javascript-link": "[click me](javascript:alert(1))",
    "javascript-html-link": '<a href="javascript:alert(1)">click me</a>',
    "img-onerror": '<img src="x" onerror="alert(1)">',
    "img-remote": '<img src="https://evil.example/track.png">',
    "iframe": '<iframe src="https://evil.example/"></iframe>',
    "onclick": '<p onclick="alert(1)">hi</p>',
    "style": '<span style="position:fixed">hi</span>',
    "svg": '<svg onload="alert(1)"><circle r="1"/></svg>',
    "hx": '<div hx-get="/evil" hx-trigger="load">hi</div>',
    "form": '<form action="https://evil.example/"><input name="x"></form>',
    "data-url": "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
}
FORBIDDEN = (
    "<script",
    "javascript:",
    "onerror",
    "onclick",
    "onload",
    "<img",
    "<iframe",
    "evil.example",
    "style=",
    "<svg",
    "hx-",
    "<form",
    "<input",
    "data:",
)
# The old fixed lesson placeholder, and strings shaped like the new ones.
PLACEHOLDERS = ["tutorcardsZ0Ztutor", "tutorcardsZ99Ztutor", "dfgsc0123456789abcdefn0z"]


def _safe(html: str) -> None:
    lowered = html.lower()
    for needle in FORBIDDEN:
        assert needle not in lowered, f"{needle!r} got through: {html}"


def test_the_pipeline_doctests() -> None:
    for module in (daifugo_site.ui.markup, tutorials.shortcodes):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_lesson_text_is_sanitised(name: str) -> None:
    with translation.override("ja"):
        _safe(str(lesson_markup.render(f"Before {HOSTILE[name]} [[cards: S3]] after")))


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_rules_text_is_sanitised(name: str) -> None:
    with translation.override("zh-hans"):
        _safe(pages_markup.render(f"Before {HOSTILE[name]} [[cards: S3]] after"))


def test_both_apps_share_one_allow_list() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n\n<h2>x</h2> <abbr title='t'>y</abbr>"
    with translation.override("zh-hans"):
        lesson = str(lesson_markup.render(text))
    assert "<table>" in lesson and "<abbr" in lesson and "<h2>" not in lesson
    assert daifugo_site.ui.markup.sanitise(lesson) == lesson


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_placeholder_lookalikes_stay_text(text: str) -> None:
    with translation.override("zh-hans"):
        html = str(lesson_markup.render(f"[[cards: S3]] {text} [[cards: H4]]"))
    assert text in html
    assert html.count('data-card="S3"') == 1 and html.count('data-card="H4"') == 1


def test_many_shortcodes_each_keep_their_cards() -> None:
    # The old rules placeholder "…n1" was a prefix of "…n10": the 11th shortcode got the 2nd's
    # cards. Every shortcode must draw its own.
    codes = ["S3", "H4", "D5", "C6", "S7", "H8", "D9", "CT", "SJ", "HQ", "DK", "CA"]
    text = " ".join(f"[[cards: {code}]]" for code in codes)
    with translation.override("ja"):
        for html in (str(lesson_markup.render(text)), pages_markup.render(text)):
            cards = [element.get("data-card") for element in find_all(html, "span")]
            assert [c for c in cards if c] == codes


def test_shortcode_inside_a_link_target_draws_nothing_there() -> None:
    with translation.override("zh-hans"):
        html = str(lesson_markup.render("[see]([[cards: S3]])"))
    assert "data-card" not in html and "dfgsc" not in html


@pytest.mark.django_db
def test_lesson_page_with_hostile_text_and_placeholder_renders(
    tmp_path: Path, client: Client
) -> None:
    from tutorials.loader import load_content

    content = tmp_path / "content"
    shutil.copytree(FIXTURES, content)
    lesson_file = content / "lessons" / f"{LESSON}.toml"
    source = lesson_file.read_text(encoding="utf-8")
    payload = f"{PLACEHOLDERS[0]} {HOSTILE['script']} {HOSTILE['img-remote']} "
    first_text = "单张要用**更大的**单张来压："
    source = source.replace(first_text, payload + first_text)
    assert payload in source
    lesson_file.write_text(source, encoding="utf-8")
    result = load_content(content)
    assert result is not None and not result.refused, result and result.refused
    response = client.get(f"/zh-hans/learn/{LESSON}/")
    assert response.status_code == 200
    html = response.content.decode()
    step = find_one(html, id="tutor-step")
    assert PLACEHOLDERS[0] in step.text
    assert "alert(1)" not in html and "evil.example" not in html


@pytest.mark.django_db
def test_rules_section_with_hostile_text_renders_safely(content: None, client: Client) -> None:
    from daifugo_site.pages.models import RuleSection

    section = RuleSection.objects.get(slug="eight-cut")
    hostile = "\n\n".join(HOSTILE.values())
    section.body_zh_hans = f"{hostile}\n\n{PLACEHOLDERS[2]} [[cards: S8]]"
    section.save()
    response = client.get("/zh-hans/rules/eight-cut/")
    assert response.status_code == 200
    body = find_one(response.content.decode(), "div", **{"class": "rule-body"})
    assert PLACEHOLDERS[2] in body.text
    html = response.content.decode()
    assert "alert(1)" not in html and "evil.example" not in html
