"""Lesson texts: Markdown, sanitised, with ``[[cards: S3 H3]]`` drawing cards.

A shortcode alone in its paragraph draws a row of cards (``<ul class="cards">``); inside a
sentence it draws the cards inline. Everything else an author writes goes through nh3, so
a lesson text can never inject markup.
"""

from __future__ import annotations

import re
from functools import lru_cache

import markdown
import nh3
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from rules_engine import CardError
from rules_engine.cards import card_index

SHORTCODE = re.compile(r"\[\[\s*([a-z_-]+)\s*:\s*([^\]]*?)\s*\]\]")
KNOWN_SHORTCODES = ("cards",)
_TOKEN = "tutorcardsZ{}Ztutor"
_TOKEN_RE = re.compile(r"tutorcardsZ(\d+)Ztutor")
_BLOCK_RE = re.compile(r"<p>\s*tutorcardsZ(\d+)Ztutor\s*</p>")


def _valid_code(code: str) -> bool:
    if code == "JK":
        return True
    try:
        card_index(code)
    except (CardError, KeyError, ValueError, IndexError):
        return False
    return True


def shortcode_problems(text: str) -> list[str]:
    """What is wrong with the shortcodes of ``text`` (empty when all is well)."""
    problems = []
    for match in SHORTCODE.finditer(text):
        name, argument = match.group(1), match.group(2)
        if name not in KNOWN_SHORTCODES:
            problems.append(f"unknown shortcode [[{name}: …]]")
            continue
        codes = argument.split()
        if not codes:
            problems.append("[[cards: …]] lists no card")
        bad = [code for code in codes if not _valid_code(code)]
        if bad:
            problems.append(f"[[cards: {argument}]]: unknown card(s) {', '.join(bad)}")
    if "[[" in SHORTCODE.sub("", text):
        problems.append("a '[[' that is not a shortcode such as [[cards: S3 H3]]")
    return problems


@lru_cache(maxsize=2048)
def _render_markdown(text: str) -> str:
    html = markdown.markdown(text, extensions=["sane_lists"], output_format="html")
    return nh3.clean(html)


def render(text: str) -> SafeString:
    """Markdown ``text`` as safe HTML with its card shortcodes drawn (active language)."""
    if not text:
        return mark_safe("")
    codes: list[list[str]] = []

    def stash(match: re.Match[str]) -> str:
        if match.group(1) != "cards":
            return match.group(0)
        found = [c for c in match.group(2).split() if _valid_code(c)]
        codes.append(found)
        return _TOKEN.format(len(codes) - 1)

    html = _render_markdown(SHORTCODE.sub(stash, text))

    def block(match: re.Match[str]) -> str:
        return render_to_string(
            "tutorials/_text_cards.html", {"codes": codes[int(match.group(1))], "block": True}
        ).strip()

    def inline(match: re.Match[str]) -> str:
        return render_to_string(
            "tutorials/_text_cards.html", {"codes": codes[int(match.group(1))], "block": False}
        ).strip()

    html = _BLOCK_RE.sub(block, html)
    html = _TOKEN_RE.sub(inline, html)
    return mark_safe(html)  # noqa: S308 - sanitised by nh3; card HTML is our template's


_WRAPPING_P = re.compile(r"^\s*<p>(.*)</p>\s*$", re.DOTALL)


def render_inline(text: str) -> SafeString:
    """Like :func:`render`, without the paragraph around a one-paragraph text (for labels)."""
    html = str(render(text))
    match = _WRAPPING_P.match(html)
    if match and "<p>" not in match.group(1):
        html = match.group(1)
    return mark_safe(html)  # noqa: S308 - from render()
