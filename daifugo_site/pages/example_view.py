"""An example hand as a reader sees it, worked out by the rules engine.

The scenario is run with ``run_scenario``; each round it passes through carries the engine's
record of what the step did (``Round.effects``: the field cleared and why, a revolution, a
lock, someone went out and in which place), told by the site's one narrator
(``daifugo_site.ui.narrator``). So the page shows what the engine did, never a description
typed by hand or guessed from two states: the only hand-written part is the caption, and the
scenario's own checks make the engine agree with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from daifugo_site.ui.labels import preset_label, ranks_text, title_label
from daifugo_site.ui.narrator import narrate
from rules_engine import SEQUENCE, Round, card_codes, parse_cards
from rules_engine.cards import RANKS
from rules_engine.effects import DISCARDED, GAVE, GIFT, NAMED, PASSED, PLAYED
from rules_engine.scenarios import run_scenario
from rules_engine.state import titles_for

from .option_values import format_value, list_separator

SEAT_LETTERS = "ABCDEF"


class ExampleError(ValueError):
    """The scenario does not run: an example must never be shown wrong."""


def seat_label(seat: int) -> str:
    # Numbered by seat from 1, as the glossary and the lessons name players (1号玩家,
    # プレイヤー1); the same message as the lessons' seats.
    return gettext("Player %(number)s") % {"number": seat + 1}


def reason_label(reason: str) -> str:
    """Why the engine refuses a move, as a short clause."""
    texts = {
        "round_over": gettext("the round is over"),
        "wrong_phase": gettext("not at this stage of the round"),
        "passed_until_clear": gettext("this player passed and sits out until the field clears"),
        "not_your_turn": gettext("it is not this player's turn"),
        "not_in_hand": gettext("those cards are not in the hand"),
        "bad_exchange": gettext("the wrong number of cards to give back"),
        "not_a_combination": gettext("those cards are not a single, a group or a sequence"),
        "leader_cannot_pass": gettext("the leader may not pass"),
        "wrong_form": gettext("it is not the same kind of play as the field"),
        "wrong_count": gettext("it is not the same number of cards as the field"),
        "suit_locked": gettext("the suits are locked"),
        "number_locked": gettext("the number lock asks for exactly one rank higher"),
        "not_stronger": gettext("it is not stronger than the field"),
        "choice_owed": gettext("a choice is owed first"),
        "no_choice_owed": gettext("no choice of that kind is owed"),
        "not_a_rank": gettext("that is not a rank from 3 to 2"),
        "rank_repeated": gettext("a rank is named twice"),
    }
    return texts.get(reason, reason)


def choice_reason_label(reason: str) -> str:
    """Why the engine refuses a house-rule choice: a count is the count owed, not the
    field's."""
    if reason == "wrong_count":
        return gettext("it is not the number of cards owed")
    return reason_label(reason)


def _rank_text(rank: int) -> str:
    return "10" if RANKS[rank] == "T" else RANKS[rank]


def _cards_html(codes: Sequence[str]) -> SafeString:
    from daifugo_site.ui.templatetags.cards import cards_html

    return cards_html(list(codes))


def _move_codes(text: str) -> list[str]:
    cards, _slash, _form = text.partition("/")
    return card_codes(parse_cards(cards))


@dataclass
class Move:
    is_pass: bool
    cards: SafeString | None = None


@dataclass
class Step:
    # play, pass, give, illegal, illegal_pass, illegal_give, legal, and the house rules'
    # choices: choose, name, illegal_choose, illegal_name
    kind: str
    who: str
    cards: SafeString | None = None
    reason: str = ""
    moves: list[Move] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ranks: str = ""


@dataclass
class Hand:
    who: str
    cards: SafeString
    previous_title: str = ""


@dataclass
class ExampleView:
    slug: str
    caption: str
    rules: str
    intro: list[str]
    hands: list[Hand]
    steps: list[Step]
    result: list[str]
    #: The scenario itself: the "try a variation" link opens it in the rules checker.
    scenario: Mapping[str, Any] | None = None


def rules_summary(rules_data: Mapping[str, Any], option_texts: Mapping[str, Any]) -> str:
    """ "standard" or "party; 8-cut: any …": the preset and each option the scenario sets."""
    data = dict(rules_data)
    # The preset by its name in the language (a key such as "house" reads as English).
    preset = preset_label(str(data.pop("preset", "basic")))
    if not data:
        return gettext("Rules: the %(preset)s preset.") % {"preset": preset}
    parts = []
    for name, value in data.items():
        option = option_texts.get(name)
        label = option.label if option is not None else name
        labels = option.value_labels() if option is not None else {}
        parts.append(
            gettext("%(option)s: %(value)s")
            % {"option": label, "value": format_value(value, labels)}
        )
    return gettext("Rules: the %(preset)s preset, with %(changes)s.") % {
        "preset": preset,
        "changes": list_separator().join(parts),
    }


def _joker_note(move: Any) -> str:
    """What the jokers of a play stand for, when it has real cards too."""
    codes = card_codes(move.cards)
    real = [code for code in codes if code != "JK"]
    if not move.jokers or not real:
        return ""
    if move.form == SEQUENCE:
        suit = real[0][0]
        covered = [f"{suit}{RANKS[rank]}" for rank in range(move.low, move.high + 1)]
        standing = [code for code in covered if code not in real]
        from daifugo_site.ui.templatetags.cards import card_name

        return gettext("The joker counts as %(cards)s.") % {
            "cards": list_separator().join(card_name(code) for code in standing)
        }
    return gettext("The joker counts as a %(rank)s.") % {"rank": _rank_text(move.rank)}


