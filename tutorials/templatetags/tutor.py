"""The tutor's template tags: ``{% load tutor %}``.

- ``{% lesson_embed section_slug %}``: the first interactive step of the lesson whose
  ``section`` is that rules section (lessons only, not puzzles; the lowest ``order``
  first), working in place with htmx (and with plain form posts, which come back to this
  page), with a "continue this lesson" link into the tutor. Renders nothing when no lesson
  belongs to the section. Needs ``request`` in the context (the request context processor).
- ``{% stars n %}``: n of 3 stars, with an accessible name.
- ``{% card_row codes %}``: cards inline (for labels and sentences).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from tutorials.models import Category, Lesson

register = template.Library()

ASSETS_FLAG = "_tutor_assets_included"


@register.simple_tag(takes_context=True)
def lesson_embed(context: template.Context, section_slug: str) -> SafeString:
    from tutorials.progress import get_progress
    from tutorials.tutor import Lessonful
    from tutorials.views import step_context

    request = context.get("request")
    if request is None or not section_slug:
        return mark_safe("")
    lesson = (
        Lesson.objects.filter(section=section_slug)
        .exclude(category=Category.PUZZLES)
        .order_by("order", "slug")
        .first()
    )
    if lesson is None:
        return mark_safe("")
    ls = Lessonful.load(lesson)
    if not ls.steps:
        return mark_safe("")
    progress = get_progress(request, lesson, create=False)
    index = ls.embed_index()
    data = step_context(request, ls, progress, index, embed=True, next_url=request.get_full_path())
    data["include_assets"] = not getattr(request, ASSETS_FLAG, False)
    setattr(request, ASSETS_FLAG, True)
    return mark_safe(render_to_string("tutorials/_embed.html", data, request=request))


@register.inclusion_tag("tutorials/_stars.html")
def stars(count: Any, total: int = 3) -> dict[str, Any]:
    try:
        n = max(0, min(int(count), total))
    except (TypeError, ValueError):
        n = 0
    return {"stars": n, "total": total, "marks": "★" * n + "☆" * (total - n)}


@register.inclusion_tag("tutorials/_text_cards.html")
def card_row(codes: Any) -> dict[str, Any]:
    return {"codes": codes.split() if isinstance(codes, str) else list(codes), "block": False}
