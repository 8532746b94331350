"""What a step shows: the table, the texts, the feedback, the controls — in the active
language, computed from the lesson data, the step's saved state and the rules engine."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from daifugo_site.ui.labels import cards_text, suit_labels
from daifugo_site.ui.narrator import Line, narrate, out_causes, out_text
from daifugo_site.ui.reasons import reason_text
from rules_engine import Round, card_codes, parse_cards
from rules_engine.state import EXCHANGE, PLAY

from . import engine
from .markup import render
from .models import Kind, Lesson, Step

SOLUTION_DELAY = 20  # seconds before "show the solution" appears …
SOLUTION_TRIES = 2  # … or after this many wrong answers


def seat_name(seat: int) -> str:
    if seat == engine.LEARNER:
        return _("You")
    # Translators: a seat at a lesson's table; lessons call them player 1, 2, 3…
    return _("Player %(number)s") % {"number": seat}


def move_codes(text: str) -> list[str]:
    cards, _form = engine.split_move(text)
    if cards == "pass" or not cards:
        return []
    return card_codes(parse_cards(cards, 2))


# -- sentences for what happened ----------------------------------------------------------------

#: A sentence about a replayed action: the narrator's (text, cards, kind).
Event = Line


def describe(action: dict[str, Any], seat: int, before: Round, after: Round) -> list[Event]:
    """One replayed action in sentences: the engine's record of what it did, narrated
    (``action``, ``seat`` and ``before`` are what the replay log holds; the effects on
    ``after`` already say everything)."""
    return narrate(after.effects, seat_name)


# -- the table ------------------------------------------------------------------------------


@dataclass
class SeatView:
    seat: int
    name: str
    count: int
    is_you: bool
    is_turn: bool
    passed: bool
    place: int | None
    penalised: bool
    codes: list[str]  # face up, or empty when the hand is hidden
    owes: int = 0
    out_text: str = ""  # "Out: place 2", or the penalty that put the seat there


@dataclass
class TableView:
    seats: list[SeatView]
    hand: list[str]
    field: list[str]
    field_name: str
    revolution: bool
    jback: bool
    lock_suits: list[str]
    number_lock: bool
    phase: str
    owe: int
    can_pass: bool
    your_turn: bool
    ambiguous: bool  # some legal play needs its form chosen (group or sequence)
    show_hands: bool


def table_view(table: engine.Table, show_hands: bool) -> TableView:
    r = table.round
    # Why each penalised seat took its place, as the engine recorded it when it happened.
    causes = out_causes(e for logged in table.log for e in logged.after.effects)
    seats = []
    places = r.places()
    for seat in range(r.n):
        place = places[seat] if seat in r.out else None
        seats.append(
            SeatView(
                seat=seat,
                name=seat_name(seat),
                count=len(card_codes(r.hands[seat])),
                is_you=seat == engine.LEARNER,
                is_turn=r.phase == PLAY and r.to_act == seat,
                passed=r.phase == PLAY and bool(r.passed >> seat & 1) and r.top is not None,
                place=place,
                penalised=seat in r.penalised,
                codes=card_codes(r.hands[seat]) if show_hands and seat != 0 else [],
                owes=r.owed[seat] if r.phase == EXCHANGE else 0,
                out_text=out_text(place, causes.get(seat, "")) if place else "",
            )
        )
    legal = engine.legal_strings(r) if r.to_act == engine.LEARNER else []
    return TableView(
        seats=seats,
        hand=card_codes(r.hands[engine.LEARNER]),
        field=card_codes(r.top.cards) if r.top is not None else [],
        field_name=seat_name(r.last) if r.top is not None and r.last >= 0 else "",
        revolution=r.revolution,
        jback=r.jback,
        lock_suits=suit_labels(r.lock),
        number_lock=r.nlock,
        phase=r.phase_name,
        owe=r.owed[engine.LEARNER] if r.phase == EXCHANGE else 0,
        can_pass="pass" in legal,
        your_turn=engine.learner_to_act(r),
        ambiguous=any("/" in m for m in legal),
        show_hands=show_hands,
    )


# -- the step ---------------------------------------------------------------------------------


@dataclass
class Feedback:
    tone: str  # "right", "wrong", "info"
    text: str = ""  # plain sentence (escaped by the template)
    html: SafeString | str = ""  # an author's explanation, rendered Markdown
    codes: list[str] = field(default_factory=list)  # the move it is about
    events: list[Event] = field(default_factory=list)
    note: str = ""  # a closing sentence
    details: list[tuple[list[str], str]] = field(default_factory=list)  # (cards, sentence)


def step_table(lesson: Lesson, step: Step, state: dict[str, Any]) -> engine.Table:
    """The table as the learner sees it now: the step's table plus what was played in it."""
    extra: list[dict[str, Any]] = []
    if step.kind == Kind.WATCH:
        extra = list(step.data.get("script", []))[: int(state.get("shown", 0))]
    elif step.kind == Kind.PUZZLE:
        extra = list(state.get("line", []))
    elif step.kind == Kind.PLAY and state.get("done") and state.get("answer") is not None:
        extra = [answer_action(state["answer"])]
    return engine.build_table(lesson.rules, step.table, extra)


