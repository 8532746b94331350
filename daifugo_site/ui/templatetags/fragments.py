"""``{% load fragments %}``: a Jinja2 macro inside a Django page (daifugo_site/ui/jinja.py).

Usage::

    {% fragment "play/table.html" "hand" view %}

renders the macro ``hand`` of ``jinja2/play/table.html`` with ``view``: the same HTML the
WebSocket push sends for that fragment, so the page and the push share one template.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from daifugo_site.ui.jinja import macro

register = template.Library()


@register.simple_tag
def fragment(template_name: str, name: str, *args: Any, **kwargs: Any) -> SafeString:
    # A macro's result is Markup (escaped where it must be): safe for Django too.
    return mark_safe(str(macro(template_name, name)(*args, **kwargs)))  # noqa: S308
