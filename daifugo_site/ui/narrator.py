"""The one narrator: the engine's effects (``Round.effects``) as sentences.

Every page that tells what happened (the play log, the tutor, the rules-page examples) hands
the effects of an action to :func:`narrate`, with a function naming seats its own way. The
sentences never guess from two states: they say what the engine recorded, so an 8 that
clears the field because nobody is left to answer is not called an 8-cut, and a penalised
finish names the rule it broke and the place it takes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field, replace

from django.utils.functional import Promise

from rules_engine import card_codes
from rules_engine import effects as fx
from rules_engine.effects import Effect

from .labels import cards_text, ranks_text, suits_text
from .language import gettext as _
from .language import gettext_lazy, ngettext

#: The line kinds (a CSS hook and a test hook): what a line is about.
LINE_KINDS = ("play", "pass", "effect", "out", "clear", "exchange", "over")


@dataclass(frozen=True)
class Line:
    """One sentence of narration, with the card codes it shows (if any)."""

    text: str
    cards: list[str] = field(default_factory=list)
    kind: str = "effect"
    #: The engine's effect kinds this sentence tells (with those told by it rather than by
    #: a sentence of their own, e.g. an 8-cut said by the clear): what the page's sounds
    #: read (daifugo_site/play/cues.py), so that they follow what the engine recorded.
    effects: tuple[str, ...] = field(default=(), compare=False)


# Whole sentences per case, so each language words them its own way.
_PENALTY: dict[str, Promise] = {
    "joker": gettext_lazy(
        "Forbidden finish: %(name)s went out with a joker and takes place %(place)d."
    ),
    "lone_joker": gettext_lazy(
        "Forbidden finish: %(name)s went out with a lone joker and takes place %(place)d."
    ),
    "top_rank": gettext_lazy(
        "Forbidden finish: %(name)s went out with the strongest rank and takes place %(place)d."
    ),
    "eight": gettext_lazy(
        "Forbidden finish: %(name)s went out with an 8 and takes place %(place)d."
    ),
    "eight_cut": gettext_lazy(
        "Forbidden finish: %(name)s went out with an 8-cut and takes place %(place)d."
    ),
    "spade3_return": gettext_lazy(
        "Forbidden finish: %(name)s went out with a spade-3 return and takes place %(place)d."
    ),
    "revolution": gettext_lazy(
        "Forbidden finish: %(name)s went out with a revolution and takes place %(place)d."
    ),
}

_CLEAR: dict[str, Promise] = {
    "eight_cut": gettext_lazy("8-cut: the field clears and %(name)s leads."),
    "spade3": gettext_lazy("Spade-3 return: the field clears and %(name)s leads."),
    "all_passed": gettext_lazy("Everyone else has passed: the field clears and %(name)s leads."),
    "nobody_left_to_answer": gettext_lazy(
        "Nobody is left to answer: the field clears and %(name)s leads."
    ),
    "sandstorm": gettext_lazy("Sandstorm: the field clears and %(name)s leads."),
}


def penalty_text(entry: str, name: str, place: int) -> str:
    """A penalised finish: which forbidden_finish entry, and the place it takes."""
    return str(_PENALTY[entry]) % {"name": name, "place": place}


def clear_text(reason: str, leader: str) -> str:
    """Why the field cleared, and who leads now."""
    return str(_CLEAR[reason]) % {"name": leader}


#: The effects that put a seat in a place from the bottom, and the seat state each gives.
_OUT_BY_CAUSE: dict[str, Promise] = {
    fx.PENALISED: gettext_lazy("Out, forbidden finish: place %(place)s"),
    fx.MIYAKO_OCHI: gettext_lazy("Out, miyako-ochi: place %(place)s"),
}


def out_causes(effects: Iterable[Effect]) -> dict[int, str]:
    """Seat -> the kind of the effect that gave it a place from the bottom
    (``penalised``: a forbidden finish; ``miyako_ochi``), as the engine recorded them.
    ``effects`` are those of every action of a round so far, in order."""
    return {e.seat: e.kind for e in effects if e.kind in _OUT_BY_CAUSE}


def out_text(place: int, cause: str = "") -> str:
    """A seat's state once it is out: its place, and why it took it when it was put there
    (``cause`` from :func:`out_causes`; empty for a seat that went out on its own)."""
    label = _OUT_BY_CAUSE.get(cause)
    if label is None:
        return _("Out: place %(place)s") % {"place": place}
    return str(label) % {"place": place}


def narrate(
    effects: Iterable[Effect],
    name: Callable[[int], str],
    *,
    skip: Collection[str] = (),
) -> list[Line]:
    """The effects of one action as sentences, in order. ``name`` names a seat; ``skip``
    leaves out kinds the page shows otherwise (e.g. the play itself).

    Gifts whose cards are hidden (``cards == 0``, see ``rules_engine.effects.visible_to``)
    are told by their number of cards only.
    """
    effects = list(effects)
    kinds = {e.kind for e in effects}
    lines: list[Line] = []
    untold: tuple[str, ...] = ()
    for e in effects:
        if e.kind in skip:
            continue
        line = _line(e, name, kinds)
        if line is None:
            untold += (e.kind,)
            continue
        lines.append(replace(line, effects=(*untold, e.kind)))
        untold = ()
    if untold and lines:
        last = lines[-1]
        lines[-1] = replace(last, effects=last.effects + untold)
    return lines


def _line(e: Effect, name: Callable[[int], str], kinds: set[str]) -> Line | None:
    kind = e.kind
    if kind == fx.PLAYED:
        assert e.move is not None
        codes = card_codes(e.move.cards)
        text = _("%(name)s played %(cards)s.") % {"name": name(e.seat), "cards": cards_text(codes)}
        return Line(text, codes, "play")
    if kind == fx.PASSED:
        return Line(_("%(name)s passed.") % {"name": name(e.seat)}, [], "pass")
    if kind == fx.EIGHT_CUT:
        # The clear that follows says it; alone (the round ended) it is said here.
        return None if fx.CLEARED in kinds else Line(_("It is an 8-cut."))
    if kind == fx.SPADE3_RETURN:
        return None if fx.CLEARED in kinds else Line(_("It is a spade-3 return."))
    if kind == fx.SANDSTORM:
        # Said here, not by the house-rule lines: None there would read as an unknown kind.
        return None if fx.CLEARED in kinds else Line(_("It is a sandstorm."))
    if kind == fx.REVOLUTION:
        if e.on:
            return Line(_("Revolution! The order of strength is reversed."))
        return Line(
            _("Another revolution: the revolution ends and the order of strength turns back.")
        )
    if kind == fx.JBACK:
        if e.on:
            return Line(_("11-back: the order is reversed until the field clears."))
        if e.reason == "played":
            return Line(_("11-back again: the order turns back until the field clears."))
        return Line(_("11-back ends with the field: the order of strength turns back."))
    if kind == fx.SUIT_LOCK:
        return Line(
            _("Suit lock: until the field clears, only %(suits)s may be played.")
            % {"suits": suits_text(e.suits)}
        )
    if kind == fx.NUMBER_LOCK:
        return Line(_("Number lock: each play must be one rank stronger until the field clears."))
    if kind == fx.WENT_OUT:
        text = _("%(name)s went out in place %(place)d.") % {"name": name(e.seat), "place": e.place}
        return Line(text, [], "out")
    if kind == fx.PENALISED:
        return Line(penalty_text(e.reason, name(e.seat), e.place), [], "out")
    if kind == fx.MIYAKO_OCHI:
        text = _(
            "Miyako-ochi: %(name)s, first in the last round, did not go out first and drops "
            "out in place %(place)d."
        ) % {"name": name(e.seat), "place": e.place}
        return Line(text, [], "out")
    if kind == fx.CLEARED:
        return Line(clear_text(e.reason, name(e.seat)), [], "clear")
    if kind == fx.GIFT:
        return _gift_line(e, name)
    if kind == fx.EXCHANGE_OVER:
        return Line(
            _("The exchange is over. %(name)s leads.") % {"name": name(e.seat)}, [], "exchange"
        )
    if kind == fx.ROUND_OVER:
        return Line(_("The round is over."), [], "over")
    house = _house_line(e, name, kinds)
    if house is not None:
        return house
    raise ValueError(f"unknown effect kind {kind!r}")


def _gift_line(e: Effect, name: Callable[[int], str]) -> Line:
    values: dict[str, object] = {"giver": name(e.seat), "receiver": name(e.to), "count": e.size}
    if e.cards:
        codes = card_codes(e.cards)
        values["cards"] = cards_text(codes)
        if e.on:
            text = _("%(giver)s handed %(cards)s to %(receiver)s automatically.") % values
        else:
            text = _("%(giver)s gave %(cards)s to %(receiver)s.") % values
        return Line(text, codes, "exchange")
    if e.on:
        text = (
            ngettext(
                "%(giver)s handed %(count)d card to %(receiver)s automatically.",
                "%(giver)s handed %(count)d cards to %(receiver)s automatically.",
                e.size,
            )
            % values
        )
    else:
        text = (
            ngettext(
                "%(giver)s gave back %(count)d card to %(receiver)s.",
                "%(giver)s gave back %(count)d cards to %(receiver)s.",
                e.size,
            )
            % values
        )
    return Line(text, [], "exchange")


# -- house rules (RULES.md section 8) ---------------------------------------------------


def _house_line(e: Effect, name: Callable[[int], str], kinds: set[str]) -> Line | None:
    kind = e.kind
    if kind == fx.REVERSED:
        if e.on:
            return Line(_("9-reverse: the turn now goes round the other way."))
        return Line(_("9-reverse: the turn goes round the usual way again."))
    if kind == fx.SKIPPED:
        return Line(_("5-skip: %(name)s's turn is skipped.") % {"name": name(e.seat)}, [], "pass")
    if kind == fx.OWES:
        return _owes_line(e, name)
    if kind == fx.GAVE:
        values: dict[str, object] = {
            "giver": name(e.seat),
            "receiver": name(e.to),
            "count": e.size,
        }
        if e.cards:
            codes = card_codes(e.cards)
            values["cards"] = cards_text(codes)
            return Line(_("7-pass: %(giver)s gave %(cards)s to %(receiver)s.") % values, codes)
        text = (
            ngettext(
                "7-pass: %(giver)s gave %(count)d card to %(receiver)s.",
                "7-pass: %(giver)s gave %(count)d cards to %(receiver)s.",
                e.size,
            )
            % values
        )
        return Line(text)
    if kind == fx.DISCARDED:
        codes = card_codes(e.cards)
        text = _("%(name)s discarded %(cards)s face up.") % {
            "name": name(e.seat),
            "cards": cards_text(codes),
        }
        return Line(text, codes)
    if kind == fx.NAMED:
        text = _("12-bomber: %(name)s named %(ranks)s.") % {
            "name": name(e.seat),
            "ranks": ranks_text(e.ranks),
        }
        return Line(text)
    return None


def _owes_line(e: Effect, name: Callable[[int], str]) -> Line:
    values: dict[str, object] = {"name": name(e.seat), "count": e.size}
    if e.reason == "give":
        values["receiver"] = name(e.to)
        text = ngettext(
            "7-pass: %(name)s chooses %(count)d card to give to %(receiver)s.",
            "7-pass: %(name)s chooses %(count)d cards to give to %(receiver)s.",
            e.size,
        )
    elif e.reason == "discard":
        text = ngettext(
            "10-discard: %(name)s chooses %(count)d card to discard.",
            "10-discard: %(name)s chooses %(count)d cards to discard.",
            e.size,
        )
    else:
        text = ngettext(
            "12-bomber: %(name)s names %(count)d rank; every player discards all their "
            "cards of it.",
            "12-bomber: %(name)s names %(count)d ranks; every player discards all their "
            "cards of them.",
            e.size,
        )
    return Line(text % values)
