"""What a room table adds to the play socket (``play/consumers.py`` calls these hooks).

- **Presence**: a seated person's game page counts as a connection of their seat in the
  database (:func:`services.bump_connections`), so every worker knows who is away; each
  change is told to the game's group (``room.presence``) and every page re-renders the
  room panel (who is away, the countdown before the computer takes over, who the computer
  plays for, the turn clock) and asks for a computer driver (a seat it plays now). A timer
  in the process that saw the drop wakes everyone again when the drop time runs out.
- **Hotseat** (one device): the page shows a hand only after the person to act pressed
  "show my hand" (``reveal``) on the curtain naming them; while the curtain is down the
  table is rendered as a viewer's (no hand in the DOM or the frame), and it comes down
  again as soon as that person's turn is over.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import timezone, translation

from daifugo_site import limits
from daifugo_site.play import clock, services
from daifugo_site.play.models import Game
from rules_engine import Action

from . import presence
from . import services as rooms


class Socket(Protocol):
    lang: str
    game_id: str
    is_owner: bool
    human_seat: int
    sent: dict[str, Any] | None
    sent_version: int | None

    async def send(self, text_data: str | None = None) -> None: ...


# One drop timer per game in this process.
_TIMERS: dict[str, asyncio.TimerHandle] = {}


class Table:
    """One page's room state: its seat, and for a hotseat page the seat it has revealed."""

    def __init__(self, game: Game, seat: int | None, player: str | None) -> None:
        self.room = presence.room_token(game)
        self.seat = seat
        self.player = player
        self.hotseat = any(e.get("hotseat") for e in game.seats)
        self.counted = False
        # Hotseat: (seat, round number) revealed; the hand shows while that seat acts.
        self.revealed: int | None = None
        self.curtain_for: int | None = None

    # -- presence ------------------------------------------------------------------------

    async def connected(self, socket: Socket) -> None:
        loaded = services.cached(socket.game_id, 0)
        if loaded is not None:
            clock.wake_at_deadline(*loaded)
        if self.seat is not None and not self.hotseat and self.room:
            await database_sync_to_async(self._bump)(socket.game_id, +1)
            self.counted = True
            await _tell(socket.game_id)
        else:
            await self.send_panel(socket)

    async def disconnected(self, socket: Socket) -> None:
        if self.counted:
            self.counted = False
            await database_sync_to_async(self._bump)(socket.game_id, -1)
            await _tell(socket.game_id)
            wait = await database_sync_to_async(_next_change)(socket.game_id)
            if wait is not None:
                _wake_later(socket.game_id, wait)

    def _bump(self, game_id: str, delta: int) -> None:
        # Only the room's current game counts (an old game's page left open does not).
        game = Game.objects.filter(pk=game_id).only("id").first()
        if game is None or self.room is None or self.seat is None:
            return
        from .models import Room

        if Room.objects.filter(pk=self.room, game_id=game_id).exists():
            rooms.bump_connections(self.room, self.seat, delta)

    # -- messages ------------------------------------------------------------------------

    async def handle(self, socket: Socket, content: dict[str, Any]) -> bool:
        """A room message (``reveal``); True when handled here. For a hotseat page, any
        action while the curtain is down is refused here (nothing reaches the game)."""
        kind = content.get("action")
        if not self.hotseat:
            return False
        if kind == "next":
            # Between rounds nobody's hand is shown, so the device's person moves on.
            version = limits.version_of(content)
            if version is None:
                await _error(socket, "version_required")
                return True
            outcome = await services.submit(
                socket.game_id,
                Action.next_round(),
                by_computer=False,
                expected_version=version,
                player=self.player,
            )
            if not outcome.accepted:
                await _error(socket, outcome.reason or "error")
            return True
        if kind == "reveal":
            raw = content.get("seat")
            seat = int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 3 else raw
            if not isinstance(seat, int) or seat != self.curtain_for:
                await _error(socket, "stale")
                return True
            self.revealed = seat
            socket.human_seat = seat
            socket.is_owner = True
            socket.sent, socket.sent_version = None, None
            await self.send_table(socket)
            return True
        if kind in ("play", "pass", "give") and self.revealed is None:
            await _error(socket, "curtain")
            return True
        return False

    # -- rendering -----------------------------------------------------------------------

    async def send_table(self, socket: Socket, version: int | None = None) -> None:
        """The hotseat page's table: the revealed seat's, else a viewer's plus the curtain."""
        from daifugo_site.play.rendering import render_table

        loaded = await database_sync_to_async(services.current)(socket.game_id, version)
        if loaded is None:
            return
        game, match = loaded
        waiting = [
            s for s in clock.seats_to_act(game, match) if game.seats[s].get("kind") == "human"
        ]
        if self.revealed is not None and self.revealed not in waiting:
            # That person's turn is over: the hand goes before anyone else can look.
            self.revealed = None
            socket.is_owner = False
            socket.sent, socket.sent_version = None, None
        curtain = None
        if self.revealed is None and waiting:
            curtain = waiting[0]
        self.curtain_for = curtain
        seat = self.revealed
        rendered = await database_sync_to_async(render_table)(
            socket.game_id,
            socket.lang,
            seat is not None,
            game.version,
            socket.sent,
            sent_version=socket.sent_version,
            seat=seat,
        )
        if rendered is None:
            return
        html, socket.sent, socket.sent_version = rendered
        panel = await database_sync_to_async(self.panel_html)(socket, game, match)
        await socket.send(text_data=html + panel)

    async def send_panel(self, socket: Socket) -> None:
        loaded = await database_sync_to_async(services.current)(socket.game_id)
        if loaded is None:
            return
        html = await database_sync_to_async(self.panel_html)(socket, *loaded)
        await socket.send(text_data=html)

    def panel_html(self, socket: Socket, game: Game, match: Any) -> str:
        with translation.override(socket.lang):
            return render_to_string(
                "rooms/panel.html",
                panel_context(game, match, self.seat, self, oob=True),
            )


