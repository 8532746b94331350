"""Driving the tutor through the test client, as a browser would (with or without htmx)."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tests.html import find_all
from tutorials.models import Lesson, Progress


def lesson_url(slug: str, lang: str = "zh-hans") -> str:
    return f"/{lang}/learn/{slug}/"


def read(client: Client, slug: str, step: int | None = None, lang: str = "zh-hans") -> Any:
    """GET a lesson page (at ``step``) as a reader: this writes nothing on the server for a
    visitor without progress, so the step read is remembered here, as the page's forms
    carry it, for the first action."""
    url = lesson_url(slug, lang) + ("" if step is None else f"?step={step}")
    read_steps = getattr(client, "tutor_read_steps", {})
    read_steps[slug] = step or 0
    client.tutor_read_steps = read_steps  # type: ignore[attr-defined]
    return client.get(url)


def act(
    client: Client,
    slug: str,
    action: str,
    *,
    lang: str = "zh-hans",
    htmx: bool = True,
    step: int | None = None,
    **data: Any,
) -> Any:
    """POST one action for the current step (``step`` defaults to the visitor's)."""
    if step is None:
        found = progress(client, slug)
        read_step = getattr(client, "tutor_read_steps", {}).get(slug, 0)
        step = found.step_index if found is not None else read_step
    payload = {"action": action, "step": str(step), **data}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"{lesson_url(slug, lang)}act/", payload, **headers)


def progress(client: Client, slug: str) -> Progress | None:
    token = client.session.get("tutor_token")
    if not token:
        return None
    return Progress.objects.filter(session_token=token, lesson__slug=slug).first()


def current(client: Client, slug: str) -> Progress:
    found = progress(client, slug)
    assert found is not None
    return found


def step_state(client: Client, slug: str, index: int) -> dict[str, Any]:
    found = progress(client, slug)
    if found is None:  # a reader who has not acted yet has no progress row
        return {}
    state: dict[str, Any] = found.state["steps"].get(str(index), {})
    return state


def feedback_text(html: str) -> str:
    found = [e for e in find_all(html, "div") if e.get("data-feedback")]
    return " ".join(" ".join(e.text.split()) for e in found)


def step_kind(html: str) -> str:
    (section,) = [e for e in find_all(html, "section") if e.get("data-kind")]
    return section.get("data-kind") or ""


def lesson_id(slug: str) -> int:
    return Lesson.objects.get(slug=slug).pk
