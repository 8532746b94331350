"""Actions and their JSON form: a game is ``rules + seed + actions``.

>>> a = Action.play(0, "S5 JK JK", form="group")
>>> Action.from_json(a.to_json()) == a
True
>>> a.to_json()
{'seat': 0, 'play': 'S5 JK JK', 'form': 'group'}
>>> Action.from_json({"seat": 2, "name": "Q 5"}).to_json()
{'seat': 2, 'name': '5 Q'}
>>> Action.from_json(Action.choose(1, "H4 S4").to_json()) == Action.choose(1, "S4 H4")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from .cards import RANKS, CardError, format_cards, parse_cards
from .moves import FORMS

#: ``choose`` gives or discards the cards a house rule owes; ``name`` names a bomber's ranks.
KINDS = ("play", "pass", "give", "next", "choose", "name")


class ActionError(ValueError):
    """JSON that is not an action."""


# A Python class even when the module is compiled: mypyc's native classes cannot be
# frozen dataclasses (rules_engine/_native.py).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game's log: a play, a pass, an exchange return, a house-rule
    choice (cards to give or discard, ranks to name), or moving on to the next round of
    a match. ``cards`` holds a name's ranks as rank letters."""

    kind: str
    seat: int | None = None
    cards: str | None = None
    form: str | None = None

    @classmethod
    def play(cls, seat: int, cards: str, form: str | None = None) -> Action:
        return cls("play", seat, format_cards(parse_cards(cards)), form)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return cls("pass", seat)

    @classmethod
    def give(cls, seat: int, cards: str) -> Action:
        return cls("give", seat, format_cards(parse_cards(cards)))

    @classmethod
    def choose(cls, seat: int, cards: str) -> Action:
        return cls("choose", seat, format_cards(parse_cards(cards)))

    @classmethod
    def name(cls, seat: int, ranks: str) -> Action:
        return cls("name", seat, _rank_letters(ranks))

    @classmethod
    def next_round(cls) -> Action:
        return cls("next")

    def to_json(self) -> dict[str, Any]:
        if self.kind == "next":
            return {"next": True}
        data: dict[str, Any] = {"seat": self.seat}
        if self.kind == "pass":
            data["pass"] = True
        else:
            data[self.kind] = self.cards
        if self.form is not None:
            data["form"] = self.form
        return data

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise ActionError("an action must be an object")
        kinds = [k for k in KINDS if k in data]
        if len(kinds) != 1:
            raise ActionError("an action needs exactly one of " + ", ".join(KINDS))
        kind = kinds[0]
        allowed = (
            {"next"}
            if kind == "next"
            else {kind, "seat", "form"}
            if kind == "play"
            else {
                kind,
                "seat",
            }
        )
        unknown = set(data) - allowed
        if unknown:
            raise ActionError(f"unknown key(s) {sorted(unknown)}")
        if kind == "next":
            if data["next"] is not True:
                raise ActionError("next must be true")
            return cls("next")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ActionError("seat must be a number")
        if kind == "pass":
            if data["pass"] is not True:
                raise ActionError("pass must be true")
            return cls("pass", seat)
        text = data[kind]
        if not isinstance(text, str):
            raise ActionError("cards must be a string")
        if kind == "name":
            return cls("name", seat, _rank_letters(text))
        try:
            cards = format_cards(parse_cards(text))
        except CardError as exc:
            raise ActionError(str(exc)) from None
        form = data.get("form")
        if form is not None and form not in FORMS:
            raise ActionError(f"unknown form {form!r}")
        return cls(kind, seat, cards, form)


def _rank_letters(text: str) -> str:
    # Canonical form (normal order, once each) so that equal names compare equal; a
    # repeated or unknown rank is the engine's to refuse, so it is kept as sent.
    tokens = text.split()
    if len(tokens) > len(RANKS) or any(len(t) > 2 for t in tokens):
        raise ActionError("ranks must be rank letters")
    if all(t in RANKS and len(t) == 1 for t in tokens) and len(set(tokens)) == len(tokens):
        tokens.sort(key=RANKS.index)
    return " ".join(tokens)
