"""The card component: ``{% load cards %}``.

Usage::

    {% card "S3" %}                  a card: <span role="img" aria-label="黑桃 3" data-card="S3">
    {% card "HT" as_button=True %}   a toggle: <button data-card="HT" aria-pressed="false">
    {% card code as_button=True pressed=True %}
    {% cards "S7 H7 JK" %}           a row (<ul class="cards">): a string of codes or a list
    {% cards hand as_button=True label=hand_label %}
    {{ "HT"|card_name }}             "红心 10" / "ハートの10": the accessible name as text

Codes: suit ``S H D C`` then rank ``3 4 5 6 7 8 9 T J Q K A 2`` (``T`` is 10), or ``JK``.
An unknown code raises ``TemplateSyntaxError``: a page must never show a made-up card.

The parsing is deliberately tiny and local: ``rules_engine`` has its own parser and must not
depend on Django, and the UI only needs to draw a code.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from daifugo_site.ui.language import get_language

register = template.Library()

# The card views themselves live in ui/cardviews.py (labels.py uses them too).
from daifugo_site.ui import cardviews  # noqa: E402
from daifugo_site.ui.cardviews import (  # noqa: E402
    JOKER,
    RANKS,
    SUIT_SYMBOLS,
    CardView,
    _rank_name,
    _suit_name,
    parse_card,
)

__all__ = ["JOKER", "RANKS", "SUIT_SYMBOLS", "CardView", "_rank_name", "_suit_name"]


def _codes(codes: str | Iterable[str]) -> list[str]:
    if isinstance(codes, str):
        return codes.split()
    return list(codes)


# A card's HTML depends only on its code, its variant and the language, and the play page
# draws dozens per push: render components/_card.html once per combination, then reuse.
_CARD_HTML: dict[tuple[str, bool, bool, str | None], SafeString] = {}


def card_html(code: str, as_button: bool = False, pressed: bool = False) -> SafeString:
    """The card component's HTML (components/_card.html), memoised."""
    view = parse_card(code)
    key = (view.code, bool(as_button), bool(pressed), get_language())
    html = _CARD_HTML.get(key)
    if html is None:
        html = mark_safe(
            render_to_string(
                "components/_card.html",
                {"card": view, "as_button": as_button, "pressed": pressed},
            ).strip()
        )
        if len(_CARD_HTML) < 2048:
            _CARD_HTML[key] = html
    return html


@register.simple_tag
def card(code: str, as_button: bool = False, pressed: bool = False) -> SafeString:
    return card_html(code, as_button, pressed)


def cards_html(codes: str | Iterable[str], as_button: bool = False, label: str = "") -> SafeString:
    """A row of cards (``<ul class="cards">``, named ``label`` if given): the Django tag's
    and the Jinja2 fragments' one definition (daifugo_site/ui/jinja.py)."""
    named = format_html(' aria-label="{}"', label) if label else ""
    items = "".join(
        f'<li class="cards__item">{card_html(code, as_button)}</li>' for code in _codes(codes)
    )
    return mark_safe(f'<ul class="cards"{named}>{items}</ul>')  # noqa: S308 - escaped parts


@register.simple_tag
def cards(codes: str | Iterable[str], as_button: bool = False, label: str = "") -> SafeString:
    return cards_html(codes, as_button, label)


@register.filter
def card_name(code: str) -> str:
    return cardviews.card_name(code)
