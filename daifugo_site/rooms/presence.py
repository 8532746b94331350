"""Who plays each person's seat right now, read from the database so every worker agrees.

A person's seat is played by the computer (at the room's ``standin_level``) when they
left or the creator handed it over (``handed``), or when none of their game pages has been
open for the room's ``drop_timeout_s`` (``connections`` is 0 since ``away_since``). The
moment they open a page of the game again, ``handed`` and ``away_since`` clear and the seat
is theirs from the next turn on (a computer move already being thought is refused by
``services.apply_action``, which asks :func:`standins` again before writing).

Called by ``daifugo_site.play.services`` (``standin_seats``, ``computer_moves_on``), from
a thread (it reads the database).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from .models import Room, RoomSeat

if TYPE_CHECKING:
    from daifugo_site.play.models import Game
    from rules_engine import Match


def room_token(game: Game) -> str | None:
    for entry in game.seats:
        if entry.get("room"):
            return str(entry["room"])
    return None


@dataclass(frozen=True)
class SeatPresence:
    seat: int
    name: str
    connected: bool
    standin: bool
    handed: bool
    # When the computer takes over (the drop time runs out), while the person is away.
    takeover_at: datetime.datetime | None


def seat_states(game: Game, now: datetime.datetime | None = None) -> list[SeatPresence]:
    """The human seats of the room's game, with their presence."""
    token = room_token(game)
    if token is None:
        return []
    room = Room.objects.filter(pk=token).only("drop_timeout_s", "mode", "game_id").first()
    if room is None:
        return []
    now = now or timezone.now()
    hotseat = room.mode == Room.Mode.HOTSEAT
    current = room.game_id == game.id
    out = []
    for row in RoomSeat.objects.filter(room_id=token, kind=RoomSeat.Kind.HUMAN):
        entry = game.seats[row.seat] if row.seat < len(game.seats) else {}
        if entry.get("kind") != "human":
            continue
        takeover_at = None
        if not hotseat and current and row.connections <= 0 and row.away_since is not None:
            takeover_at = row.away_since + datetime.timedelta(seconds=room.drop_timeout_s)
        standin = row.handed or (takeover_at is not None and takeover_at <= now)
        if not current:
            standin = False  # an older game of the room: nobody plays it any more
        out.append(
            SeatPresence(
                seat=row.seat,
                name=str(entry.get("name") or ""),
                connected=hotseat or row.connections > 0,
                standin=standin,
                handed=row.handed,
                takeover_at=takeover_at if takeover_at is not None and not standin else None,
            )
        )
    return out


def standins(game: Game) -> set[int]:
    """The human seats the computer plays now."""
    return {p.seat for p in seat_states(game) if p.standin}


def moves_on(game: Game, match: Match) -> bool:
    """Whether the computer may start the next round: every person lets it play, or the
    round's result has been shown for ``ROOMS_NEXT_ROUND_S`` without anyone moving on."""
    states = seat_states(game)
    if not states:
        return False
    if all(p.standin for p in states):
        return True
    waited = timezone.now() - game.updated
    return waited >= datetime.timedelta(seconds=settings.ROOMS_NEXT_ROUND_S)


def next_change(game: Game) -> float | None:
    """Seconds until the next takeover of a dropped seat (for a timer), or None."""
    now = timezone.now()
    times = [p.takeover_at for p in seat_states(game, now) if p.takeover_at is not None]
    if not times:
        return None
    return max(0.0, (min(times) - now).total_seconds())
