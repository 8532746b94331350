"""The tutor's pages: the list of lessons, one lesson a step at a time, and its actions.

Every action is a plain form POST (works without JavaScript: the view redirects back to
the page), and with htmx the same POST answers with the step's partials (the step, the
feedback for the ``aria-live`` region, the controls) swapped in place.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from . import engine, presenter, puzzle_views, tutor
from .models import Category, Kind, Lesson
from .progress import get_progress, progress_rows, save, stars_for, step_state
from .tutor import Lessonful

MAX_STARS = 3


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    # Puzzles made from players' games are listed, in their own group, once approved.
    lessons = (
        Lesson.objects.annotate(step_count=Count("steps"))
        .filter(Q(player_puzzle__isnull=True) | Q(player_puzzle__approved=True))
        .filter(mined__isnull=True)
        .select_related("player_puzzle")
        .order_by("order", "slug")
    )
    rows = progress_rows(request)
    groups: OrderedDict[str, dict[str, Any]] = OrderedDict(
        (value, {"key": value, "label": label, "lessons": []}) for value, label in Category.choices
    )
    groups["players"] = {"key": "players", "label": _("From players' games"), "lessons": []}
    for lesson in lessons:
        row = rows.get(lesson.pk)
        group = "players" if hasattr(lesson, "player_puzzle") else lesson.category
        groups[group]["lessons"].append(
            {
                "lesson": lesson,
                "url": lesson.get_absolute_url(),
                "started": row is not None and (row.step_index > 0 or bool(row.state.get("steps"))),
                "completed": bool(row and row.completed),
                "step": min(row.step_index, lesson.step_count) if row else 0,
                "steps": lesson.step_count,
                "stars": row.stars if row and row.completed else None,
            }
        )
    return render(
        request,
        "tutorials/index.html",
        {"groups": [g for g in groups.values() if g["lessons"]], "max_stars": MAX_STARS},
    )


@require_safe
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Lesson, slug=slug)
    ls = Lessonful.load(found)
    mined = puzzle_views.mined_of(found)
    if mined is not None:  # opening a mined puzzle serves it (its moves are taken then)
        puzzle_views.serve(request, mined)
    # Reading a lesson writes nothing for a visitor who has not acted yet (no session, no
    # progress row: crawlers and one-off readers leave no trace); their first action
    # creates both (see act). A visitor with progress has it updated as before.
    progress = get_progress(request, found, create=False)
    wanted = request.GET.get("step")
    if wanted is not None:
        try:
            progress.step_index = max(0, min(len(ls.steps), int(wanted)))
        except ValueError:
            pass
    progress.step_index = min(progress.step_index, len(ls.steps))
    _start_step(ls, progress, progress.step_index)
    if progress.pk is not None:
        save(progress)
    context = step_context(request, ls, progress, progress.step_index, embed=False)
    return render(request, "tutorials/lesson.html", context)


@require_POST
def act(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Lesson, slug=slug)
    ls = Lessonful.load(found)
    progress = get_progress(request, found)
    embed = request.POST.get("embed") == "1"
    index = ls.embed_index() if embed else min(progress.step_index, len(ls.steps))
    action = request.POST.get("action", "")
    focus = "heading"
    try:
        posted_step = int(request.POST.get("step", ""))
    except ValueError:
        posted_step = -1
    # A first action creates the progress at step 0; a reader who went to another step
    # (``?step=N``) before acting acts on that step.
    if not embed and _untouched(progress) and 0 <= posted_step <= len(ls.steps):
        progress.step_index = index = posted_step
    # An action for a step the visitor has since left (another tab, a double click) is
    # ignored: the current step is shown instead.
    mined = puzzle_views.mined_of(found)
    if mined is not None and 0 <= index < len(ls.steps):
        refused = puzzle_views.before_act(request, mined, action, step_state(progress, index))
        if refused is not None:
            return refused
    if action in tutor.ACTIONS and (posted_step == index or action == "reset"):
        focus = tutor.perform(ls, progress, index, action, request.POST, embed=embed)
        if mined is not None and 0 <= index < len(ls.steps):
            puzzle_views.after_act(request, mined, action, step_state(progress, index))
        _start_step(ls, progress, index if embed else progress.step_index)
        save(progress)
    if not embed:
        index = progress.step_index
    if request.htmx:
        context = step_context(request, ls, progress, index, embed=embed, focus=focus)
        return render(request, "tutorials/_swap.html", context)
    target = _next_url(request) if embed else None
    uid = embed_uid(found) if embed else "tutor"
    return HttpResponseRedirect(f"{target or found.get_absolute_url()}#{uid}", status=303)


def _untouched(progress: Any) -> bool:
    return progress.step_index == 0 and not progress.completed and not progress.state.get("steps")


def _start_step(ls: Lessonful, progress: Any, index: int) -> None:
    """Record when a step was first shown (the solution's delay counts from then)."""
    if 0 <= index < len(ls.steps):
        step_state(progress, index)


def _next_url(request: HttpRequest) -> str | None:
    url = request.POST.get("next", "")
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url.split("#", 1)[0]
    return None


def embed_uid(found: Lesson) -> str:
    return f"tutor-embed-{found.slug}"


# -- the context of one step -------------------------------------------------------------------


def step_context(
    request: HttpRequest,
    ls: Lessonful,
    progress: Any,
    index: int,
    *,
    embed: bool,
    focus: str = "",
    next_url: str = "",
) -> dict[str, Any]:
    found = ls.lesson
    steps = ls.steps
    count = len(steps)
    context: dict[str, Any] = {
        "lesson": found,
        "index": index,
        "number": index + 1,
        "count": count,
        "embed": embed,
        "uid": embed_uid(found) if embed else "tutor",
        "act_url": reverse("tutorials:act", args=[found.slug]),
        "lesson_url": found.get_absolute_url(),
        "next_url": next_url or (request.get_full_path() if embed else ""),
        "focus": focus,
        "heading": "h3" if embed else "h2",
        "max_stars": MAX_STARS,
        "stars": stars_for(progress),
        "completed": progress.completed,
        "play_url": presenter.play_url(found),
    }
    if index >= count:
        context["finished"] = True
        context["mined"] = puzzle_views.panel(request, found, {})
        following = (
            Lesson.objects.filter(category=found.category, order__gt=found.order)
            # Never lead on to a players' puzzle still waiting for approval.
            .filter(Q(player_puzzle__isnull=True) | Q(player_puzzle__approved=True))
            .filter(mined__isnull=True)
            .order_by("order", "slug")
            .first()
        )
        context["next_lesson"] = following
        context["review"] = [
            {
                "number": i + 1,
                "url": f"{found.get_absolute_url()}?step={i}",
                "kind": s.get_kind_display(),
            }
            for i, s in enumerate(steps)
        ]
        return context
    step = steps[index]
    state = step_state(progress, index)
    context.update(_step_parts(ls, step, index, state, embed=embed))
    context["mined"] = puzzle_views.panel(request, found, state)
    if embed:
        after = index + 1 if state.get("done") and index + 1 < count else index
        context["continue_url"] = f"{found.get_absolute_url()}?step={after}"
    return context


def _step_parts(
    ls: Lessonful, step: Any, index: int, state: dict[str, Any], *, embed: bool
) -> dict[str, Any]:
    found = ls.lesson
    parts: dict[str, Any] = {
        "step": step,
        "kind": step.kind,
        "state": state,
        "done": bool(state.get("done")),
        "text_html": presenter.render(step.text),
        "prompt_html": presenter.render(step.prompt),
        "question_html": presenter.render(step.question),
        "hints": presenter.hints(step, state),
        "hint_stages": presenter.hint_stages(step),
        "hint_next": int(state.get("hint", 0)) + 1
        if int(state.get("hint", 0)) < presenter.hint_stages(step) and not state.get("done")
        else 0,
        "interactive": step.is_interactive,
        "can_next": tutor.can_next(step, state),
        "can_retry": any(state.get(k) for k in ("done", "feedback", "shown", "line", "picked")),
        "solution_shown": bool(state.get("solution")),
        "solution_wait": presenter.solution_wait(state) if step.is_interactive else 0,
        "reveal_delay": presenter.SOLUTION_DELAY,
    }
    show_hands = bool((step.table or {}).get("show_hands", step.kind == Kind.PUZZLE))
    table = None
    before = None
    events: list[presenter.Event] = []
    if step.table is not None:
        try:
            table = presenter.step_table(found, step, state)
            before = engine.build_table(found.rules, step.table)
        except engine.TableError:
            table = None
    if table is not None:
        parts["table"] = presenter.table_view(table, show_hands)
        plays = len(before.log) if before is not None else 0
        parts["history"] = [
            event
            for logged in table.log[:plays]
            for event in presenter.describe(logged.action, logged.seat, logged.before, logged.after)
        ]
        parts["learner_acts"] = engine.learner_to_act(table.round) and not state.get("done")
        parts["exchange"] = engine.is_exchange(table.round)
    feedback_data = state.get("feedback") or {}
    if table is not None and step.kind == Kind.PUZZLE and "actions" in feedback_data:
        start, end = feedback_data["actions"]
        line = state.get("line", [])
        events = tutor.line_events(table, len(line), start + 1, end)
    if table is not None and step.kind == Kind.WATCH and feedback_data.get("type") == "watch":
        last = table.log[-1] if table.log and state.get("shown") else None
        if last is not None:
            events = presenter.describe(last.action, last.seat, last.before, last.after)
    parts["feedback"] = presenter.feedback_view(
        step, state, before.round if before is not None else None, events
    )
    if step.kind == Kind.WATCH:
        lines = list(step.script_lines.all())
        shown = int(state.get("shown", 0))
        parts["watch_lines"] = [presenter.render(line.caption) for line in lines[:shown]]
        parts["watch_more"] = shown < len(step.data.get("script", []))
        parts["watch_total"] = len(step.data.get("script", []))
        parts["watch_shown"] = shown
    elif step.kind == Kind.CHOOSE:
        picked = state.get("choice")
        parts["choices"] = [
            {
                "index": i,
                "html": presenter.render(choice.text),
                "checked": picked == i,
                "correct": choice.correct,
            }
            for i, choice in enumerate(step.choices.all())
        ]
    elif step.kind == Kind.LEGAL and before is not None:
        picked = set(state.get("picked", []))
        solution = set(engine.legal_strings(before.round)) if state.get("solution") else set()
        parts["candidates"] = [
            {
                "move": move,
                "codes": presenter.move_codes(move),
                "form": engine.split_move(move)[1],
                "checked": move in picked or (state.get("done") and move in solution),
                "legal": move in solution,
            }
            for move in engine.quiz_candidates(before.round)
        ]
    elif step.kind == Kind.PUZZLE and table is not None:
        line = state.get("line", [])
        parts["puzzle_log"] = tutor.line_events(table, len(line), 0, len(line))
        place = int(step.data.get("place", 0))
        parts["puzzle_place"] = place + 1
    if state.get("solution") and step.kind in (Kind.PLAY, Kind.PUZZLE, Kind.LEGAL):
        parts["solution_moves"] = [
            {"move": m, "codes": presenter.move_codes(m)}
            for m in tutor.solution_moves(found, step, index, state)
        ]
    if state.get("solution") and step.kind == Kind.CHOOSE:
        parts["solution_choices"] = [
            presenter.render(c.text) for c in step.choices.all() if c.correct
        ]
    return parts
