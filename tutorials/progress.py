"""Each visitor's progress, saved at once on every action.

A visitor is a random token kept in their session (so progress survives the language
switch, which only changes the URL, and the session key changing at login); a signed-in
visitor's progress is also theirs as a user: the first time they open a lesson signed in,
the session's progress for it becomes the user's.

``Progress.state`` holds, per step index (as a string), that step's state:

- ``started`` (time the step was first shown), ``tries`` (wrong answers), ``hint`` (0, 1,
  2: hint stages shown), ``solution`` (shown), ``done`` (answered right / watched to the
  end), ``feedback`` (what the last action said, as codes: rendered in the active language),
- watch: ``shown`` (script actions shown); puzzle: ``line`` (actions played so far);
  play: ``answer`` (the accepted move); choose: ``choice``; legal: ``picked``.

Stars: a lesson starts with three; each hint stage costs one, and showing a solution costs
what is left of that step's two stages.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest

from .models import Lesson, Progress

TOKEN_KEY = "tutor_token"
MAX_STARS = 3


def visitor_token(request: HttpRequest, create: bool = True) -> str:
    token = request.session.get(TOKEN_KEY, "")
    if not token and create:
        token = secrets.token_urlsafe(16)
        request.session[TOKEN_KEY] = token
    return str(token)


def _user(request: HttpRequest) -> Any:
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def progress_rows(request: HttpRequest) -> dict[int, Progress]:
    """Every lesson's progress for this visitor, by lesson id (read only)."""
    user = _user(request)
    if user is not None:
        rows = Progress.objects.filter(user=user)
    else:
        token = visitor_token(request, create=False)
        if not token:
            return {}
        rows = Progress.objects.filter(session_token=token, user__isnull=True)
    return {row.lesson_id: row for row in rows}


def get_progress(request: HttpRequest, lesson: Lesson, create: bool = True) -> Progress:
    """This visitor's progress in ``lesson``, created (and saved) if new.

    ``create=False`` (a page that only shows a step: a lesson page read, a rules page)
    returns an unsaved row instead of creating one, and does not start a session; an
    existing row is returned (and adopted by a visitor who has signed in since) as usual.
    """
    user = _user(request)
    token = visitor_token(request, create=create)
    if user is not None:
        row = Progress.objects.filter(user=user, lesson=lesson).first()
        if row is not None:
            return _current(row, lesson)
        anonymous = (
            Progress.objects.filter(session_token=token, user__isnull=True, lesson=lesson).first()
            if token
            else None
        )
        if anonymous is not None:  # signed in since: the session's progress becomes theirs
            anonymous.user = user
            anonymous.save(update_fields=["user"])
            return _current(anonymous, lesson)
        if not create:
            return Progress(lesson=lesson, state=_fresh_state(lesson))
        return _create(lesson, token, user)
    row = (
        Progress.objects.filter(session_token=token, user__isnull=True, lesson=lesson).first()
        if token
        else None
    )
    if row is not None:
        return _current(row, lesson)
    if not create:
        return Progress(lesson=lesson, state=_fresh_state(lesson))
    return _create(lesson, token, None)


def _create(lesson: Lesson, token: str, user: Any) -> Progress:
    try:
        with transaction.atomic():
            return Progress.objects.create(
                lesson=lesson, session_token=token, user=user, state=_fresh_state(lesson)
            )
    except IntegrityError:  # two first requests at once
        lookup = {"user": user} if user is not None else {"user__isnull": True}
        return Progress.objects.get(lesson=lesson, session_token=token, **lookup)


def lesson_version(lesson: Lesson) -> str:
    """Changes whenever the lesson or one of its steps is written (loader or admin)."""
    return lesson.updated.isoformat()


def _fresh_state(lesson: Lesson) -> dict[str, Any]:
    return {"version": lesson_version(lesson), "steps": {}}


def _current(row: Progress, lesson: Lesson) -> Progress:
    """Step states of an older version of the lesson no longer fit it: drop them."""
    if (row.state or {}).get("version") != lesson_version(lesson):
        row.state = _fresh_state(lesson)
        row.save(update_fields=["state", "updated"])
    return row


def step_state(progress: Progress, index: int) -> dict[str, Any]:
    """The state of step ``index`` (created, with its start time, on first use)."""
    steps = progress.state.setdefault("steps", {})
    state = steps.get(str(index))
    if state is None:
        state = {"started": time.time(), "tries": 0, "hint": 0}
        steps[str(index)] = state
    return state


def reset_step(state: dict[str, Any]) -> None:
    """Retry: the step starts over; hints shown and tries stay (they were paid for)."""
    for key in ("done", "feedback", "shown", "line", "answer", "choice", "picked"):
        state.pop(key, None)


def step_cost(state: dict[str, Any]) -> int:
    if state.get("solution"):
        return 2
    return min(2, int(state.get("hint", 0)))


def stars_for(progress: Progress) -> int:
    cost = sum(step_cost(state) for state in progress.state.get("steps", {}).values())
    return max(0, MAX_STARS - cost)


def save(progress: Progress) -> None:
    progress.hints_used = min(
        32767, sum(step_cost(s) for s in progress.state.get("steps", {}).values())
    )
    progress.stars = stars_for(progress)
    progress.save()


def reset_lesson(progress: Progress, lesson: Lesson) -> None:
    progress.state = _fresh_state(lesson)
    progress.step_index = 0
    progress.completed = False
    save(progress)
