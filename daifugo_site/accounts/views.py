"""The profile page (settings, rating and its history, statistics, recent games) and
every finished game's replay page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from daifugo_site.play import services as play
from daifugo_site.play.models import Game
from daifugo_site.rated.models import RatedGame, RatingChange
from daifugo_site.rated.services import rating_for
from daifugo_site.rated.views import rank_of

from . import replay, sitestats, stats
from .charts import rating_chart
from .forms import ProfileForm
from .models import GameResult, StatsOptOut
from .signals import profile_for
from .sitestats import token_hash

RECENT_GAMES = 10


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    me = profile_for(request.user)
    saved = False
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=me)
        if form.is_valid():
            updated = form.save()
            if not updated.statistics:
                GameResult.objects.filter(user=request.user).delete()
            # The page in the language just chosen.
            with translation.override(updated.language):
                return redirect(reverse("accounts:profile") + "?saved=1")
        status = 400
    else:
        form = ProfileForm(instance=me)
        saved = request.GET.get("saved") == "1"
        status = 200
    rating = rating_for(request.user)
    changes = list(RatingChange.objects.filter(user=request.user).order_by("-created", "-id")[:50])
    changes.reverse()
    token = me.player_token
    recent_practice = (
        list(Game.objects.filter(owner=token, status=Game.Status.FINISHED)[:RECENT_GAMES])
        if token
        else []
    )
    recent_rated = list(
        RatedGame.objects.filter(status=RatedGame.Status.FINISHED)
        .filter(Q(seat0=request.user) | Q(seat1=request.user))
        .order_by("-finished")[:RECENT_GAMES]
    )
    context: dict[str, Any] = {
        "form": form,
        "saved": saved,
        "profile": me,
        "rating": rating,
        "rank": rank_of(rating),
        "chart": rating_chart([c.mu_before for c in changes[:1]] + [c.mu_after for c in changes]),
        "changes": changes,
        "recent_practice": recent_practice,
        "recent_rated": recent_rated,
        "stats": stats.overview(request.user) if me.statistics else None,
    }
    return render(request, "accounts/profile.html", context, status=status)


def viewer_seat(request: HttpRequest, game: Game) -> int | None:
    """The viewer's seat in ``game`` if they played in it, else None."""
    rated = RatedGame.objects.filter(pk=game.pk).first()
    if rated is not None:
        user = request.user
        return rated.seat_of(user.pk) if user.is_authenticated else None
    token = request.session.get(play.PLAYER_TOKEN_KEY)
    # A practice game's browser, or a room player's own seat (play.seat_of knows both).
    return play.seat_of(game, token) if token else None


@require_safe
def game_replay(request: HttpRequest, game_id: str) -> HttpResponse:
    game = play.get_game(game_id)
    if game is None or len(game_id) > 16:
        raise Http404
    rated = RatedGame.objects.filter(pk=game.pk).first()
    finished = (
        rated.status == RatedGame.Status.FINISHED
        if rated is not None
        else game.status == Game.Status.FINISHED
    )
    if not finished:
        # Only a finished game has a replay: a game in progress would show its moves.
        return render(request, "accounts/replay_pending.html", {"game": game}, status=404)
    seat = viewer_seat(request, game)
    shown = game
    if seat is not None:
        shown = Game(**{f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields})
        shown.human_seat = seat
    match = stats.final_match(game.record())
    names = [play_seat_name(shown, s, seat is not None) for s in range(game.players)]
    context = {
        "game": game,
        "rated": rated,
        "frames": replay.frames(shown, seat, all_hands=seat is not None),
        "names": names,
        "seat": seat,
        "standings": [(place + 1, names[s]) for place, s in enumerate(match.standings())],
        "changes": list(RatingChange.objects.filter(game=rated)) if rated is not None else [],
    }
    return render(request, "accounts/replay.html", context)


def play_seat_name(game: Game, seat: int, owner_view: bool) -> str:
    from daifugo_site.play.presenter import seat_name

    return seat_name(game, seat, owner_view)


def statistics_on(request: HttpRequest) -> bool:
    """Whether this browser (or its account) records statistics."""
    if request.user.is_authenticated:
        return profile_for(request.user).statistics
    token = request.session.get(play.PLAYER_TOKEN_KEY)
    return not (token and StatsOptOut.objects.filter(token_hash=token_hash(token)).exists())


@require_POST
def statistics_switch(request: HttpRequest) -> HttpResponse:
    """The switch on the play pages: on or off for this account, or for this browser."""
    on = request.POST.get("statistics") == "on"
    if request.user.is_authenticated:
        me = profile_for(request.user)
        me.statistics = on
        me.save(update_fields=["statistics"])
        if not on:
            GameResult.objects.filter(user=request.user).delete()
    else:
        key = token_hash(play.player_token(request.session))
        if on:
            StatsOptOut.objects.filter(token_hash=key).delete()
        else:
            StatsOptOut.objects.get_or_create(token_hash=key)
    if request.headers.get("HX-Request"):
        # The box posted itself on change: say so in its status region, stay on the page.
        return HttpResponse(_("Your settings are saved."))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("play:index")
    return redirect(back)


#: Names of what the statistics page lists, in both languages.
KIND_LABELS = {
    "practice": pgettext_lazy("game kind", "Practice games"),
    "room": pgettext_lazy("game kind", "Rooms"),
    "hotseat": pgettext_lazy("game kind", "One shared device"),
    "rated": pgettext_lazy("game kind", "Rated 1v1"),
}
DURATION_LABELS = {
    "<5m": _("Under 5 minutes"),
    "5-15m": _("5 to 15 minutes"),
    "15-30m": _("15 to 30 minutes"),
    "30m+": _("Over 30 minutes"),
}


@require_safe
def site_statistics(request: HttpRequest) -> HttpResponse:
    """Public aggregates as bar charts (SVG drawn server-side, each figure also written
    out in the table, so the charts need no script and read aloud as numbers)."""
    from daifugo_site.ui.labels import preset_label

    rows = sitestats.aggregates()
    top = max([r["moves"] for r in rows] + [1])
    for r in rows:
        r["label"] = preset_label(r["preset"])
        r["moves_width"] = round(200 * r["moves"] / top)
        r["leader_width"] = 2 * r["leader_rate"]
        r["revolution_width"] = 2 * r["revolution_rate"]
    kinds = sitestats.shares("kind", sitestats.KINDS)
    durations = sitestats.shares("duration", sitestats.DURATIONS)
    for line in kinds:
        line["label"] = KIND_LABELS[line["key"]]
    for line in durations:
        line["label"] = DURATION_LABELS[line["key"]]
    for line in kinds + durations:
        line["width"] = 2 * line["share"]
    context = {"rows": rows, "kinds": kinds, "durations": durations}
    return render(request, "accounts/statistics.html", context)
