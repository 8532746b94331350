"""``{% load accounts %}{% stats_switch %}``: the statistics switch of the play pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("accounts/_stats_switch.html", takes_context=True)
def stats_switch(context: dict[str, Any]) -> dict[str, Any]:
    from ..views import statistics_on

    request = context["request"]
    return {"stats_on": statistics_on(request), "next": request.get_full_path(), "request": request}
