"""The heading-level filter that lets a rule section's body sit under an h1 or an h2."""

from __future__ import annotations

from django.template import Context, Template

from daifugo_site.ui.templatetags.outline import shift_heading_levels


def test_headings_move_up_one_level_and_keep_their_attributes() -> None:
    html = '<h3 id="x" class="y">A</h3><p>h3 stays text</p><h4>B</h4>'
    assert (
        shift_heading_levels(html, -1)
        == '<h2 id="x" class="y">A</h2><p>h3 stays text</p><h3>B</h3>'
    )


def test_levels_are_clamped_and_other_tags_untouched() -> None:
    assert shift_heading_levels("<h1>T</h1><h6>S</h6>", -1) == "<h1>T</h1><h5>S</h5>"
    assert shift_heading_levels("<h6>S</h6>", 2) == "<h6>S</h6>"
    assert shift_heading_levels("<hr><header>x</header>", -1) == "<hr><header>x</header>"


def test_the_filter_returns_safe_html() -> None:
    out = Template("{% load outline %}{{ html|shift_headings:-1 }}").render(
        Context({"html": "<h3>A &amp; B</h3>"})
    )
    assert out == "<h2>A &amp; B</h2>"
