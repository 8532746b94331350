"""Rooms: create, take a seat, leave, start, hand a seat to the computer, play again.

Every function checks what it is asked against the room's current row and answers
``None`` (done) or a refusal code (:data:`REFUSALS`, translated by
:func:`daifugo_site.rooms.messages.message`) having changed nothing. Seat changes are
conditional UPDATEs (``WHERE kind = 'free'`` ...), so two people taking one seat at once
cannot both get it, whichever worker serves them.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from daifugo_site.play import clock, services
from daifugo_site.play.models import Game
from rules_engine import Match, RuleSet

from .models import Room, RoomSeat

REFUSALS = (
    "room_closed",
    "room_started",
    "room_full",
    "seat_taken",
    "already_seated",
    "not_seated",
    "not_creator",
    "seats_free",
    "no_such_seat",
    "not_over",
)

NAME_MAX = 24


def clean_name(name: str | None) -> str:
    """A nickname: printable, trimmed, at most :data:`NAME_MAX` characters."""
    text = "".join(ch for ch in (name or "") if ch.isprintable()).strip()
    return text[:NAME_MAX]


def create_room(
    *,
    creator: str,
    name: str,
    rules: RuleSet,
    players: int,
    rounds: int,
    levels: list[str],
    mode: str = Room.Mode.LINK,
    humans: int = 1,
    drop_timeout_s: int = 30,
    clock_s: int = 0,
    standin_level: str = "intermediate",
    delay_ms: int | None = None,
    names: list[str] | None = None,
) -> Room:
    """A new room, the creator in seat 0. ``levels`` are the computer levels of seats
    1..n-1 should they stay free. A hotseat room seats ``humans`` people of this device
    in seats 0..humans-1, named by ``names`` (cleaned by ``forms.clean_person_name``; an
    empty one: the first person by ``name``, the others "Player 2", ...) and computers in
    the others."""
    if len(levels) != players - 1 or any(level not in services.LEVELS for level in levels):
        raise ValueError("one known level per other seat")
    Match.new(rules, players, rounds, 0)  # fails here if the engine cannot set it up
    with transaction.atomic():
        room = Room.objects.create(
            creator=creator,
            mode=mode,
            rules=rules.to_json(),
            players=players,
            rounds=rounds,
            drop_timeout_s=drop_timeout_s,
            clock_s=clock_s,
            standin_level=standin_level,
            delay_ms=settings.PLAY_COMPUTER_DELAY_MS if delay_ms is None else delay_ms,
        )
        rows = []
        for seat in range(players):
            level = "beginner" if seat == 0 else levels[seat - 1]
            if mode == Room.Mode.HOTSEAT:
                human = seat < humans
                rows.append(
                    RoomSeat(
                        room=room,
                        seat=seat,
                        kind=RoomSeat.Kind.HUMAN if human else RoomSeat.Kind.COMPUTER,
                        level=level,
                        player=creator if human else "",
                        name=_person_name(names, seat) or (clean_name(name) if seat == 0 else ""),
                    )
                )
            else:
                rows.append(
                    RoomSeat(
                        room=room,
                        seat=seat,
                        kind=RoomSeat.Kind.HUMAN if seat == 0 else RoomSeat.Kind.FREE,
                        level=level,
                        player=creator if seat == 0 else "",
                        name=clean_name(name) if seat == 0 else "",
                    )
                )
        RoomSeat.objects.bulk_create(rows)
    return room


def _person_name(names: list[str] | None, seat: int) -> str:
    # Checked by the set-up form (it keeps a Japanese name's inner full-width space).
    return names[seat][:NAME_MAX] if names and seat < len(names) else ""


def get_room(token: str) -> Room | None:
    if not token or len(token) > 32:
        return None
    return Room.objects.filter(pk=token).first()


def seats_of(room: Room) -> list[RoomSeat]:
    return list(RoomSeat.objects.filter(room=room).order_by("seat"))


def seat_of(room: Room, player: str | None) -> int | None:
    """The seat ``player`` holds in the room (the first, for a hotseat room)."""
    if not player:
        return None
    row = RoomSeat.objects.filter(room=room, player=player).order_by("seat").first()
    return row.seat if row is not None else None


def is_open(room: Room) -> bool:
    return room.status == Room.Status.OPEN


def expire_if_abandoned(room: Room) -> Room:
    """Close a room nobody has touched for ``ROOMS_ABANDONED_AFTER_H`` hours (its games
    stay readable)."""
    limit = timezone.now() - datetime.timedelta(hours=settings.ROOMS_ABANDONED_AFTER_H)
    if room.status != Room.Status.CLOSED and room.updated < limit:
        last = Game.objects.filter(pk=room.game_id).values_list("updated", flat=True).first()
        if last is None or last < limit:
            Room.objects.filter(pk=room.pk).update(status=Room.Status.CLOSED)
            room.status = Room.Status.CLOSED
    return room


def take_seat(room: Room, seat: int, player: str, name: str) -> str | None:
    if room.status == Room.Status.CLOSED:
        return "room_closed"
    if room.status != Room.Status.OPEN:
        return "room_started"
    if room.mode == Room.Mode.HOTSEAT:
        return "not_creator"
    if not 0 <= seat < room.players:
        return "no_such_seat"
    # "Already seated?" and the seat's update are one step: the room's row is locked
    # first (PostgreSQL; SQLite's IMMEDIATE transactions serialise writers anyway), so two
    # requests of one person for two seats cannot both see "not seated" (issue 45: 2 and
    # even 4 seats for one session from concurrent requests).
    with transaction.atomic():
        locked = Room.objects.select_for_update().filter(pk=room.pk).values_list("status")
        status = locked.first()
        if status is None or status[0] == Room.Status.CLOSED:
            return "room_closed"
        if status[0] != Room.Status.OPEN:
            return "room_started"
        if seat_of(room, player) is not None:
            return "already_seated"
        if not RoomSeat.objects.filter(room=room, kind=RoomSeat.Kind.FREE).exists():
            return "room_full"
        taken = RoomSeat.objects.filter(room=room, seat=seat, kind=RoomSeat.Kind.FREE).update(
            kind=RoomSeat.Kind.HUMAN, player=player, name=clean_name(name)
        )
        if not taken:
            return "seat_taken"
        _touch(room)
    return None


def leave_seat(room: Room, player: str) -> str | None:
    """Before the game: free the seat (the creator cannot leave an open room: they close
    it by leaving it alone). During the game: the computer plays the seat from now on,
    until the person comes back through the link."""
    seat = seat_of(room, player)
    if seat is None:
        return "not_seated"
    if room.status == Room.Status.OPEN:
        if player == room.creator:
            return "not_creator"
        RoomSeat.objects.filter(room=room, seat=seat, player=player).update(
            kind=RoomSeat.Kind.FREE, player="", name=""
        )
    elif room.status == Room.Status.PLAYING:
        RoomSeat.objects.filter(room=room, seat=seat).update(handed=True)
    else:
        return "room_closed"
    _touch(room)
    return None


def hand_to_computer(room: Room, by: str, seat: int) -> str | None:
    """The creator lets the computer play a person's seat now (without the drop wait)."""
    if by != room.creator:
        return "not_creator"
    if room.status != Room.Status.PLAYING:
        return "not_over" if room.status == Room.Status.OPEN else "room_closed"
    done = RoomSeat.objects.filter(room=room, seat=seat, kind=RoomSeat.Kind.HUMAN).update(
        handed=True
    )
    if not done:
        return "no_such_seat"
    _touch(room)
    return None


