"""Body markup: Markdown, sanitised, with [[cards: ...]] and [[example: ...]] shortcodes."""

from __future__ import annotations

import pytest
from django.utils import translation

from daifugo_site.pages import markup
from daifugo_site.pages.models import RuleSection
from tests.html import find_all


def test_markdown_renders_headings_lists_and_tables() -> None:
    html = markup.render("### Title\n\n- **one**\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert "<h3>Title</h3>" in html
    assert "<strong>one</strong>" in html
    assert "<table>" in html and "<td>1</td>" in html


@pytest.mark.parametrize(
    "source",
    [
        "<script>alert(1)</script>",
        "hello <script>alert(1)</script> world",
        '<img src="x" onerror="alert(1)">',
        '<a href="javascript:alert(1)">x</a>',
        "[x](javascript:alert(1))",
        '<p onclick="alert(1)">x</p>',
        '<iframe src="https://example.com"></iframe>',
        "<style>body{display:none}</style>",
    ],
)
def test_authors_cannot_inject_html(source: str) -> None:
    html = markup.render(source)
    assert "<script" not in html
    assert "alert(1)" not in html
    assert "onerror" not in html and "onclick" not in html
    assert "javascript:" not in html
    assert "<iframe" not in html and "<style" not in html and "<img" not in html


def test_script_text_inside_a_shortcode_line_is_still_escaped() -> None:
    html = markup.render("[[cards: S7]] <script>alert(1)</script>")
    assert "<script" not in html
    assert 'data-card="S7"' in html


def test_cards_shortcode_renders_the_card_component() -> None:
    with translation.override("ja"):
        html = markup.render("[[cards: S7 H7 JK]]")
    cards = find_all(html, None, role="img")
    assert [card.get("data-card") for card in cards] == ["S7", "H7", "JK"]
    assert cards[0].get("aria-label") == "スペードの7"
    assert html.startswith('<ul class="cards"')  # a block, not wrapped in <p>


def test_cards_shortcode_inside_a_sentence_stays_inline() -> None:
    with translation.override("zh-hans"):
        html = markup.render("出 [[cards: D3]] 开局。")
    assert html.startswith("<p>")
    assert '<span class="cards cards--inline">' in html
    assert "<ul" not in html


def test_unknown_card_is_an_error() -> None:
    with pytest.raises(markup.MarkupError):
        markup.render("[[cards: S1]]")
    assert markup.check("[[cards: S1]]")
    assert markup.check("[[cards: S7 JK]]") is None
    assert markup.check("[[dance: S7]]")


def test_example_shortcode_renders_caption_hands_and_steps(content: None) -> None:
    with translation.override("ja"):
        html = markup.render("[[example: suit-lock-single]]")
    figure = find_all(html, "figure", data_example="suit-lock-single")
    assert len(figure) == 1
    assert "スペード縛り" in html  # the caption, in Japanese
    assert (
        "プレイヤー1" in html and "プレイヤー2" in html
    )  # seat labels, as the glossary numbers them
    steps = find_all(html, "li", class_="example__step example__step--play")
    assert len(steps) >= 3
    # The lock the engine reports, and the refused ♥Q with its reason.
    assert "縛り：場が流れるまでスペードしか出せません。" in html
    refused = find_all(html, "li", class_="example__step example__step--illegal")
    assert refused and "マークが縛られている" in refused[0].text
    assert 'data-card="HQ"' in html


def test_example_shortcode_must_stand_alone(content: None) -> None:
    assert markup.check("see [[example: suit-lock-single]] here")
    assert markup.check("[[example: suit-lock-single]]") is None
    assert markup.check("[[example: no-such-example]]")


def test_section_html_is_rendered_per_language(content: None) -> None:
    section = RuleSection.objects.get(slug="cards-and-strength")
    assert 'aria-label="黑桃 3"' in section.body_html_zh_hans or "黑桃" in section.body_html_zh_hans
    assert "スペードの3" in section.body_html_ja
    assert "スペードの3" not in section.body_html_zh_hans


def test_script_in_a_body_never_reaches_the_page(content: None, client) -> None:  # type: ignore[no-untyped-def]
    section = RuleSection.objects.get(slug="eight-cut")
    section.body_ja += "\n\n<script>alert('x')</script>\n\n<b onclick=\"evil()\">bold</b>\n"
    section.save()
    html = client.get("/ja/rules/eight-cut/").content.decode()
    assert "alert('x')" not in html
    assert "evil()" not in html
    assert "<b>bold</b>" in html
