"""Who plays each person's seat right now, read from the database so every worker agrees.

A person's seat is played by the computer (at the room's ``standin_level``) when they
left or the creator handed it over (``handed``), or when none of their game pages has been
open for the room's ``drop_timeout_s``. The moment they open a page of the game again,
``handed`` and ``away_since`` clear and the seat is theirs from the next turn on (a
computer move already being thought is refused by ``services.apply_action``, which asks
:func:`standins` again before writing).

An open page is a :class:`~.models.SeatConnection` row (:func:`open_connection`,
:func:`close_connection`) that its worker renews every ``ROOMS_HEARTBEAT_S``
(:func:`renew`, one UPDATE per worker for all its pages). A row not renewed for
``ROOMS_CONNECTION_STALE_S`` belongs to a worker that died with the socket open: it counts
no more, and the seat is away since that row's last beat, so a killed worker's people are
handed to the computer after the drop time like anyone who closed the page. A live worker
that serves the room deletes such rows and tells the table (:func:`renew`), a reconnect of
the seat deletes them too, and ``manage.py purge`` any left over.

Called by ``daifugo_site.play.services`` (``standin_seats``, ``computer_moves_on``), from
a thread (it reads the database).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from .models import Room, RoomSeat, SeatConnection

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
    # Whether the person has opened this game's page at all (False: not come yet).
    arrived: bool
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
    stale = _stale_before(now)
    last_seen = dict(
        SeatConnection.objects.filter(room_id=token)
        .values("seat")
        .annotate(last=Max("seen"))
        .values_list("seat", "last")
    )
    out = []
    for row in RoomSeat.objects.filter(room_id=token, kind=RoomSeat.Kind.HUMAN):
        entry = game.seats[row.seat] if row.seat < len(game.seats) else {}
        if entry.get("kind") != "human":
            continue
        seen = last_seen.get(row.seat)
        connected = seen is not None and seen >= stale
        # Away since the last page closed, or since a dead worker's page last beat.
        away = max((t for t in (row.away_since, seen) if t is not None), default=None)
        takeover_at = None
        if not hotseat and current and not connected and away is not None:
            takeover_at = away + datetime.timedelta(seconds=room.drop_timeout_s)
        standin = row.handed or (takeover_at is not None and takeover_at <= now)
        if not current:
            standin = False  # an older game of the room: nobody plays it any more
        out.append(
            SeatPresence(
                seat=row.seat,
                name=str(entry.get("name") or ""),
                connected=hotseat or connected,
                standin=standin,
                handed=row.handed,
                arrived=hotseat or row.arrived or seen is not None,
                takeover_at=takeover_at if takeover_at is not None and not standin else None,
            )
        )
    return out


def standins(game: Game) -> set[int]:
    """The human seats the computer plays now."""
    return {p.seat for p in seat_states(game) if p.standin}


def anyone_here(game: Game) -> bool:
    """Whether any person has a page of the room's current game open (a fresh connection
    row: a link room's seated people, or a hotseat table's device). With nobody here the
    table waits: computers do not play each other (or stand in for everyone) for nobody
    (issue 45: ten abandoned advanced tables kept the search processes 97% busy), and it
    goes on as soon as someone opens the page again (its connection tells the table)."""
    token = room_token(game)
    if token is None:
        return True
    if not Room.objects.filter(pk=token, game_id=game.id).exists():
        return False
    return SeatConnection.objects.filter(
        room_id=token, seen__gte=_stale_before(timezone.now())
    ).exists()


def moves_on(game: Game, match: Match) -> bool:
    """Whether the computer may start the next round: every person lets it play, or the
    round's result has been shown for ``ROOMS_NEXT_ROUND_S`` without anyone moving on."""
    at = next_round_at(game, match)
    return at is not None and at <= timezone.now()


