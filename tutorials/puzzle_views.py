"""Mined puzzles (残局题 / 詰め問題) as rated training: the hub, the next puzzle near your
rating, the puzzle of the day, themes, streak mode and the dashboard.

A mined puzzle is shown and answered by the tutor's own lesson page (``tutorials:lesson``:
table, card buttons, the others' defence, the narrated refutation). This module adds what
makes it rated: which puzzles were served to this visitor (a move on another is refused),
the attempt (counted once, :mod:`tutorials.puzzle_rating`), the modes, and the limits.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from daifugo_site import limits

from . import engine, presenter, puzzle_rating
from .mined import PRESET_NAMES, THEME_NAMES, goal_text, theme_name
from .models import MinedPuzzle, PuzzleAttempt

SERVED_KEY = "puzzles_served"  # session: {key: mode} of the puzzles served, newest last
SERVED_MAX = 50
MODES = ("rated", "daily", "theme", "streak")
#: Answers (and hints) on puzzles per minute, per visitor and per address.
ACTS_PER_MINUTE = getattr(settings, "PUZZLE_ACTS_PER_MINUTE", 40)
ACTS_PER_MINUTE_PER_IP = getattr(settings, "PUZZLE_ACTS_PER_MINUTE_PER_IP", 200)

NOT_SERVED = gettext_lazy(
    "This puzzle was not given to you. Open it from the puzzle page first, then make your move."
)
REPLAYED = gettext_lazy("This puzzle is already answered; your result was counted once.")
TOO_MANY = gettext_lazy("Too many moves in a short time. Wait a minute, then try again.")
NO_PUZZLE = gettext_lazy("No puzzle is left for you here. Try another theme.")


def mined_of(lesson: Any) -> MinedPuzzle | None:
    try:
        return lesson.mined  # type: ignore[no-any-return]
    except MinedPuzzle.DoesNotExist:
        return None


# -- serving -------------------------------------------------------------------------------------


def serve(request: HttpRequest, puzzle: MinedPuzzle, mode: str | None = None) -> None:
    """Note that ``puzzle`` was shown to this visitor (in ``mode``; a puzzle opened by its
    link keeps the mode it was served in, else it is rated)."""
    served: dict[str, str] = dict(request.session.get(SERVED_KEY) or {})
    current = served.pop(puzzle.key, None)
    served[puzzle.key] = mode or current or "rated"
    while len(served) > SERVED_MAX:
        served.pop(next(iter(served)))
    request.session[SERVED_KEY] = served


def served_mode(request: HttpRequest, puzzle: MinedPuzzle) -> str | None:
    served = request.session.get(SERVED_KEY) or {}
    mode = served.get(puzzle.key)
    return str(mode) if mode else None


def refusal(request: HttpRequest, text: Any, status: int) -> HttpResponse:
    """The refusal as a page (``status``), or for the puzzle page's own htmx request the
    sentence in its feedback region: htmx does not swap a 4xx answer, so with scripts on
    the refusal showed nothing. The step itself is left as it is."""
    if getattr(request, "htmx", False):
        from django.utils.html import format_html

        body = format_html(
            '<div id="tutor-feedback" hx-swap-oob="innerHTML"><p class="tutor-feedback__box" '
            'role="alert" data-testid="puzzle-refused">{}</p></div>',
            str(text),
        )
        return HttpResponse(body, headers={"HX-Reswap": "none"})
    return render(request, "tutorials/puzzle_refused.html", {"reason": str(text)}, status=status)


def before_act(
    request: HttpRequest, puzzle: MinedPuzzle, action: str, state: dict[str, Any]
) -> HttpResponse | None:
    """Why this action on a mined puzzle is refused (a response), or None."""
    ident = request.session.get("tutor_token") or request.session.session_key or ""
    address = limits.client_address(request.META)
    if (ident and not limits.take_window("puzzle-acts", str(ident), ACTS_PER_MINUTE)) or (
        address is not None
        and not limits.take_window("puzzle-acts-ip", address, ACTS_PER_MINUTE_PER_IP)
    ):
        return refusal(request, TOO_MANY, 429)
    if served_mode(request, puzzle) is None:
        return refusal(request, NOT_SERVED, 403)
    if action in ("answer", "pass") and state.get("done"):
        return refusal(request, REPLAYED, 409)
    return None


def after_act(
    request: HttpRequest, puzzle: MinedPuzzle, action: str, state: dict[str, Any]
) -> None:
    """Count the attempt once it is decided: the first losing move (or asking for help)
    fails it, reaching the goal without either solves it."""
    feedback = state.get("feedback") or {}
    kind = feedback.get("type")
    helped = bool(state.get("solution")) or int(state.get("hint", 0)) > 0
    if kind == "puzzle_losing" or (action in ("hint", "solution") and helped):
        solved = False
    elif state.get("done") and kind == "puzzle_done":
        solved = int(state.get("tries", 0)) == 0 and not helped
    else:
        return
    player = puzzle_rating.player_for(request)
    assert player is not None
    mode = served_mode(request, puzzle) or "rated"
    puzzle_rating.record(player, puzzle, solved, mode)


# -- the panel on the puzzle's page --------------------------------------------------------------


def panel(request: HttpRequest, lesson: Any, state: dict[str, Any]) -> dict[str, Any] | None:
    """What the tutor's page shows about a mined puzzle (None for any other lesson)."""
    puzzle = mined_of(lesson)
    if puzzle is None:
        return None
    player = puzzle_rating.player_for(request, create=False)
    attempt = (
        PuzzleAttempt.objects.filter(player=player, puzzle=puzzle).first()
        if player is not None
        else None
    )
    mode = served_mode(request, puzzle) or "rated"
    context: dict[str, Any] = {
        "puzzle": puzzle,
        "goal": goal_text(puzzle.place),
        "preset": PRESET_NAMES.get(puzzle.preset, puzzle.preset),
        "mode": mode,
        "attempt": attempt,
        "player": player,
    }
    if attempt is not None:
        context["delta"] = f"{round(attempt.rating_after - attempt.rating_before):+d}"
        context["themes"] = [theme_name(t) for t in puzzle.theme_list]
        context["line"] = line_sentences(lesson, puzzle)
        query = f"?mode={mode}"
        context["next_url"] = reverse("tutorials:puzzle_next") + query
    return context