def answer_action(move: str, seat: int = engine.LEARNER, exchange: bool = False) -> dict[str, Any]:
    if exchange:
        return {"give": move, "by": seat}
    if move == "pass":
        return {"pass": True, "by": seat}
    cards, form = engine.split_move(move)
    action: dict[str, Any] = {"play": cards, "by": seat}
    if form:
        action["form"] = form
    return action


def feedback_view(
    step: Step,
    state: dict[str, Any],
    r_before: Round | None,
    events: list[Event] | None = None,
) -> Feedback | None:
    """The last action's feedback in the active language. ``r_before``: the table the
    answer was given at (to match tempting wrong moves); ``events``: sentences for the
    actions the feedback is about (puzzle replies, the watched play)."""
    data = state.get("feedback")
    if not data:
        return None
    kind = data.get("type")
    move = data.get("move", "")
    codes = move_codes(move) if move else []
    if kind == "refused":
        if data.get("reason") == "not_a_combination" and data.get("ambiguous"):
            text = _(
                "These cards can be read as a group or as a sequence: choose which, then play."
            )
        else:
            text = reason_text(data.get("reason"))
        return Feedback("wrong", text, codes=codes)
    if kind == "select":
        return Feedback("info", _("Select one or more cards first, then press Play."))
    if kind == "unknown_card":
        return Feedback("wrong", reason_text("unknown_card"))
    if kind == "right":
        return Feedback("right", _("Right!"), render(step.right), codes=codes)
    if kind == "wrong":
        for wrong in step.wrong_moves.all():
            if _same_move(wrong.move, move, r_before):
                return Feedback("wrong", _("Not this time."), render(wrong.text), codes=codes)
        if step.other:
            return Feedback("wrong", _("Not this time."), render(step.other), codes=codes)
        return Feedback(
            "wrong",
            _("That move is allowed, but it is not what this step asks for. Try another."),
            codes=codes,
        )
    if kind == "choice":
        choices = list(step.choices.all())
        index = int(data.get("index", -1))
        if not 0 <= index < len(choices):
            return None
        choice = choices[index]
        tone = "right" if choice.correct else "wrong"
        head = _("Right!") if choice.correct else _("Not quite.")
        return Feedback(tone, head, render(choice.explain))
    if kind == "legal":
        if data.get("correct"):
            return Feedback(
                "right", _("Right: those are exactly the legal plays."), render(step.right)
            )
        missing = int(data.get("missing", 0))
        extra = data.get("extra", [])
        parts = []
        if missing:
            parts.append(_("Legal plays you missed: %(count)d.") % {"count": missing})
        if extra:
            parts.append(
                _("Choices that cannot be played here: %(count)d.") % {"count": len(extra)}
            )
        items = [(move_codes(m), reason_text(reason)) for m, reason in extra]
        return Feedback("wrong", " ".join(parts), details=items)
    if kind in ("puzzle_good", "puzzle_done"):
        events = list(events or [])
        if kind == "puzzle_done":
            return Feedback("right", _("Solved!"), render(step.right), codes=codes, events=events)
        head = _("Good move. The others answer:") if events else _("Good move. Play on.")
        return Feedback("right", head, codes=codes, events=events)
    if kind == "watch":
        lines = list(step.script_lines.all())
        shown = int(data.get("line", 0))
        caption = lines[shown - 1].caption if 0 < shown <= len(lines) else ""
        return Feedback("info", "", render(caption), events=list(events or []))
    if kind == "choose_first":
        return Feedback("info", _("Choose an answer first."))
    if kind == "puzzle_losing":
        return _losing_feedback(step, data, codes)
    if kind == "too_big":
        return Feedback("info", _("This position is too big to judge here. Try Retry."))
    if kind == "not_yet":
        return Feedback(
            "info",
            _("The solution can be shown after two tries or %(seconds)d seconds.")
            % {"seconds": SOLUTION_DELAY},
        )
    return None