def panel_context(
    game: Game, match: Any, seat: int | None, table: Table | None, *, oob: bool
) -> dict[str, Any]:
    """What the room panel shows: presence per seat, the clock, the curtain."""
    from daifugo_site.play.presenter import seat_name

    now = timezone.now()
    states = presence.seat_states(game, now)
    hotseat = any(e.get("hotseat") for e in game.seats)
    rows = []
    for p in states:
        rows.append(
            {
                "seat": p.seat,
                "name": p.name,
                "mine": p.seat == seat and not hotseat,
                "standin": p.standin,
                "away": not p.connected and not p.standin,
                "takeover_at": p.takeover_at.isoformat() if p.takeover_at else "",
                "takeover_in": int((p.takeover_at - now).total_seconds() + 0.999)
                if p.takeover_at
                else 0,
            }
        )
    left = clock.remaining(game, match, now)
    end = clock.deadline(game, match)
    curtain = table.curtain_for if table is not None else None
    waiting = [s for s in clock.seats_to_act(game, match) if game.seats[s].get("kind") == "human"]
    return {
        "oob": oob,
        "game": game,
        "room_token": presence.room_token(game),
        "rows": [r for r in rows if not hotseat],
        "clock_left": int(left + 0.999) if left is not None else None,
        "clock_to": end.isoformat() if end is not None else "",
        "hotseat": hotseat,
        "spectator": seat is None and not hotseat,
        "curtain": curtain,
        "curtain_name": seat_name(game, curtain, False) if curtain is not None else "",
        "version": game.version,
        "round_over": match.round.over and not match.over and hotseat,
        "waiting": bool(waiting),
    }


def _next_change(game_id: str) -> float | None:
    game = Game.objects.filter(pk=game_id).first()
    return presence.next_change(game) if game is not None else None


def _wake_later(game_id: str, seconds: float) -> None:
    old = _TIMERS.pop(game_id, None)
    if old is not None:
        old.cancel()

    def fire() -> None:
        _TIMERS.pop(game_id, None)
        asyncio.get_running_loop().create_task(_tell(game_id))

    _TIMERS[game_id] = asyncio.get_running_loop().call_later(seconds + 0.1, fire)


async def _tell(game_id: str) -> None:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(services.group_name(game_id), {"type": "room.presence"})


async def _error(socket: Socket, reason: str) -> None:
    from daifugo_site.play.rendering import render_error

    await socket.send(text_data=render_error(reason, socket.lang))


async def after_update(socket: Socket, table: Table, version: int | None) -> None:
    """After a move: a hotseat page re-decides its curtain; a clocked table's panel shows
    the new turn's clock."""
    if table.hotseat:
        await table.send_table(socket, version)
        return
    loaded = services.cached(socket.game_id, version or 0)
    if loaded is not None and any(e.get(clock.KEY) for e in loaded[0].seats):
        await table.send_panel(socket)


async def on_presence(socket: Socket, table: Table) -> None:
    """Every page of the game, on ``room.presence``: the panel again, and a driver for a
    seat the computer plays now (the lease makes one process drive it)."""
    if table.hotseat:
        await table.send_table(socket)
    else:
        await table.send_panel(socket)
    services.ensure_driver(socket.game_id)