def line_sentences(lesson: Any, puzzle: MinedPuzzle) -> list[str]:
    """The proven line, narrated by the site's narrator, a sentence per action."""
    step = lesson.steps.first()
    actions = [presenter.answer_action(move, seat=seat) for seat, move in puzzle.line]
    try:
        table = engine.build_table(lesson.rules, step.table, actions)
    except engine.TableError:  # pragma: no cover - the miner replayed it
        return []
    sentences = []
    for logged in table.log[len(table.log) - len(actions) :]:
        for event in presenter.describe(logged.action, logged.seat, logged.before, logged.after):
            sentences.append(str(getattr(event, "text", event)))
    return sentences


# -- pages ---------------------------------------------------------------------------------------


def _open(request: HttpRequest, puzzle: MinedPuzzle, mode: str) -> HttpResponse:
    serve(request, puzzle, mode)
    return HttpResponseRedirect(puzzle.lesson.get_absolute_url())


@require_safe
def hub(request: HttpRequest) -> HttpResponse:
    player = puzzle_rating.player_for(request, create=False)
    counts = {slug: 0 for slug in THEME_NAMES}
    for themes in MinedPuzzle.objects.values_list("themes", flat=True):
        for t in themes.split(","):
            if t in counts:
                counts[t] += 1
    return render(
        request,
        "tutorials/puzzles.html",
        {
            "player": player,
            # The lead says where they come from: computer games, and (approved by an
            # admin, tutorials/mine_games.py) games played on this site.
            "total": MinedPuzzle.objects.filter(lesson__source="mined").count(),
            "from_site": MinedPuzzle.objects.exclude(lesson__source="mined").count(),
            "themes": [
                {"slug": s, "name": theme_name(s), "count": n} for s, n in counts.items() if n
            ],
            "daily": puzzle_rating.daily(timezone.localdate()),
        },
    )


@require_safe
def next_puzzle(request: HttpRequest) -> HttpResponse:
    mode = request.GET.get("mode", "rated")
    if mode not in MODES:
        mode = "rated"
    theme = request.GET.get("theme") or None
    if theme is not None and theme not in THEME_NAMES:
        raise Http404
    player = puzzle_rating.player_for(request)
    if mode == "streak" and player is not None and request.GET.get("start") == "1":
        player.streak = 0
        player.save(update_fields=["streak", "updated"])
    served = tuple((request.session.get(SERVED_KEY) or {}).keys())
    puzzle = puzzle_rating.next_puzzle(player, theme, random.Random(), exclude=served)
    if puzzle is None:
        return render(
            request, "tutorials/puzzle_refused.html", {"reason": str(NO_PUZZLE)}, status=404
        )
    return _open(request, puzzle, "theme" if theme else mode)


@require_safe
def daily(request: HttpRequest) -> HttpResponse:
    puzzle = puzzle_rating.daily(timezone.localdate())
    if puzzle is None:
        raise Http404
    return _open(request, puzzle, "daily")


@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    player = puzzle_rating.player_for(request, create=False)
    data = puzzle_rating.dashboard(player)
    history = data["history"]
    points = [round(history[0].rating_before)] if history else []
    points += [round(a.rating_after) for a in history]
    return render(
        request,
        "tutorials/puzzle_dashboard.html",
        {
            "player": player,
            "recent": [
                {
                    "attempt": a,
                    "delta": f"{round(a.rating_after - a.rating_before):+d}",
                    "themes": ", ".join(theme_name(t) for t in a.puzzle.theme_list),
                }
                for a in reversed(history[-30:])
            ],
            "themes": [
                {"name": theme_name(s.theme), "tried": s.tried, "solved": s.solved}
                for s in data["themes"]
            ],
            "tried": data["tried"],
            "solved": data["solved"],
            "sparkline": _sparkline(points),
        },
    )


def _sparkline(points: list[int]) -> str:
    """An SVG polyline's points for the rating history (decorative: the table says it)."""
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = max(1, high - low)
    width = 300
    step = width / (len(points) - 1)
    return " ".join(
        f"{round(i * step, 1)},{round(60 - (p - low) * 56 / span - 2, 1)}"
        for i, p in enumerate(points)
    )


__all__ = ["after_act", "before_act", "dashboard", "daily", "hub", "next_puzzle", "panel"]
