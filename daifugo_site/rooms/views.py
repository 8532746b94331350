"""The room pages: ``/<lang>/play/room/<token>/`` and its POST actions.

Every POST answers with the room page: after a change, a redirect to it; on a refusal,
the page again with the reason's sentence and status 409 (or 403/404), nothing changed.
A GET never changes anything (link previews and prefetches are harmless) apart from
closing a room abandoned for ``ROOMS_ABANDONED_AFTER_H`` hours.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from daifugo_site import limits
from daifugo_site.play import services as play
from daifugo_site.play.forms import preset_values_json
from daifugo_site.play.models import Game
from daifugo_site.play.presenter import seat_name

from . import services
from .forms import RoomForm
from .messages import message
from .models import Room, RoomSeat

STATUS_OF = {
    "not_creator": 403,
    "no_such_room": 404,
}


def _player(request: HttpRequest) -> str | None:
    token = request.session.get(play.PLAYER_TOKEN_KEY)
    return str(token) if token else None


def _nickname(request: HttpRequest) -> str:
    """The name others see at the table: the one typed, else (signed in) the profile's
    display name, else the one this browser used last. Never the account's user name or
    e-mail address (allauth derives the user name from the address's local part)."""
    typed = services.clean_name(request.POST.get("name"))
    if typed:
        return typed
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        from daifugo_site.accounts.signals import profile_for

        return services.clean_name(profile_for(user).display_name)
    return services.clean_name(request.session.get("room_name"))


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """The play set-up page's "create a room" button (same form, the room's options)."""
    from daifugo_site.play.views import new_game_refusal

    form = RoomForm(request.POST)
    status = 400
    if form.is_valid():
        # A room is a game started: it counts in the same windows (per session and per
        # address) before the session is touched, so a client with a new cookie jar for
        # every request gets neither rooms nor session rows past the address's window.
        refusal = new_game_refusal(request)
        if refusal is not None:
            form.add_error(None, refusal)
            return render(
                request,
                "play/index.html",
                {"form": form, "preset_values": json.dumps(preset_values_json())},
                status=429,
            )
        owner = play.player_token(request.session)
        if limits.take_window(
            "rooms-session", owner, settings.ROOMS_PER_HOUR_PER_SESSION, seconds=3600
        ):
            data = form.cleaned_data
            name = _nickname(request)
            if name:
                request.session["room_name"] = name
            hotseat = data["mode"] == Room.Mode.HOTSEAT
            room = services.create_room(
                creator=owner,
                # At one device every person is named by the set-up's names (the nickname
                # field is hidden there): one left empty is "Player N", as the form says.
                name="" if hotseat else name,
                rules=data["rules"],
                players=data["players"],
                rounds=data["match_rounds"],
                levels=data["levels"],
                mode=data["mode"],
                humans=data["humans"],
                drop_timeout_s=data["drop_timeout"],
                clock_s=data["clock"],
                standin_level=data["standin_level"],
                delay_ms=int(data["speed"]),
                names=data.get("names") or None,
            )
            if room.mode == Room.Mode.HOTSEAT:
                game, _refusal = services.start(room, owner, fill=True)
                assert game is not None
                return redirect(game)
            return redirect(room)
        form.add_error(None, message("rooms_per_hour"))
        status = 429
    return render(
        request,
        "play/index.html",
        {"form": form, "preset_values": json.dumps(preset_values_json())},
        status=status,
    )


class NoSuchRoom(Http404):
    """A forged, mistyped or purged room token (answered by :func:`missing`)."""


def _room_or_404(token: str) -> Room:
    room = services.get_room(token)
    if room is None:
        raise NoSuchRoom
    return services.expire_if_abandoned(room)


def missing(request: HttpRequest) -> HttpResponse:
    """A room link that names no room: the translated sentence, status 404."""
    return render(request, "rooms/missing.html", {"error": message("no_such_room")}, status=404)


def _answers_missing(view: Any) -> Any:
    """Every room view answers an unknown token with :func:`missing`, not the bare 404."""
    from functools import wraps

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response: HttpResponse = view(request, *args, **kwargs)
        except NoSuchRoom:
            return missing(request)
        return response

    return wrapped


def room_context(request: HttpRequest, room: Room, error: str | None = None) -> dict[str, Any]:
    player = _player(request)
    rows = services.seats_of(room)
    mine = services.seat_of(room, player)
    game = Game.objects.filter(pk=room.game_id).first() if room.game_id else None
    if game is not None:
        services.finished(room, game)
    seat_rows = []
    for row in rows:
        seat_rows.append(
            {
                "seat": row.seat,
                "number": row.seat + 1,
                "kind": row.kind,
                "name": row.name,
                "level": row.level,
                "mine": row.seat == mine,
                "creator": row.player == room.creator and row.kind == RoomSeat.Kind.HUMAN,
            }
        )
    past = []
    for item in services.results(room):
        g, match = item["game"], item["match"]
        standings = [
            {"name": seat_name(g, s, False), "total": match.scores[s]} for s in match.standings()
        ]
        winner = match.winner
        past.append(
            {
                "game": g,
                "rounds": [list(points) for points in _round_points(match)],
                "names": [seat_name(g, s, False) for s in range(g.players)],
                "standings": standings,
                "over": match.over,
                "winner": seat_name(g, winner, False) if winner is not None and match.over else "",
            }
        )
    return {
        "room": room,
        "link": request.build_absolute_uri(room.get_absolute_url()),
        "seats": seat_rows,
        "mine": mine,
        "is_creator": player is not None and player == room.creator,
        "free": sum(1 for r in rows if r.kind == RoomSeat.Kind.FREE),
        "game": game,
        "past": past,
        "error": message(error) if error else "",
        "rules": room_rules(room),
        "name": _nickname(request),
    }


def room_rules(room: Room) -> list[tuple[str, str]]:
    """The room's rules as (label, value) lines, in the set-up form's own words: the table,
    the preset and every option changed from it, the rounds, the drop time, the turn clock
    and the computer that plays for someone who left."""
    from daifugo_site.pages.option_values import format_value
    from daifugo_site.play.forms import LEVEL_LABELS, NewGameForm, option_texts
    from daifugo_site.ui.labels import preset_label

    from .forms import CLOCKS, DROP_TIMEOUTS, RoomForm

    data = dict(room.rules)
    preset = str(data.pop("preset", "basic"))
    one_on_one = room.players == 2 and data.pop("hand_size", None) == 13
    fields = NewGameForm.base_fields
    lines = [
        (str(fields["table"].label), _room_table_text(room, one_on_one)),
        (str(fields["preset"].label), preset_label(preset)),
    ]
    texts = option_texts()
    for name, value in data.items():
        option = texts.get(name)
        if option is not None:
            lines.append((str(option.label), format_value(value, option.value_labels())))
    lines.append((str(fields["rounds"].label), str(room.rounds)))
    if room.mode == Room.Mode.LINK:
        drop = str(room.drop_timeout_s)
        lines.append((str(RoomForm.label_drop), str(DROP_TIMEOUTS.get(drop, drop))))
    clock = str(room.clock_s)
    lines.append((str(RoomForm.label_clock), str(CLOCKS.get(clock, clock))))
    if room.mode == Room.Mode.LINK:
        level = room.standin_level
        lines.append((str(RoomForm.label_standin), str(LEVEL_LABELS.get(level, level))))
    return lines


def _room_table_text(room: Room, one_on_one: bool) -> str:
    """Who sits at the room's table: people and computers (the practice table's "you and
    3 computers" is not true of a room)."""
    from django.utils.translation import gettext as _

    from daifugo_site.play.forms import TABLE_LABELS

    if one_on_one:
        return str(TABLE_LABELS["1v1"])
    n = room.players
    if room.mode == Room.Mode.LINK:
        return _("%(n)s seats: friends join by the link, computers take any seat left free") % {
            "n": n
        }
    computers = room.seat_rows.filter(kind=RoomSeat.Kind.COMPUTER).count()
    if not computers:
        return _("%(n)s players, all on this device") % {"n": n}
    return _("%(n)s players: %(people)s people on this device and %(computers)s computers") % {
        "n": n,
        "people": n - computers,
        "computers": computers,
    }


def _round_points(match: Any) -> list[tuple[int, ...]]:
    """Points each seat scored in each finished round (the engine's round results: seats
    in finishing order; the last place scores 0)."""
    out = []
    for result in match.results:
        n = len(result)
        points = [0] * n
        for place, seat in enumerate(result):
            points[seat] = n - 1 - place
        out.append(tuple(points))
    return out


def _page(
    request: HttpRequest, room: Room, error: str | None = None, status: int = 200
) -> HttpResponse:
    context = room_context(request, room, error)
    if request.headers.get("HX-Request") and request.GET.get("part") == "seats":
        response = render(request, "rooms/room.html#live", context)
        if room.status == Room.Status.PLAYING and context["mine"] is not None and room.game_id:
            response["HX-Redirect"] = reverse("play:game", args=[room.game_id])
        return response
    return render(request, "rooms/room.html", context, status=status)


@_answers_missing
@never_cache
@require_safe
def room(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, _room_or_404(token))


def _refused(request: HttpRequest, room: Room, reason: str) -> HttpResponse:
    return _page(request, room, reason, STATUS_OF.get(reason, 409))


@_answers_missing
@require_POST
def take(request: HttpRequest, token: str) -> HttpResponse:
    room = _room_or_404(token)
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        return _refused(request, room, "no_such_seat")
    player = play.player_token(request.session)
    name = _nickname(request)
    if name:
        request.session["room_name"] = name
    else:
        name = str(seat + 1)
    refusal = services.take_seat(room, seat, player, name)
    if refusal:
        return _refused(request, room, refusal)
    return redirect(room)


@_answers_missing
@require_POST
def leave(request: HttpRequest, token: str) -> HttpResponse:
    room = _room_or_404(token)
    refusal = services.leave_seat(room, _player(request) or "")
    if refusal:
        return _refused(request, room, refusal)
    _tell_table(room)
    return redirect(room)


@_answers_missing
@require_POST
def start(request: HttpRequest, token: str) -> HttpResponse:
    room = _room_or_404(token)
    game, refusal = services.start(
        room, _player(request) or "", fill=request.POST.get("fill") == "1"
    )
    if refusal or game is None:
        return _refused(request, room, refusal or "room_started")
    return redirect(game)


@_answers_missing
@require_POST
def again(request: HttpRequest, token: str) -> HttpResponse:
    room = _room_or_404(token)
    old = room.game_id
    game, refusal = services.play_again(room, _player(request) or "")
    if refusal or game is None:
        return _refused(request, room, refusal or "not_over")
    if old:
        _tell_table_id(old, {"type": "room.moved", "game": game.id})
    return redirect(game)


@_answers_missing
@require_POST
def hand(request: HttpRequest, token: str) -> HttpResponse:
    room = _room_or_404(token)
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        return _refused(request, room, "no_such_seat")
    refusal = services.hand_to_computer(room, _player(request) or "", seat)
    if refusal:
        return _refused(request, room, refusal)
    _tell_table(room)
    return redirect(room)


def _tell_table(room: Room) -> None:
    """Pages of the room's game re-read who plays which seat; a driver picks up a seat the
    computer now plays."""
    if room.game_id:
        _tell_table_id(room.game_id, {"type": "room.presence"})


def _tell_table_id(game_id: str, event: dict[str, Any]) -> None:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    # Every page of the game re-renders who plays which seat, and asks for a driver there
    # (a seat the computer plays now): see daifugo_site/rooms/socket.py.
    async_to_sync(layer.group_send)(play.group_name(game_id), event)


def table_context(request: HttpRequest, game: Game, seat: int | None) -> dict[str, Any]:
    """The play page's context for a room's game: the seat's own view (a viewer's for a
    spectator, and for a hotseat page until its curtain is lifted), and the room panel."""
    from daifugo_site.play.presenter import table_view
    from daifugo_site.rooms.socket import panel_context

    match = play.match_of(game)
    hotseat = any(e.get("hotseat") for e in game.seats)
    mine = seat is not None and not hotseat
    view = table_view(game, match, is_owner=mine, seat=seat if mine else None)
    context = panel_context(game, match, seat, None, oob=False)
    if hotseat:
        # The page loads with the curtain down: the socket names the person to act.
        from daifugo_site.play.clock import seats_to_act

        waiting = [s for s in seats_to_act(game, match) if game.seats[s].get("kind") == "human"]
        # Only on the table's own device: another browser watches, with no curtain to lift.
        waiting = waiting if seat is not None else []
        context["curtain"] = waiting[0] if waiting else None
        context["curtain_name"] = seat_name(game, waiting[0], False) if waiting else ""
    context.update(
        {"view": view, "resume_url": None, "room_panel": True, "spectator": seat is None}
    )
    return context


def again_from_game(request: HttpRequest, game: Game) -> HttpResponse:
    """The game page's "new game" button at a room table: the room's "play again"."""
    from .presence import room_token

    token = room_token(game)
    room = services.get_room(token or "")
    if room is None:
        raise Http404
    return again(request, room.token)
