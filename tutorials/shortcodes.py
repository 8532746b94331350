"""Which shortcodes a lesson text may use, checked without Django (``validation.py``).

The syntax is the site's one (``daifugo_site.ui.markup.SHORTCODE``); lessons know one kind,
``[[cards: S3 H3]]``.

>>> shortcode_problems("Play [[cards: S3 H3]] now.")
[]
>>> shortcode_problems("[[cards: S3 X9]] [[hand: S3]]")
['[[cards: S3 X9]]: unknown card(s) X9', 'unknown shortcode [[hand: …]]']
"""

from __future__ import annotations

from daifugo_site.ui.markup import SHORTCODE
from rules_engine import CardError
from rules_engine.cards import card_index

KNOWN_SHORTCODES = ("cards",)


def valid_code(code: str) -> bool:
    """A card code the card component can draw (``JK`` is the joker)."""
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
        name, argument = match["kind"], match["arg"]
        if name not in KNOWN_SHORTCODES:
            problems.append(f"unknown shortcode [[{name}: …]]")
            continue
        codes = argument.split()
        if not codes:
            problems.append("[[cards: …]] lists no card")
        bad = [code for code in codes if not valid_code(code)]
        if bad:
            problems.append(f"[[cards: {argument}]]: unknown card(s) {', '.join(bad)}")
    if "[[" in SHORTCODE.sub("", text):
        problems.append("a '[[' that is not a shortcode such as [[cards: S3 H3]]")
    return problems
