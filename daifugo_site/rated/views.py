"""Pages of the rated 1v1: the queue, the game, the leaderboard."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from . import services
from .models import QueueEntry, RatedGame, Rating
from .rendering import context_for


def rank_of(rating: Rating | None) -> int | None:
    """1 + how many established players rate higher; None while provisional."""
    if rating is None or rating.provisional:
        return None
    return (
        Rating.objects.filter(games__gte=settings.RATED_PROVISIONAL_GAMES, mu__gt=rating.mu).count()
        + 1
    )


def lobby_chart(user: Any) -> Any:
    """The rating's history, as on the profile (its last 50 changes)."""
    from daifugo_site.accounts.charts import rating_chart

    from .models import RatingChange

    changes = list(RatingChange.objects.filter(user=user).order_by("-created", "-id")[:50])
    changes.reverse()
    return rating_chart([c.mu_before for c in changes[:1]] + [c.mu_after for c in changes])


#: The lobby's query when joining sent the browser there (:func:`join`).
JOINED = "joined"


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"signed_in": request.user.is_authenticated}
    if request.user.is_authenticated:
        context["rating"] = services.rating_for(request.user)
        context["rank"] = rank_of(context["rating"])
        context["entry"] = QueueEntry.objects.filter(user=request.user, game__isnull=True).first()
        context["open_game"] = services.open_game_of(request.user)
        if request.GET.get(JOINED) and context["entry"] is None and context["open_game"]:
            # Sent here by joining, and paired before this page was drawn: the other
            # player's waiting page made the pairing while this one was on its way, so no
            # waiting page of this player was there to be told. Go where it would have gone.
            return redirect("rated:game", context["open_game"].pk)
        context["chart"] = lobby_chart(request.user)
    return render(request, "rated/queue.html", context)


@login_required
@require_POST
def join(request: HttpRequest) -> HttpResponse:
    found = services.join_queue(request.user)
    if isinstance(found, RatedGame):
        return redirect("rated:game", found.pk)
    return redirect(f"{reverse('rated:index')}?{JOINED}=1")


@login_required
@require_POST
def leave(request: HttpRequest) -> HttpResponse:
    services.leave_queue(request.user)
    return redirect("rated:index")


@require_safe
def game(request: HttpRequest, game_id: str) -> HttpResponse:
    loaded = services.load(game_id)
    if loaded is None:
        raise Http404
    rated, row, match = loaded
    seat = rated.seat_of(request.user.pk if request.user.is_authenticated else None)
    if seat is None:
        if rated.status == RatedGame.Status.FINISHED:
            return redirect(reverse("accounts:replay", args=[game_id]))
        # A game in progress is seen only by its two players (its replay opens at the end).
        return render(request, "rated/in_progress.html", {"rated": rated}, status=403)
    context = context_for(rated, row, match, seat)
    return render(request, "rated/game.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    top = list(
        Rating.objects.filter(games__gte=settings.RATED_PROVISIONAL_GAMES)
        .select_related("user__profile")
        .order_by("-mu", "user_id")[: settings.RATED_LEADERBOARD_SIZE]
    )
    mine = None
    if request.user.is_authenticated:
        mine = Rating.objects.filter(user=request.user).first()
    return render(
        request,
        "rated/leaderboard.html",
        {
            "top": top,
            "mine": mine,
            "rank": rank_of(mine),
            "provisional_games": settings.RATED_PROVISIONAL_GAMES,
        },
    )
