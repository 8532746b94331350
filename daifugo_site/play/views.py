from __future__ import annotations

import datetime
import json
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from daifugo_site import limits
from rules_engine import RuleSet

from . import hooks, services
from .forms import PRESET_LABELS, NewGameForm, preset_values_json
from .models import Game, hash_resume_token
from .presenter import table_view

#: Session key of {game id: resume token} for the games this browser owns (the newest
#: RESUME_TOKENS_KEPT), so the game page can show its private link again.
RESUME_TOKENS_KEY = "daifugo_resume"
RESUME_TOKENS_KEPT = 20


def new_game_refusal(request: HttpRequest) -> str | None:
    """Why this browser may not start a game now (a translated sentence), or None.

    Checked before the session is touched, so a refused client gets no session row."""
    token = request.session.get(services.PLAYER_TOKEN_KEY)
    if token:
        since = timezone.now() - datetime.timedelta(seconds=settings.PLAY_ABANDONED_AFTER_S)
        unfinished = Game.objects.filter(
            owner=token, status=Game.Status.PLAYING, updated__gte=since
        ).count()
        if unfinished >= settings.PLAY_MAX_UNFINISHED_GAMES:
            return limits.message(
                "unfinished_games",
                count=settings.PLAY_MAX_UNFINISHED_GAMES,
                minutes=settings.PLAY_ABANDONED_AFTER_S // 60,
            )
        if not limits.take_window(
            "games-session", token, settings.PLAY_GAMES_PER_MINUTE_PER_SESSION
        ):
            return limits.message("games_per_minute")
    address = limits.client_address(request.META)
    if address is not None and not limits.take_window(
        "games-ip", address, settings.PLAY_GAMES_PER_MINUTE_PER_IP
    ):
        return limits.message("games_per_minute")
    return None


@require_http_methods(["GET", "HEAD", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """Set up a table; a valid form creates the game and opens it."""
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            refusal = new_game_refusal(request)
            if refusal is None:
                data = form.cleaned_data
                had_token = bool(request.session.get(services.PLAYER_TOKEN_KEY))
                owner = services.player_token(request.session)
                if not had_token:
                    # A browser's first game counts in its session's window as well.
                    limits.take_window(
                        "games-session", owner, settings.PLAY_GAMES_PER_MINUTE_PER_SESSION
                    )
                game = services.create_game(
                    owner=owner,
                    rules=data["rules"],
                    players=data["players"],
                    rounds=data["match_rounds"],
                    levels=data["levels"],
                    delay_ms=int(data["speed"]),
                )
                return redirect(game)
            form.add_error(None, refusal)
            # Too Many Requests: the form was fine, the quota was not.
            status = 429
        else:
            status = 400
    else:
        # Lessons end with "play these rules against the computer": ?preset=NAME.
        initial = {}
        if request.GET.get("preset") in PRESET_LABELS:
            initial["preset"] = request.GET["preset"]
        form = NewGameForm(initial=initial)
        status = 200
    return render(
        request,
        "play/index.html",
        {"form": form, "preset_values": json.dumps(preset_values_json())},
        status=status,
    )


def _resume_tokens(request: HttpRequest) -> dict[str, str]:
    tokens = request.session.get(RESUME_TOKENS_KEY)
    return dict(tokens) if isinstance(tokens, dict) else {}


def _keep_resume_token(request: HttpRequest, game_id: str, token: str) -> None:
    tokens = _resume_tokens(request)
    tokens.pop(game_id, None)
    tokens[game_id] = token  # newest last
    while len(tokens) > RESUME_TOKENS_KEPT:
        tokens.pop(next(iter(tokens)))
    request.session[RESUME_TOKENS_KEY] = tokens


def resume_url_for(request: HttpRequest, game: Game) -> str:
    """The owner's private link back to ``game``: the token kept in this session, or a new
    one (its hash replaces the game's, so an older link stops working)."""
    token = _resume_tokens(request).get(game.id)
    if token is None or not game.resume_token_matches(token):
        token = secrets.token_urlsafe(24)
        game.resume_hash = hash_resume_token(token)
        Game.objects.filter(pk=game.id).update(resume_hash=game.resume_hash)
        _keep_resume_token(request, game.id, token)
    return request.build_absolute_uri(reverse("play:resume", args=[game.id, token]))


@require_safe
def game(request: HttpRequest, game_id: str) -> HttpResponse:
    found = services.get_game(game_id)
    if found is None:
        raise Http404
    if services.is_rated(found):
        # Its own page decides (players; others a notice, or the replay once it is over).
        return redirect("rated:game", game_id=found.id)
    token = request.session.get(services.PLAYER_TOKEN_KEY)
    seat = services.seat_of(found, token) if token else None
    if services.is_table_of_people(found) and hooks.people is not None:
        # A room's table (daifugo_site/rooms): each person's own seat; the room's link is
        # the way back, so no resume link.
        context = hooks.people.page_context(request, found, seat)
        return render(request, "play/game.html", context)
    is_owner = seat is not None
    view = table_view(found, services.match_of(found), is_owner=is_owner)
    # Only the owner's page carries the link; viewers never see it (nor do pushes).
    resume_url = resume_url_for(request, found) if is_owner else None
    return render(request, "play/game.html", {"view": view, "resume_url": resume_url})


@require_POST
def again(request: HttpRequest, game_id: str) -> HttpResponse:
    """A new game with the same rules, table and computer levels."""
    found = services.get_game(game_id)
    if found is None:
        raise Http404
    if services.is_table_of_people(found) and hooks.people is not None:
        return hooks.people.again(request, found)
    if request.session.get(services.PLAYER_TOKEN_KEY) != found.owner:
        return HttpResponse(status=403)
    refusal = new_game_refusal(request)
    if refusal is not None:
        # The set-up page, saying why: the player can come back to it once allowed.
        form = NewGameForm()
        form.cleaned_data = {}  # an unbound form can carry an error once it has this
        form.add_error(None, refusal)
        context = {"form": form, "preset_values": json.dumps(preset_values_json())}
        return render(request, "play/index.html", context, status=429)
    game = services.create_game(
        owner=found.owner,
        rules=RuleSet.from_json(found.rules),
        players=found.players,
        rounds=found.rounds,
        levels=[found.seats[s].get("level", "beginner") for s in range(1, found.players)],
        delay_ms=found.delay_ms,
    )
    return redirect(game)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def resume(request: HttpRequest, game_id: str, token: str) -> HttpResponse:
    """The private resume link: GET asks, POST moves the game to this browser.

    A GET changes nothing, so a link preview or a prefetch cannot take the game over;
    an unknown game or a wrong token is the same 404 (the link tells nothing)."""
    found = services.get_game(game_id)
    if found is None or len(token) > 64 or not found.resume_token_matches(token):
        raise Http404
    if request.session.get(services.PLAYER_TOKEN_KEY) == found.owner:
        _keep_resume_token(request, found.id, token)
        return redirect(found)
    if request.method == "POST":
        owner = services.player_token(request.session)
        Game.objects.filter(pk=found.id, resume_hash=found.resume_hash).update(owner=owner)
        _keep_resume_token(request, found.id, token)
        # Pages still open in the old browser become viewers' pages.
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(services.group_name(found.id), {"type": "game.rebound"})
        return redirect(found)
    response = render(request, "play/resume.html", {"game": found})
    # The token is in this page's URL: never send it to another site as a Referer, never
    # index it. Not "no-referrer": under it a browser sends the page's own POST (the
    # button) with "Origin: null", which Django's CSRF check refuses (403: the link never
    # worked in a browser; found by tests/browser/test_house_browser.py).
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response
