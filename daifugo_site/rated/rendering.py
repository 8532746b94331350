"""HTML of the rated game: the practice table's partials (play/game.html) seen from the
player's own seat, with the rated page's own clock and result (rated/game.html).

A player's page is rendered from ``table_view`` of their seat only: the observation of
that seat (own hand, the other's count); the face-down 27 are in no observation.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from daifugo_site.play import clock
from daifugo_site.play.models import Game
from daifugo_site.play.presenter import TableView, table_view
from daifugo_site.play.rendering import fragment_keys, fragment_parts, log_parts, version_mark
from rules_engine import Match

from . import services
from .models import RatedGame, RatingChange

#: play/game.html's partials a rated page shows (one round, no exchange, its own result).
TABLE_FRAGMENTS = ("status", "seats", "field", "summary", "hand")


def seat_view(game: Game, match: Match, seat: int) -> TableView:
    """The table as ``seat`` sees it: the game row with that seat as "you" (not saved)."""
    mine = Game(**{f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields})
    mine.human_seat = seat
    return table_view(mine, match, is_owner=True)


def reserve_now(game: Game, seat: int, to_act: int, left: float | None) -> int:
    """What is left of ``seat``'s reserve now: the stored rest, less what the running
    turn has taken of it (``left``: the turn's seconds left, reserve included)."""
    rest = clock.reserve_left(game, seat)
    if seat == to_act and left is not None:
        rest = min(rest, left)
    return round(rest)


def context_for(rated: RatedGame, game: Game, match: Match, seat: int) -> dict[str, Any]:
    view = seat_view(game, match, seat)
    live = rated.status == RatedGame.Status.PLAYING and not match.over
    left = clock.remaining(game, match) if live else None
    to_act = match.round.to_act
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=rated).select_related("user")}
    mine = changes.get(rated.user_id_at(seat))
    return {
        "view": view,
        "rated": rated,
        "seat": seat,
        "clock_seconds": round(left) if left is not None else None,
        "deadline": clock.deadline(game, match) if live else None,
        # The move's own limit, then the reserve (both shown, both pages count them down).
        "move_deadline": clock.move_deadline(game, match) if live else None,
        "move_seconds_left": round(max(0.0, left - clock.reserve_left(game, to_act)))
        if left is not None
        else None,
        "reserve_mine": reserve_now(game, seat, to_act, left),
        "reserve_theirs": reserve_now(game, 1 - seat, to_act, left),
        "your_clock": live and match.round.to_act == seat,
        "won": rated.winner == seat if rated.winner is not None else None,
        "change": mine,
        "delta": round(mine.mu_after - mine.mu_before) if mine else 0,
        "move_seconds": settings.RATED_MOVE_SECONDS,
    }


def rated_keys(context: dict[str, Any]) -> dict[str, Any]:
    keys = fragment_keys(context["view"])
    rated = context["rated"]
    keys["clock"] = (
        context["deadline"],
        context["your_clock"],
        rated.status,
        context["reserve_mine"],
        context["reserve_theirs"],
    )
    keys["rated_result"] = (rated.status, rated.winner, rated.end, context["delta"])
    return keys


def render_rated(
    game_id: str, lang: str, seat: int, sent: dict[str, Any] | None
) -> tuple[str, dict[str, Any]] | None:
    loaded = services.load(game_id)
    if loaded is None:
        return None
    rated, game, match = loaded
    with translation.override(lang):
        context = context_for(rated, game, match, seat)
        keys = rated_keys(context)
        context["oob"] = True
        view = context["view"]
        parts = [version_mark(view, sent)]
        for name in TABLE_FRAGMENTS:
            parts.extend(fragment_parts(name, keys, sent, context))
        for name in ("clock", "rated_result"):
            if sent is None or sent.get(name) != keys[name]:
                parts.append(render_to_string(f"rated/game.html#{name}", context))
        parts.extend(log_parts(view, keys, sent, context))
        if sent is None:
            parts.append(render_to_string("play/game.html#error", {"oob": True, "error": ""}))
    return "".join(parts), keys


def render_paired(url: str) -> str:
    return render_to_string("rated/queue.html#paired", {"game_url": url, "oob": True})