def _losing_feedback(step: Step, data: dict[str, Any], codes: list[str]) -> Feedback:
    place = int(data.get("place", 0))
    items = []
    for entry in data.get("line", []):
        seat, move = int(entry[0]), str(entry[1])
        out = entry[2] if len(entry) > 2 else None
        cards = move_codes(move)
        if seat == engine.LEARNER:
            sentence = (
                _("You pass.")
                if move == "pass"
                else _("You play %(cards)s.") % {"cards": cards_text(cards)}
            )
        elif move == "pass":
            sentence = _("%(name)s passes.") % {"name": seat_name(seat)}
        else:
            sentence = _("%(name)s plays %(cards)s.") % {
                "name": seat_name(seat),
                "cards": cards_text(cards),
            }
        if out is not None:
            # Translators: follows a play in a puzzle's explanation line.
            sentence += " " + _("%(name)s is out, in place %(place)d.") % {
                "name": seat_name(seat),
                "place": int(out),
            }
        items.append((cards, sentence))
    finished = data.get("finished")
    if finished is not None:
        text = _("With this move you finish in place %(place)d.") % {"place": int(finished) + 1}
    elif items:
        text = _(
            "After this, the others can stop you. This is how it goes, even with your best replies:"
        )
    else:
        text = _("After this, whatever you play next, the others can stop you.")
    if place == 0:
        note = _("The goal is to go out first whatever the others do.")
    else:
        note = _("The goal is to finish in place %(place)d or better whatever the others do.") % {
            "place": place + 1
        }
    return Feedback(
        "wrong",
        text,
        render(step.other) if step.other else "",
        codes=codes,
        details=items,
        note=note,
    )


def _same_move(author: str, learner: str, r: Round | None) -> bool:
    if r is None:
        return author.strip() == learner
    try:
        return engine.normal_move(r, author) == learner
    except ValueError:
        return False


def hints(step: Step, state: dict[str, Any]) -> list[SafeString]:
    shown = int(state.get("hint", 0))
    texts = [step.hint1, step.hint2][:shown]
    return [render(text) for text in texts if text]


def hint_stages(step: Step) -> int:
    return sum(1 for text in (step.hint1, step.hint2) if text)


def solution_wait(state: dict[str, Any], now: float | None = None) -> int:
    """Seconds until the solution may be shown (0: now)."""
    if state.get("tries", 0) >= SOLUTION_TRIES:
        return 0
    now = time.time() if now is None else now
    return max(0, int(SOLUTION_DELAY - (now - float(state.get("started", now))) + 0.999))


def play_url(lesson: Lesson) -> str:
    try:
        return reverse("play:index") + f"?preset={lesson.preset}"
    except NoReverseMatch:
        return ""
