"""A room: a table of people reached by a link, and the games played at it.

The link's token is the room's key (unguessable, like a practice game's id). Seats are
rows of :class:`RoomSeat`: a person (their browser's player token and nickname), a
computer, or free. A room's games are ordinary play ``Game`` rows whose human seat
entries name the player token that owns them (``{"kind": "human", "player": ...}``), so
``services.apply_action``, the one move path, checks who may act for which seat.

Presence (whether a seat's person has a page of the game open) lives here in the
database, so every web worker sees the same: one :class:`SeatConnection` row per open game
page, renewed by its worker's heartbeat, so a worker killed with sockets open leaves rows
that stop counting once stale instead of a count that never comes down; ``away_since``
marks when the seat's last page closed (:mod:`daifugo_site.rooms.presence`).
"""

from __future__ import annotations

import secrets

from django.db import models
from django.urls import reverse


def new_room_token() -> str:
    return secrets.token_urlsafe(16)


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"  # taking seats
        PLAYING = "playing"
        FINISHED = "finished"  # the match is over; "play again" reopens it
        CLOSED = "closed"  # abandoned: kept readable, nothing more happens

    class Mode(models.TextChoices):
        LINK = "link"  # people on their own devices
        HOTSEAT = "hotseat"  # one device passed around

    token = models.CharField(primary_key=True, max_length=32, default=new_room_token)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.LINK)
    creator = models.CharField(max_length=64, db_index=True)
    rules = models.JSONField(help_text="RuleSet.to_json()")
    players = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    # The computer level that plays for a person who left or dropped.
    standin_level = models.CharField(max_length=16, default="intermediate")
    drop_timeout_s = models.PositiveIntegerField(default=30)
    # 0: no turn clock (friends' default).
    clock_s = models.PositiveIntegerField(default=0)
    delay_ms = models.PositiveIntegerField(default=700)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey(
        "play.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Every game played here, oldest first (the room's results).
    game_ids = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return f"room {self.token[:6]}… ({self.players} seats, {self.status})"

    def get_absolute_url(self) -> str:
        return reverse("rooms:room", args=[self.token])


class RoomSeat(models.Model):
    class Kind(models.TextChoices):
        FREE = "free"
        HUMAN = "human"
        COMPUTER = "computer"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.FREE)
    # The computer's level for a computer seat (chosen by the creator for a free seat).
    level = models.CharField(max_length=16, default="beginner")
    player = models.CharField(max_length=64, blank=True, default="", db_index=True)
    name = models.CharField(max_length=24, blank=True, default="")
    # When the seat's last page closed (or its last live heartbeat, for a dead worker's).
    away_since = models.DateTimeField(null=True, blank=True)
    # The person left, or the creator handed the seat to the computer.
    handed = models.BooleanField(default=False)
    # Whether a page of the seat's person has opened the room's current game: until then
    # the seat is "not at the table yet", not "lost the connection".
    arrived = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["room", "seat"], name="room_seat_once")]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.room_id}"


class SeatConnection(models.Model):
    """One open game page of a seated person: its socket's worker renews ``seen`` every
    ``ROOMS_HEARTBEAT_S``; a row older than ``ROOMS_CONNECTION_STALE_S`` is a dead
    worker's and counts no more (a live worker, a reconnect or ``manage.py purge``
    deletes it)."""

    id = models.CharField(primary_key=True, max_length=32)
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="connection_rows")
    seat = models.PositiveSmallIntegerField()
    seen = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["room", "seat"], name="room_conn_seat")]

    def __str__(self) -> str:
        return f"page of seat {self.seat} of {self.room_id}"
