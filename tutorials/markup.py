"""Lesson texts: Markdown, sanitised, with ``[[cards: S3 H3]]`` drawing cards.

The site's one pipeline (``daifugo_site.ui.markup``): the same strict allow-list as the
rules pages, and a fresh unguessable placeholder per render, so a lesson text can never
inject markup nor break its page. A shortcode alone in its paragraph draws a row of cards
(``<ul class="cards">``); inside a sentence it draws the cards inline. An unknown
shortcode stays as text (``check_lessons`` reports it).

Rendered texts are cached (bounded) by text, language and catalogue version: card names
are translated words, so HTML never outlives the catalogue it was drawn with.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from daifugo_site.pages.markup import catalogue_version
from daifugo_site.ui.markup import render_markdown

from .shortcodes import KNOWN_SHORTCODES, shortcode_problems, valid_code

__all__ = ["KNOWN_SHORTCODES", "render", "render_inline", "shortcode_problems"]


def _cards(codes: list[str], block: bool) -> str:
    return render_to_string("tutorials/_text_cards.html", {"codes": codes, "block": block}).strip()


def _shortcode(kind: str, argument: str) -> tuple[str, str] | None:
    if kind != "cards":
        return None
    codes = [code for code in argument.split() if valid_code(code)]
    return _cards(codes, True), _cards(codes, False)


# 19 lessons x ~20 texts x 2 languages fit well inside; a changed text is a new key and
# the old one ages out.
@lru_cache(maxsize=4096)
def _render(text: str, language: str, version: str) -> str:
    with translation.override(language):
        return render_markdown(text, _shortcode)


def render(text: str) -> SafeString:
    """Markdown ``text`` as safe HTML with its card shortcodes drawn (active language)."""
    if not text:
        return mark_safe("")
    language = translation.get_language() or "zh-hans"
    html = _render(text, language, catalogue_version(language))
    return mark_safe(html)  # noqa: S308 - sanitised by the site's pipeline; cards are ours


_WRAPPING_P = re.compile(r"^\s*<p>(.*)</p>\s*$", re.DOTALL)


def render_inline(text: str) -> SafeString:
    """Like :func:`render`, without the paragraph around a one-paragraph text (for labels)."""
    html = str(render(text))
    match = _WRAPPING_P.match(html)
    if match and "<p>" not in match.group(1):
        html = match.group(1)
    return mark_safe(html)  # noqa: S308 - from render()
