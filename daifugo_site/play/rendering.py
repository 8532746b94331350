"""HTML for the play page: the same template partials serve the first page load and every
WebSocket push (the django-htmx example app's pattern).

A push is the page's fragments, each with an ``id`` and ``hx-swap-oob``, so htmx's
WebSocket extension swaps each into place; the announcement goes into the layout's
``aria-live`` region.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from daifugo_site.ui.reasons import reason_text

from . import services
from .presenter import TableView, table_view

#: The partials of play/game.html that a push replaces, in page order.
FRAGMENTS = ("status", "seats", "field", "exchange", "hand", "results", "log")


def view_for(game_id: str, is_owner: bool, min_version: int | None = None) -> TableView | None:
    loaded = services.current(game_id, min_version)
    if loaded is None:
        return None
    game, match = loaded
    return table_view(game, match, is_owner=is_owner)


def render_table(
    game_id: str, lang: str, is_owner: bool, min_version: int | None = None
) -> str | None:
    """Every fragment of the table, out-of-band, in ``lang`` (at ``min_version`` or newer)."""
    with translation.override(lang):
        view = view_for(game_id, is_owner, min_version)
        if view is None:
            return None
        context: dict[str, Any] = {"view": view, "oob": True}
        parts = [render_to_string(f"play/game.html#{name}", context) for name in FRAGMENTS]
        parts.append(render_to_string("play/game.html#announce", context))
        parts.append(render_to_string("play/game.html#error", {"oob": True, "error": ""}))
        return "".join(parts)


def render_error(reason: str | None, lang: str) -> str:
    """The error region with the reason's sentence (announced: it is role=alert)."""
    with translation.override(lang):
        return render_to_string(
            "play/game.html#error", {"oob": True, "error": reason_text(reason), "reason": reason}
        )
