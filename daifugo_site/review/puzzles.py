"""Positions of a reviewed game as puzzles in the tutor's format.

A position qualifies when the review's verdict was exact (only one other player holds
cards, and the reviewed player's observation fixes that hand) and the player could force
the better of the two places left. The puzzle is the tutor's own kind of step (a lesson of
category ``puzzles``): a two-seat table with the reviewed player as seat 0, the other
player's hand face up, and, when the other player's play lies on the field, that play as
the table's one scripted action. It is checked by the tutor's own validation
(:func:`tutorials.validation.validate_lesson`: engine and solver) before it is saved, and
the rebuilt table must be the reviewed position (same hands, field, revolution, 11-back
and locks). The texts come from the engine's effects and the solver, in both languages.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from daifugo_site.ui.labels import cards_text
from rules_engine import card_codes, format_cards
from tutorials import engine
from tutorials.loader import save_lesson
from tutorials.models import Lesson, PlayerPuzzle
from tutorials.spec import LANGS, LessonSpec, StepSpec
from tutorials.validation import validate_lesson

from . import presenter
from .analysis import exact_world
from .models import Review

#: Puzzles made from players' games come after the tutor's own in its order.
ORDER = 9000


class NotAPuzzle(Exception):
    """This position cannot become a puzzle; ``message`` says why (translated lazily)."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


NOT_EXACT = gettext_lazy(
    "Only a position the endgame solver settled exactly, with a move that wins it, can "
    "become a puzzle."
)
NOT_REBUILT = gettext_lazy(
    "This position cannot be set up as a puzzle table (the field was played by a player "
    "who is already out, or a lock is in force)."
)
INVALID = gettext_lazy("The puzzle did not pass the tutor's checks, so it was not saved.")


def _table(obs: Any, hero_hand: int, other_hand: int) -> list[dict[str, Any]]:
    """Candidate two-seat tables for the position (the first one that rebuilds it wins)."""
    field = obs.field
    hands = [format_cards(hero_hand), format_cards(other_hand)]
    if field is None:
        return [{"hands": hands, "leader": 0, "revolution": obs.revolution}]
    other = 1
    with_field = [format_cards(hero_hand), format_cards(other_hand | field.cards)]
    play: dict[str, Any] = {"play": format_cards(field.cards), "by": other}
    if field.ambiguous:
        play["form"] = field.form_name
    return [
        {"hands": with_field, "leader": other, "revolution": rev, "plays": [play]}
        for rev in (obs.revolution, not obs.revolution)
    ]


def _same_position(obs: Any, r: Any) -> bool:
    return (
        r.to_act == 0
        and r.hands[0] == obs.hand
        and r.top == obs.field
        and r.revolution == obs.revolution
        and r.jback == obs.jback
        and r.lock == obs.lock
        and r.nlock == obs.number_lock
    )


def spec_for(review: Review, item: dict[str, Any], slug: str) -> LessonSpec:
    """The puzzle lesson for a reviewed decision, validated. Raises :class:`NotAPuzzle`."""
    verdict = item.get("verdict")
    if not verdict or not verdict["winnable"]:
        raise NotAPuzzle(NOT_EXACT)
    found = presenter.positions(review.game, review.seat, {item["i"]})
    if item["i"] not in found:
        raise NotAPuzzle(NOT_EXACT)
    _r, obs, _round_no = found[item["i"]]
    world = exact_world(obs)
    if world is None:
        raise NotAPuzzle(NOT_EXACT)
    other = next(s for s in range(obs.players) if s != obs.seat and obs.counts[s] > 0)
    if obs.field is not None and obs.field_seat != other:
        raise NotAPuzzle(NOT_REBUILT)
    rules = dict(review.game.rules)
    table = None
    for candidate in _table(obs, obs.hand, world.hands[other]):
        try:
            built = engine.build_table(rules, candidate)
        except engine.TableError:
            continue
        if _same_position(obs, built.round):
            table = candidate
            break
    if table is None:
        raise NotAPuzzle(NOT_REBUILT)
    solution = verdict["winning"][0]
    texts = _texts(item, solution, verdict, obs, world.hands[other])
    lesson = LessonSpec(
        slug=slug,
        order=ORDER,
        category="puzzles",
        difficulty=2 if len(verdict["winning"]) > 1 else 3,
        rules=rules,
        texts={"title": texts["title"], "summary": texts["summary"]},
        steps=[
            StepSpec(
                kind="puzzle",
                table={**table, "show_hands": True},
                data={
                    "place": 0,
                    "solution": solution,
                    "unique": len(verdict["winning"]) == 1,
                },
                texts={k: texts[k] for k in ("prompt", "hint1", "hint2", "right", "other")},
            )
        ],
    )
    report = validate_lesson(lesson)
    if not report.ok:
        raise NotAPuzzle(INVALID)
    return lesson


def _texts(
    item: dict[str, Any], solution: str, verdict: dict[str, Any], obs: Any, other_hand: int
) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {
        k: {} for k in ("title", "summary", "prompt", "hint1", "hint2", "right", "other")
    }
    for lang in LANGS:
        with translation.override(lang.replace("_", "-")):
            best = presenter.move_label(solution)
            made = presenter.move_label(item["made"])
            out["title"][lang] = _("From a player's game: %(cards)s") % {
                "cards": cards_text(card_codes(obs.hand))
            }
            out["summary"][lang] = _("A position from a real game, settled by the solver.")
            out["prompt"][lang] = _(
                "Every hand is face up: you hold %(hand)s, the other player %(other)s. Find "
                "a move that makes sure you go out first whatever the other player does."
            ) % {
                "hand": cards_text(card_codes(obs.hand)),
                "other": cards_text(card_codes(other_hand)),
            }
            out["hint1"][lang] = _(
                "Count which of your plays the other player can answer, and which not."
            )
            out["hint2"][lang] = _("Start with %(move)s.") % {"move": best}
            out["right"][lang] = _(
                "%(move)s makes sure you go out first against any defence (the solver checked "
                "every reply)."
            ) % {"move": best}
            out["other"][lang] = _(
                "After that move the other player can stop you. In the game, %(made)s was "
                "played here."
            ) % {"made": made}
    return out


def from_review(review: Review, item: dict[str, Any]) -> PlayerPuzzle:
    """The puzzle of a reviewed decision (made once; asking again returns it)."""
    existing = (
        PlayerPuzzle.objects.select_related("lesson")
        .filter(game_id=review.game_id, action_index=item["i"])
        .first()
    )
    if existing is not None:
        return existing
    # Game ids are case-sensitive and slugs are not: name the game by a digest.
    digest = hashlib.sha256(review.game_id.encode()).hexdigest()[:12]
    slug = f"players-{digest}-{item['i']}"
    spec = spec_for(review, item, slug)
    try:
        with transaction.atomic():
            lesson: Lesson = save_lesson(spec)
            return PlayerPuzzle.objects.create(
                lesson=lesson, game_id=review.game_id, action_index=item["i"]
            )
    except IntegrityError:
        return PlayerPuzzle.objects.select_related("lesson").get(
            game_id=review.game_id, action_index=item["i"]
        )
