"""Words for the engine's names, defined once for every page: titles, suits, card lists.

The play page, the tutor and the rules-page examples all take their labels from here, so a
title or a suit reads the same everywhere in each language.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import lazy

from rules_engine.cards import RANKS

from .cardviews import _suit_name, card_name
from .language import pgettext, pgettext_lazy

SUIT_CODES = "SHDC"  # the engine's suit order: bit i of a suit set is SUIT_CODES[i]


#: Each name's words, looked up when shown (one lookup per call: a table push shows these
#: for every seat, and translating the whole table each time was a measurable share of it).
_TITLES = {
    "daifugo": pgettext_lazy("title", "Daifugō"),
    "fugo": pgettext_lazy("title", "Fugō"),
    "heimin": pgettext_lazy("title", "Heimin"),
    "hinmin": pgettext_lazy("title", "Hinmin"),
    "daihinmin": pgettext_lazy("title", "Daihinmin"),
    "winner": pgettext_lazy("title", "Winner"),
    "loser": pgettext_lazy("title", "Loser"),
}
_PRESETS = {
    "standard": pgettext_lazy("preset", "Standard"),
    "party": pgettext_lazy("preset", "Party"),
    "classic": pgettext_lazy("preset", "Classic"),
    "basic": pgettext_lazy("preset", "Basic"),
    "house": pgettext_lazy("preset", "House"),
}


def title_label(title: str | None) -> str:
    """A finishing title ("daifugo", "winner" ...) in the active language; "" for none."""
    found = _TITLES.get(title or "")
    return str(found) if found is not None else ""


def preset_label(name: str | None) -> str:
    """A rules preset's name ("standard", "party" ...) in the active language: the one name
    every page uses (set-up forms, room rules, profile, statistics, rules pages). An unknown
    name is shown as it is."""
    found = _PRESETS.get(name or "")
    return str(found) if found is not None else (name or "")


#: For choices built at import time: translated when shown.
preset_label_lazy = lazy(preset_label, str)


def suit_label(suit: int) -> str:
    """The name of suit ``suit`` (0 spades, 1 hearts, 2 diamonds, 3 clubs)."""
    return _suit_name(SUIT_CODES[suit])


def list_text(items: Iterable[str]) -> str:
    """Items joined the way the active language lists them ("A, B" / "A、B")."""
    return pgettext("list separator", ", ").join(items)


def and_text(items: Iterable[str]) -> str:
    """Items as "A, B and C" the active language's way ("A、B和C" / "A、BとC"): for a group
    named as a whole ("the pair A and B")."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return pgettext("list, before the last item", " and ").join([list_text(items[:-1]), items[-1]])


def suits_text(suits: int) -> str:
    """A suit set (bit i = suit i) as names: "Spades, Hearts"."""
    return list_text(suit_label(s) for s in range(4) if suits >> s & 1)


def suit_labels(suits: int) -> list[str]:
    return [suit_label(s) for s in range(4) if suits >> s & 1]


def cards_text(codes: Iterable[str]) -> str:
    """Card codes as names in the active language, as a list ("Spades 3, Hearts 3")."""
    return list_text(card_name(code) for code in codes)


def ranks_text(ranks: int) -> str:
    """A set of ranks (bit r = rank r, 0 the 3 ... 12 the 2) as a list ("4, 10, Q"): rank
    symbols are written the same way in both languages."""
    return list_text(
        "10" if RANKS[r] == "T" else RANKS[r] for r in range(len(RANKS)) if ranks >> r & 1
    )
