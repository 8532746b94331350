"""Heading levels for HTML rendered once and shown at two depths: ``{% load outline %}``.

A rule section's body is written for the rules index, where the section title is an
``<h2>`` and the body's headings are ``<h3>``. On the section's own page the title is the
``<h1>``, so the same body must start at ``<h2>`` or the outline skips a level (WCAG 1.3.1,
axe's ``heading-order``)::

    {{ section.body_html|shift_headings:-1 }}

The HTML is the site's own (rendered from its Markdown content at load time), never a
visitor's: the filter only renames heading tags, keeps their attributes, and clamps to
``h1``..``h6``.
"""

from __future__ import annotations

import re

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_HEADING = re.compile(r"<(/?)h([1-6])(?=[\s>])", re.IGNORECASE)


def shift_heading_levels(html: str, by: int) -> str:
    """``html`` with every ``<hN>`` moved by ``by`` levels, clamped to 1..6.

    >>> shift_heading_levels('<h3 id="a">A</h3><p>x</p><h4>B</h4>', -1)
    '<h2 id="a">A</h2><p>x</p><h3>B</h3>'
    >>> shift_heading_levels("<h1>T</h1>", -1)
    '<h1>T</h1>'
    """

    def rename(match: re.Match[str]) -> str:
        level = min(6, max(1, int(match.group(2)) + by))
        return f"<{match.group(1)}h{level}"

    return _HEADING.sub(rename, html)


@register.filter
def shift_headings(html: str, by: int) -> SafeString:
    # The input is trusted, already-safe HTML (see the module docstring).
    return mark_safe(shift_heading_levels(str(html), int(by)))  # noqa: S308
