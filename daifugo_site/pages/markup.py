"""Body text: Markdown, sanitised, with two shortcodes for cards and example hands.

- ``[[cards: S7 H7 JK]]`` draws the cards with the site's card component;
- ``[[example: slug]]`` shows an example hand (caption, hands, each play), on its own line.

Authors write Markdown, never HTML: the Markdown output goes through nh3 with a short list of
tags, so ``<script>`` or an ``onclick`` written in a body never reaches a page. Shortcodes
are swapped for placeholders *before* Markdown and sanitising, and the trusted HTML of the
components is put back only *after*: that is what lets the card component's markup through
while nothing an author types can add markup of its own.

Rendering happens when a row is saved or loaded (``render_translated``), once per language
under ``translation.override`` so that card names and labels are in that language.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

import markdown
import nh3
from django.template import TemplateSyntaxError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from daifugo_site.ui.templatetags.cards import cards as cards_context
from daifugo_site.ui.templatetags.cards import parse_card

SHORTCODE = re.compile(r"\[\[\s*(?P<kind>[a-z]+)\s*:\s*(?P<arg>[^\]\n]*?)\s*\]\]")
KINDS = ("cards", "example")

ALLOWED_TAGS = {
    "p", "br", "hr", "h3", "h4", "h5", "h6", "strong", "em", "b", "i", "code", "pre",
    "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th",
    "td", "a", "sup", "sub", "abbr", "ruby", "rt", "rp",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}


class MarkupError(ValueError):
    """A shortcode that cannot be rendered (unknown card, unknown example)."""


def _markdown(text: str) -> str:
    return markdown.markdown(
        text,
        extensions=["tables", "sane_lists"],
        extension_configs={"tables": {"use_align_attribute": True}},
        output_format="html",
    )


def sanitise(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
    )


def render_cards(arg: str) -> str:
    codes = arg.split()
    if not codes:
        raise MarkupError("[[cards: ...]] needs at least one card")
    try:
        context = cards_context(codes)
    except TemplateSyntaxError as error:
        raise MarkupError(str(error)) from None
    return render_to_string("components/_cards.html", context).strip()


def render_cards_inline(arg: str) -> str:
    from daifugo_site.ui.templatetags.cards import card_html

    try:
        parts = [card_html(code).strip() for code in arg.split()]
    except TemplateSyntaxError as error:
        raise MarkupError(str(error)) from None
    return f'<span class="cards cards--inline">{"".join(parts)}</span>'


def render_example(slug: str, examples: Mapping[str, Any] | None = None) -> str:
    from . import example_view
    from .models import Example, RuleOption

    example = (examples or {}).get(slug)
    if example is None:
        example = Example.objects.filter(slug=slug).first()
    if example is None:
        raise MarkupError(f"no example with the slug {slug!r}")
    options = {option.name: option for option in RuleOption.objects.all()}
    try:
        return example_view.render(example.slug, example.caption, example.scenario, options)
    except example_view.ExampleError as error:
        raise MarkupError(str(error)) from None


def render(source: str, examples: Mapping[str, Any] | None = None) -> str:
    """Markdown ``source`` as safe HTML in the active language (MarkupError on a bad code)."""
    nonce = secrets.token_hex(6)
    # key -> (HTML when the shortcode is a paragraph of its own, HTML inside a line)
    fragments: dict[str, tuple[str, str]] = {}

    def placeholder(match: re.Match[str]) -> str:
        kind, arg = match["kind"], match["arg"]
        if kind == "cards":
            block, inline = render_cards(arg), render_cards_inline(arg)
        elif kind == "example":
            block = inline = render_example(arg, examples)
        else:
            raise MarkupError(f"unknown shortcode [[{kind}: ...]]: use one of {', '.join(KINDS)}")
        key = f"dfgshortcode{nonce}n{len(fragments)}"
        fragments[key] = (block, inline)
        return key

    text = SHORTCODE.sub(placeholder, source)
    html = sanitise(_markdown(text))
    for key, (block, inline) in fragments.items():
        # A shortcode on its own line became a paragraph: the block replaces it whole.
        html = html.replace(f"<p>{key}</p>", block)
        html = html.replace(key, inline)
    return html.strip()


def check(source: str) -> str | None:
    """Why ``source`` cannot be rendered, or None. For the admin's validation."""
    for match in SHORTCODE.finditer(source):
        kind, arg = match["kind"], match["arg"]
        if kind not in KINDS:
            return gettext("Unknown shortcode [[%(kind)s: …]].") % {"kind": kind}
        if kind == "cards":
            if not arg.split():
                return gettext("[[cards: …]] needs at least one card.")
            for code in arg.split():
                try:
                    parse_card(code)
                except TemplateSyntaxError:
                    return gettext("Unknown card code “%(code)s”.") % {"code": code}
        else:
            line_start = source.rfind("\n", 0, match.start()) + 1
            line_end = source.find("\n", match.end())
            line = source[line_start : line_end if line_end != -1 else len(source)]
            if line.strip() != match.group(0):
                return gettext("[[example: …]] must stand on a line of its own.")
            try:
                render_example(arg)
            except MarkupError as error:
                return str(error)
    return None


def render_translated(
    obj: Any, source_field: str, html_field: str, examples: Mapping[str, Any] | None = None
) -> None:
    """Set ``<html_field>_<lang>`` from ``<source_field>_<lang>`` for every language."""
    from .translation import language_fields

    for (source_name, language), (html_name, _language) in zip(
        language_fields(source_field), language_fields(html_field), strict=True
    ):
        with translation.override(language):
            setattr(obj, html_name, render(getattr(obj, source_name) or "", examples))
