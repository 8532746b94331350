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
from dataclasses import dataclass

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
JOKER = "JK"


@dataclass(frozen=True)
class CardView:
    code: str
    symbol: str  # "♠", or "" for a joker
    rank: str  # what is printed: "10" for T, "" for a joker
    colour: str  # "red", "black" or "joker": the CSS modifier
    name: str  # accessible name in the active language

    @property
    def is_joker(self) -> bool:
        return self.code == JOKER


def _suit_name(suit: str) -> str:
    # Whole words per suit (no string building), so each language names them its own way.
    return {
        "S": pgettext("card suit", "Spades"),
        "H": pgettext("card suit", "Hearts"),
        "D": pgettext("card suit", "Diamonds"),
        "C": pgettext("card suit", "Clubs"),
    }[suit]


def _rank_name(rank: str) -> str:
    named = {
        "T": "10",
        "J": pgettext("card rank", "Jack"),
        "Q": pgettext("card rank", "Queen"),
        "K": pgettext("card rank", "King"),
        "A": pgettext("card rank", "Ace"),
    }
    return named.get(rank, rank)


def parse_card(code: object) -> CardView:
    """The view of one card code, or TemplateSyntaxError naming the bad code.

    Memoised per language: a play page renders dozens of cards per push, and a card's view
    only depends on its code and the active language.
    """
    key = (code, get_language())
    try:
        return _CARD_VIEWS[key]
    except (KeyError, TypeError):
        pass
    view = _parse_card(code)
    if len(_CARD_VIEWS) < 1024:
        _CARD_VIEWS[key] = view
    return view


_CARD_VIEWS: dict[tuple[object, str | None], CardView] = {}


def _parse_card(code: object) -> CardView:
    if code == JOKER:
        return CardView(JOKER, "", "", "joker", pgettext("card", "Joker"))
    if not isinstance(code, str) or len(code) != 2 or code[0] not in SUIT_SYMBOLS:
        raise template.TemplateSyntaxError(_bad_code(code))
    suit, rank = code[0], code[1]
    if rank not in RANKS:
        raise template.TemplateSyntaxError(_bad_code(code))
    # Translators: a card's accessible name; e.g. "Spades 3", "Hearts Queen". Reorder or
    # add particles as the language needs (Japanese: "スペードの3").
    name = gettext("%(suit)s %(rank)s") % {"suit": _suit_name(suit), "rank": _rank_name(rank)}
    return CardView(
        code=code,
        symbol=SUIT_SYMBOLS[suit],
        rank="10" if rank == "T" else rank,
        colour="red" if suit in "HD" else "black",
        name=name,
    )


def _bad_code(code: object) -> str:
    return (
        f"Unknown card code {code!r}: expected a suit S, H, D or C followed by a rank "
        f"3-9, T, J, Q, K, A or 2 (e.g. 'S3', 'HT'), or 'JK' for a joker."
    )


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


@register.inclusion_tag("components/_cards.html")
def cards(
    codes: str | Iterable[str], as_button: bool = False, label: str = ""
) -> dict[str, object]:
    return {
        "cards": [card_html(code, as_button) for code in _codes(codes)],
        "label": label,
    }


@register.filter
def card_name(code: str) -> str:
    return parse_card(code).name
