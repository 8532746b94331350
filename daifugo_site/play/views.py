from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from rules_engine import PRESET_NAMES, RuleSet

from . import services
from .forms import NewGameForm, preset_values_json
from .presenter import table_view


@require_http_methods(["GET", "HEAD", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """Set up a table; a valid form creates the game and opens it."""
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            game = services.create_game(
                owner=services.player_token(request.session),
                rules=data["rules"],
                players=data["players"],
                rounds=data["match_rounds"],
                levels=data["levels"],
                delay_ms=int(data["speed"]),
            )
            return redirect(game)
        status = 400
    else:
        # Lessons end with "play these rules against the computer": ?preset=NAME.
        initial = {}
        if request.GET.get("preset") in PRESET_NAMES:
            initial["preset"] = request.GET["preset"]
        form = NewGameForm(initial=initial)
        status = 200
    return render(
        request,
        "play/index.html",
        {"form": form, "preset_values": json.dumps(preset_values_json())},
        status=status,
    )


@require_safe
def game(request: HttpRequest, game_id: str) -> HttpResponse:
    found = services.get_game(game_id)
    if found is None:
        raise Http404
    is_owner = request.session.get(services.PLAYER_TOKEN_KEY) == found.owner
    view = table_view(found, services.match_of(found), is_owner=is_owner)
    return render(request, "play/game.html", {"view": view})


@require_POST
def again(request: HttpRequest, game_id: str) -> HttpResponse:
    """A new game with the same rules, table and computer levels."""
    found = services.get_game(game_id)
    if found is None:
        raise Http404
    if request.session.get(services.PLAYER_TOKEN_KEY) != found.owner:
        return HttpResponse(status=403)
    game = services.create_game(
        owner=found.owner,
        rules=RuleSet.from_json(found.rules),
        players=found.players,
        rounds=found.rounds,
        levels=[found.seats[s].get("level", "beginner") for s in range(1, found.players)],
        delay_ms=found.delay_ms,
    )
    return redirect(game)
