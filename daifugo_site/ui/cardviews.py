"""What a card looks like and is called, in the active language: the view every card
component and label uses (``templatetags/cards.py`` renders it; ``labels.py`` names cards
in sentences). No template tags here, so both import it without a cycle."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from .language import get_language, gettext, pgettext

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


def card_name(code: str) -> str:
    """A card's accessible name in the active language ("Spades 3")."""
    return parse_card(code).name
