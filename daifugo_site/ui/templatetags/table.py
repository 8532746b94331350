"""Presentation helpers for the card table (templates/play/game.html): ``{% load table %}``.

Only where things go on the screen, never what the rules allow: the seats' places around
the oval relative to the viewer, the shortcut key shown on each card of the hand, the
face-down backs drawn for a hand's count, and the play beneath the one on the field
(read back from the round's log, which the page already shows in words).

The view handed in is the play presenter's (``daifugo_site.play.presenter.TableView``);
these helpers only read ``seats[].seat``, ``seats[].is_you`` and ``log[].kind/cards``, so
a room or hotseat table with the same fields reuses them unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import template

register = template.Library()

#: Keys for the cards of a hand, in hand order: digits first, then letters, leaving out
#: the keys that mean something else on the table (G give, N next, P pass).
CARD_KEYS = "1234567890" + "".join(c for c in "abcdefhijklmoqrstuvwxyz")
#: Face-down backs drawn per hand; the count is always written out as well.
MAX_BACKS = 13
#: The oval the seats' centres sit on, in percent of the table's width and height. Inside
#: the felt's rim (4% and 8% from the edges): a plate is centred on its point, so a side
#: seat's plate must not stick out of the stage on a phone (tests/browser/test_table_seats.py).
RADIUS_X = 33
RADIUS_Y = 40


@dataclass(frozen=True)
class Place:
    """Where one seat sits: ``x``/``y`` in percent of the table (0,0 top left), the side of
    the table (``near`` is the viewer's), and ``order`` from the viewer, in turn order."""

    x: float
    y: float
    side: str
    order: int
    seats: int

    @property
    def css_class(self) -> str:
        """The class that puts the seat there (static/play/play.css, one rule per table size
        and order: the Content-Security-Policy refuses inline style attributes)."""
        return f"seat--at{self.seats}-{self.order}"


def css_rules() -> str:
    """The position rules of static/play/play.css, as generated from :func:`seat_places`
    (tests/daifugo_site/test_table_css.py checks that the stylesheet carries exactly these).
    """
    lines = []
    for n in range(2, 7):
        for place in seat_places([_Seat(i, i == 0) for i in range(n)]).values():
            lines.append(
                f".{place.css_class} {{ --seat-x: {place.x:.1f}%; --seat-y: {place.y:.1f}%; }}"
            )
    return "\n".join(lines)


@dataclass(frozen=True)
class _Seat:
    seat: int
    is_you: bool


def seat_places(seats: Sequence[Any]) -> dict[int, Place]:
    """Each seat's place around an oval table, the viewer's seat nearest, the next seats
    in turn order going clockwise (to the viewer's left, as at a real table).

    >>> from types import SimpleNamespace as S
    >>> places = seat_places([S(seat=0, is_you=False), S(seat=1, is_you=True)])
    >>> places[1].side, places[0].side
    ('near', 'far')
    >>> [p.side for p in seat_places([S(seat=s, is_you=s == 0) for s in range(4)]).values()]
    ['near', 'left', 'far', 'right']
    """
    n = len(seats)
    you = next((i for i, s in enumerate(seats) if getattr(s, "is_you", False)), 0)
    places: dict[int, Place] = {}
    for i, s in enumerate(seats):
        order = (i - you) % n
        # Screen angles, y downwards: 90 degrees is the near side, then clockwise.
        angle = math.radians(90 + order * 360 / n)
        x, y = 50 + RADIUS_X * math.cos(angle), 50 + RADIUS_Y * math.sin(angle)
        if order == 0:
            side = "near"
        elif y < 30:
            side = "far"
        else:
            side = "left" if x < 50 else "right"
        places[s.seat] = Place(round(x, 1), round(y, 1), side, order, n)
    return places


@register.simple_tag
def table_places(seats: Sequence[Any]) -> dict[int, Place]:
    return seat_places(seats)


@register.filter
def place_of(places: dict[int, Place], seat: int) -> Place | None:
    return places.get(seat)


@register.filter
def card_key(index: int) -> str:
    """The shortcut key of the card at ``index`` in the hand ("" past the last key)."""
    return CARD_KEYS[index] if 0 <= index < len(CARD_KEYS) else ""


@register.filter
def backs(count: int) -> range:
    """How many face-down backs to draw for a hand of ``count`` cards."""
    return range(min(max(int(count), 0), MAX_BACKS))


@register.simple_tag
def previous_play(log: Sequence[Any]) -> list[str]:
    """The cards of the play beneath the one on the field: the last two plays since the
    field last cleared, read from the round's log ([] if there is none).

    >>> from types import SimpleNamespace as S
    >>> log = [S(kind="play", cards=["S3"]), S(kind="pass", cards=[]),
    ...        S(kind="play", cards=["H5"]), S(kind="effect", cards=[])]
    >>> previous_play(log)
    ['S3']
    >>> previous_play(log + [S(kind="clear", cards=[]), S(kind="play", cards=["D7"])])
    []
    """
    plays: list[list[str]] = []
    for event in reversed(log):
        kind = getattr(event, "kind", "")
        if kind in ("clear", "over", "exchange"):
            break
        if kind == "play" and getattr(event, "cards", None):
            plays.append(list(event.cards))
            if len(plays) == 2:
                return plays[1]
    return []