def next_round_at(
    game: Game, match: Match, states: list[SeatPresence] | None = None
) -> datetime.datetime | None:
    """When the computer starts the next round by itself (None: not between rounds, or
    not a room's table): at once when every person lets it play, else
    ``ROOMS_NEXT_ROUND_S`` after the move that ended the round (the game row's write
    time, the same in every process, so a page that reconnects counts to the same end)."""
    if not match.round.over or match.over:
        return None
    states = seat_states(game) if states is None else states
    if not states:
        return None
    if all(p.standin for p in states):
        return game.updated
    return game.updated + datetime.timedelta(seconds=settings.ROOMS_NEXT_ROUND_S)


def next_change(game: Game) -> float | None:
    """Seconds until the next takeover of a dropped seat (for a timer), or None."""
    now = timezone.now()
    times = [p.takeover_at for p in seat_states(game, now) if p.takeover_at is not None]
    if not times:
        return None
    return max(0.0, (min(times) - now).total_seconds())


# -- connections -----------------------------------------------------------------------------


def _stale_before(now: datetime.datetime) -> datetime.datetime:
    return now - datetime.timedelta(seconds=settings.ROOMS_CONNECTION_STALE_S)


def open_connection(connection: str, room: str, seat: int) -> None:
    """A game page of the seat's person opened: it counts, and the seat is theirs again
    (no longer handed, not away). Rows of the seat a dead worker left are deleted."""
    now = timezone.now()
    with transaction.atomic():
        SeatConnection.objects.filter(room_id=room, seat=seat, seen__lt=_stale_before(now)).delete()
        SeatConnection.objects.update_or_create(
            pk=connection, defaults={"room_id": room, "seat": seat, "seen": now}
        )
        RoomSeat.objects.filter(room_id=room, seat=seat).update(
            away_since=None, handed=False, arrived=True
        )


def close_connection(connection: str, room: str, seat: int) -> None:
    """The page closed: its row goes, and the seat is away from now (the drop time runs
    once no other page of the seat is open)."""
    with transaction.atomic():
        if SeatConnection.objects.filter(pk=connection).delete()[0]:
            RoomSeat.objects.filter(room_id=room, seat=seat).update(away_since=timezone.now())


def renew(live: dict[str, tuple[str, int]]) -> set[str]:
    """One heartbeat of a worker: renew its pages' rows (``live``: connection id ->
    (room, seat)), put back any a peer judged dead while this worker was slow, and clear
    the dead rows of the rooms it serves. Returns the rooms whose presence changed (their
    tables are told)."""
    now = timezone.now()
    changed: set[str] = set()
    # ``live`` is the worker's own registry, read again before putting a row back: a page
    # that closed meanwhile (its row deleted) must not come back as a ghost.
    ids = list(dict(live))
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        renewed = SeatConnection.objects.filter(pk__in=part).update(seen=now)
        if renewed < len(part):
            have = set(SeatConnection.objects.filter(pk__in=part).values_list("pk", flat=True))
            back = [
                SeatConnection(id=c, room_id=live[c][0], seat=live[c][1], seen=now)
                for c in part
                if c not in have and c in live
            ]
            SeatConnection.objects.bulk_create(back, ignore_conflicts=True)
            changed |= {row.room_id for row in back}
    rooms = {room for room, _seat in dict(live).values()}
    dead = SeatConnection.objects.filter(
        room_id__in=rooms, seen__lt=_stale_before(now)
    ).values_list("pk", "room_id", "seat", "seen")
    for pk, room, seat, seen in dead:
        with transaction.atomic():
            # Whoever deletes the row (one worker) carries its last beat to the seat.
            if SeatConnection.objects.filter(pk=pk, seen=seen).delete()[0]:
                RoomSeat.objects.filter(room_id=room, seat=seat).filter(
                    Q(away_since__isnull=True) | Q(away_since__lt=seen)
                ).update(away_since=seen)
                changed.add(room)
    return changed


def dead_connections() -> Any:
    """Rows no live worker renews (for ``manage.py purge``)."""
    return SeatConnection.objects.filter(seen__lt=_stale_before(timezone.now()))