def _notes(after: Round, played: Any | None) -> list[str]:
    """What a step did, in reading order: the joker's reading, then the narrated effects
    (the play or pass itself is the step's own line)."""
    notes: list[str] = []
    if played is not None:
        joker = _joker_note(played)
        if joker:
            notes.append(joker)
    notes += [line.text for line in narrate(after.effects, seat_label, skip=(PLAYED, PASSED))]
    return notes


def build(
    slug: str, caption: str, scenario: Mapping[str, Any], option_texts: Mapping[str, Any]
) -> ExampleView:
    """The view of one example, in the active language; ExampleError if the engine disagrees."""
    result = run_scenario(scenario)
    if not result.ok:
        where = "" if result.step is None else f" at step {result.step}"
        raise ExampleError(f"example {slug!r} fails{where}: {result.message}")
    rounds = result.rounds
    first = rounds[0]
    steps_data: list[Mapping[str, Any]] = list(scenario["steps"])

    involved: set[int] = set()
    steps: list[Step] = []
    for index, step in enumerate(steps_data):
        before = rounds[index]
        after = rounds[index + 1]
        actor = step.get("by", before.to_act)
        if "expect" in step:
            continue
        involved.add(actor)
        # A house rule's gift or discards reach other hands: show those hands too.
        involved.update(
            e.to if e.kind == GAVE else e.seat for e in after.effects if e.kind in (GAVE, DISCARDED)
        )
        who = seat_label(actor)
        if "play" in step:
            played = next((e.move for e in after.effects if e.kind == PLAYED), None)
            steps.append(
                Step(
                    "play",
                    who,
                    cards=_cards_html(_move_codes(step["play"])),
                    notes=_notes(after, played),
                )
            )
        elif "pass" in step:
            steps.append(Step("pass", who, notes=_notes(after, None)))
        elif "give" in step:
            steps.append(
                Step(
                    "give",
                    who,
                    cards=_cards_html(_move_codes(step["give"])),
                    notes=[line.text for line in narrate(after.effects, seat_label, skip=(GIFT,))],
                )
            )
        elif "illegal" in step:
            reason = reason_label(step["reason"])
            if step["illegal"] == "pass":
                steps.append(Step("illegal_pass", who, reason=reason))
            else:
                cards_html = _cards_html(_move_codes(step["illegal"]))
                steps.append(Step("illegal", who, cards=cards_html, reason=reason))
        elif "illegal_give" in step:
            cards_html = _cards_html(_move_codes(step["illegal_give"]))
            steps.append(
                Step("illegal_give", who, cards=cards_html, reason=reason_label(step["reason"]))
            )
        elif "choose" in step:
            steps.append(
                Step(
                    "choose",
                    who,
                    cards=_cards_html(_move_codes(step["choose"])),
                    notes=[line.text for line in narrate(after.effects, seat_label)],
                )
            )
        elif "name" in step:
            named = next((e.ranks for e in after.effects if e.kind == NAMED), 0)
            steps.append(
                Step(
                    "name",
                    who,
                    ranks=ranks_text(named),
                    notes=[line.text for line in narrate(after.effects, seat_label, skip=(NAMED,))],
                )
            )
        elif "illegal_choose" in step:
            cards_html = _cards_html(_move_codes(step["illegal_choose"]))
            reason = choice_reason_label(step["reason"])
            steps.append(Step("illegal_choose", who, cards=cards_html, reason=reason))
        elif "illegal_name" in step:
            reason = choice_reason_label(step["reason"])
            steps.append(Step("illegal_name", who, ranks=str(step["illegal_name"]), reason=reason))
        elif "legal" in step:
            moves = [
                Move(True) if text == "pass" else Move(False, _cards_html(_move_codes(text)))
                for text in step["legal"]
            ]
            steps.append(Step("legal", who, moves=moves))

    intro: list[str] = []
    previous = scenario.get("previous")
    previous_titles: tuple[str, ...] = ()
    if previous is not None:
        previous_titles = titles_for(tuple(previous))
        involved.update(previous)
    if scenario.get("revolution"):
        intro.append(gettext("A revolution is in force from the start."))
    for giver, receiver, _gift, _automatic in first.exchange:
        involved.update((giver, receiver))
    intro += [line.text for line in narrate(first.effects, seat_label)]
    for seat in rounds[-1].out:
        involved.add(seat)

    hands = [
        Hand(
            who=seat_label(seat),
            cards=_cards_html(card_codes(parse_cards(text, 2)) if text.strip() else []),
            previous_title=title_label(previous_titles[seat]) if previous_titles else "",
        )
        for seat, text in enumerate(scenario["hands"])
        if seat in involved
    ]

    final = rounds[-1]
    result_lines: list[str] = []
    if final.over and final.result is not None:
        titles = final.titles() or ()
        for seat in final.result:
            result_lines.append(
                gettext("%(player)s: %(title)s")
                % {"player": seat_label(seat), "title": title_label(titles[seat])}
            )
    return ExampleView(
        slug=slug,
        caption=caption,
        rules=rules_summary(scenario["rules"], option_texts),
        intro=intro,
        hands=hands,
        steps=steps,
        result=result_lines,
        scenario=scenario,
    )


def render(
    slug: str, caption: str, scenario: Mapping[str, Any], option_texts: Mapping[str, Any]
) -> str:
    view = build(slug, caption, scenario, option_texts)
    return render_to_string("pages/rules/_example.html", {"example": view})