def start(room: Room, by: str, *, fill: bool) -> tuple[Game | None, str | None]:
    """Start the match (``fill``: free seats go to the computer at their level)."""
    if by != room.creator:
        return None, "not_creator"
    if room.status == Room.Status.CLOSED:
        return None, "room_closed"
    if room.status != Room.Status.OPEN:
        return None, "room_started"
    rows = seats_of(room)
    if any(row.kind == RoomSeat.Kind.FREE for row in rows):
        if not fill:
            return None, "seats_free"
        RoomSeat.objects.filter(room=room, kind=RoomSeat.Kind.FREE).update(
            kind=RoomSeat.Kind.COMPUTER
        )
        rows = seats_of(room)
    return _new_game(room, rows), None


def play_again(room: Room, by: str) -> tuple[Game | None, str | None]:
    """A new match with the same seats (the creator, once the match is over)."""
    if by != room.creator:
        return None, "not_creator"
    if room.status == Room.Status.CLOSED:
        return None, "room_closed"
    game = Game.objects.filter(pk=room.game_id).first()
    if room.status != Room.Status.FINISHED and (
        game is None or game.status != Game.Status.FINISHED
    ):
        return None, "not_over"
    return _new_game(room, seats_of(room)), None


def _new_game(room: Room, rows: list[RoomSeat]) -> Game:
    seats: list[dict[str, Any]] = []
    for row in rows:
        if row.kind == RoomSeat.Kind.HUMAN:
            entry: dict[str, Any] = {
                "kind": "human",
                "player": row.player,
                "name": row.name or _default_name(row.seat),
                "room": room.token,
                "standin_level": room.standin_level,
            }
            if room.mode == Room.Mode.HOTSEAT:
                entry["hotseat"] = True
            seats.append(entry)
        else:
            seats.append({"kind": "computer", "level": row.level})
    seats = clock.with_clock(seats, room.clock_s or None)
    humans = [s for s, e in enumerate(seats) if e["kind"] == "human"]
    with transaction.atomic():
        game = Game(
            owner=room.creator,
            rules=room.rules,
            players=room.players,
            rounds=room.rounds,
            seats=seats,
            human_seat=humans[0] if humans else 0,
            delay_ms=room.delay_ms,
        )
        game.save()
        now = timezone.now()
        # Everyone has the drop time to open the game page (not yet come, not dropped).
        RoomSeat.objects.filter(room=room).update(away_since=now, handed=False, arrived=False)
        Room.objects.filter(pk=room.pk).update(
            status=Room.Status.PLAYING,
            game=game,
            game_ids=[*room.game_ids, game.id],
            updated=now,
        )
    room.status, room.game, room.game_ids = Room.Status.PLAYING, game, [*room.game_ids, game.id]
    return game


def _default_name(seat: int) -> str:
    from django.utils.translation import gettext

    return gettext("Player %(n)s") % {"n": seat + 1}


def finished(room: Room, game: Game) -> None:
    """Mark the room's match over once its game is (the results page reads it)."""
    if room.status == Room.Status.PLAYING and room.game_id == game.id:
        if game.status == Game.Status.FINISHED:
            Room.objects.filter(pk=room.pk, game=game).update(status=Room.Status.FINISHED)
            room.status = Room.Status.FINISHED


def _touch(room: Room) -> None:
    Room.objects.filter(pk=room.pk).update(updated=timezone.now())


def results(room: Room) -> list[dict[str, Any]]:
    """Each game of the room: points per round and the standings (from the engine)."""
    out = []
    games = {g.id: g for g in Game.objects.filter(pk__in=room.game_ids)}
    for game_id in room.game_ids:
        game = games.get(game_id)
        if game is None:
            continue
        match = services.match_of(game)
        out.append({"game": game, "match": match})
    return out
