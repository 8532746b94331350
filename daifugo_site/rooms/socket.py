"""What a room table adds to the play socket (``play/consumers.py`` calls these hooks).

- **Presence**: a seated person's game page is a connection row of their seat in the
  database (:func:`presence.open_connection`), so every worker knows who is away; this
  process renews its pages' rows with one heartbeat (:func:`_beat_forever`), so a worker
  killed with sockets open stops counting after ``ROOMS_CONNECTION_STALE_S``. Each change
  is told to the game's group (``room.presence``) and every page re-renders the room panel
  (who is away, the countdown before the computer takes over, who the computer plays for,
  the turn clock) and asks for a computer driver (a seat it plays now). A timer in a
  process that saw the drop (or found a dead worker's rows) wakes everyone again when the
  drop time runs out; the computers' sweep finds the same turn should no process be left.
- **Between rounds** the panel counts down to the round the computer starts by itself
  (:func:`presence.next_round_at`: the round's last write plus ``ROOMS_NEXT_ROUND_S``,
  the same deadline in every process, so a page that reconnects counts to the same end);
  the page's live region says it once, and a timer wakes a driver at that time.
- A room hook that raises is logged and the page goes on: an exception escaping a group
  handler would end the consumer, and daphne would close the socket with 1011.
- **Hotseat** (one device): the page shows a hand only after the person to act pressed
  "show my hand" (``reveal``) on the curtain naming them; while the curtain is down the
  table is rendered as a viewer's (no hand in the DOM or the frame), and it comes down
  again as soon as that person's turn is over.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import uuid
from typing import Any, Protocol

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from daifugo_site import asyncdb, limits
from daifugo_site.play import clock, services
from daifugo_site.play.models import Game
from rules_engine import Action

from . import presence


class Socket(Protocol):
    lang: str
    game_id: str
    is_owner: bool
    human_seat: int
    sent: dict[str, Any] | None
    sent_version: int | None

    async def send(self, text_data: str | None = None) -> None: ...


log = logging.getLogger(__name__)

# One drop timer per game in this process.
_TIMERS: dict[str, asyncio.TimerHandle] = {}
# This process's open pages of seated people: connection id -> (room, seat), and the game
# each one shows (to tell the right group when a beat finds a room's presence changed).
_LIVE: dict[str, tuple[str, int]] = {}
_LIVE_GAMES: dict[str, str] = {}
# The heartbeat task, one per event loop (one loop per daphne process).
_BEATS: dict[int, asyncio.Task[None]] = {}


class Table:
    """One page's room state: its seat, and for a hotseat page the seat it has revealed."""

    def __init__(self, game: Game, seat: int | None, player: str | None) -> None:
        self.room = presence.room_token(game)
        self.seat = seat
        self.player = player
        self.hotseat = any(e.get("hotseat") for e in game.seats)
        # This page's connection row (daifugo_site/rooms/presence.py), while it counts.
        self.connection: str | None = None
        # Hotseat: (seat, round number) revealed; the hand shows while that seat acts.
        self.revealed: int | None = None
        self.curtain_for: int | None = None
        # What this page last said about each seat ("away" or "standin"), so that only a
        # change is announced (the panel's live region, templates/rooms/panel.html).
        self.told: dict[int, str] = {}
        # The round whose automatic start this page has announced (once, not every
        # second), and whether its panel shows that countdown now.
        self.told_next: tuple[int, int] | None = None
        self.next_shown = False

    # -- presence ------------------------------------------------------------------------

    async def connected(self, socket: Socket) -> None:
        loaded = services.cached(socket.game_id, 0)
        if loaded is not None:
            clock.wake_at_deadline(*loaded)
        # A hotseat device counts too (as its first seat), so that a table nobody has
        # open waits (presence.anyone_here); its seats are never handed to the computer.
        if self.seat is not None and self.room:
            connection = uuid.uuid4().hex
            if await asyncdb.call(self._open, socket.game_id, connection):
                self.connection = connection
                _LIVE[connection] = (self.room, self.seat)
                _LIVE_GAMES[connection] = socket.game_id
                _ensure_beat()
            # Every page hears (room.presence) and re-renders its panel, this one too.
            await _tell(socket.game_id)
            return
        await self.send_panel(socket)

    async def disconnected(self, socket: Socket) -> None:
        connection, self.connection = self.connection, None
        if connection is not None and self.room is not None and self.seat is not None:
            # Out of the registry first: a heartbeat running now must not put the row back.
            _LIVE.pop(connection, None)
            _LIVE_GAMES.pop(connection, None)
            await asyncdb.call(presence.close_connection, connection, self.room, self.seat)
            await _tell(socket.game_id)
            wait = await asyncdb.call(_next_change, socket.game_id)
            if wait is not None:
                _wake_later(socket.game_id, wait)

    def _open(self, game_id: str, connection: str) -> bool:
        # Only the room's current game counts (an old game's page left open does not).
        if self.room is None or self.seat is None:
            return False
        from .models import Room

        if not Room.objects.filter(pk=self.room, game_id=game_id).exists():
            return False
        presence.open_connection(connection, self.room, self.seat)
        return True

    # -- messages ------------------------------------------------------------------------

    async def handle(self, socket: Socket, content: dict[str, Any]) -> bool:
        """A room message (``reveal``); True when handled here. For a hotseat page, any
        action while the curtain is down is refused here (nothing reaches the game)."""
        kind = content.get("action")
        if not self.hotseat:
            return False
        if self.seat is None:
            # Only the device that owns the table (its session holds the creator's player
            # token) may lift the curtain or act; any other socket is a viewer, with no hand
            # ever. Checked here first: nothing else on this path asks who the socket is.
            await _error(socket, "not_owner")
            return True
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
        if kind in ("play", "pass", "give", "choose", "name") and self.revealed is None:
            await _error(socket, "curtain")
            return True
        return False

    # -- rendering -----------------------------------------------------------------------

    async def send_table(self, socket: Socket, version: int | None = None) -> None:
        """The hotseat page's table: the revealed seat's, else a viewer's plus the curtain."""
        from daifugo_site.play.rendering import render_table

        loaded = await asyncdb.call(services.current, socket.game_id, version)
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
        if self.revealed is None and waiting and self.seat is not None:
            # A viewer's page (not the table's device) gets no curtain to lift.
            curtain = waiting[0]
        self.curtain_for = curtain
        seat = self.revealed
        rendered = await asyncdb.call(
            render_table,
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
        panel = await asyncdb.call(self.panel_html, socket, game, match)
        await socket.send(text_data=html + panel)

    async def send_panel(self, socket: Socket) -> None:
        loaded = await asyncdb.call(services.current, socket.game_id)
        if loaded is None:
            return
        html = await asyncdb.call(self.panel_html, socket, *loaded)
        await socket.send(text_data=html)

    async def send_moved(self, socket: Socket, game_id: object) -> None:
        """The room started its next match (rooms.views.again): this page goes to its
        table, as the page of the person who started it did. Before, only the panel was
        sent again, unchanged, and the others were left at the finished game."""
        if not isinstance(game_id, str) or not game_id:
            await self.send_panel(socket)
            return
        with translation.override(socket.lang):
            url = reverse("play:game", args=[game_id])
            html = render_to_string("rooms/_moved.html", {"url": url})
        await socket.send(text_data=html)

    def panel_html(self, socket: Socket, game: Game, match: Any) -> str:
        with translation.override(socket.lang):
            context = panel_context(game, match, self.seat, self, oob=True)
            context["news"] = self.news(context["rows"])
            seconds = context["next_round_in"]
            self.next_shown = seconds is not None
            if seconds is not None and self.told_next != (game.version, match.round_no):
                # Said once, when the round's result arrives; the number then counts down
                # on the page without being read out every second.
                self.told_next = (game.version, match.round_no)
                context["news"].append(
                    ngettext(
                        "The next round starts by itself in %(n)s second.",
                        "The next round starts by itself in %(n)s seconds.",
                        seconds,
                    )
                    % {"n": seconds}
                )
            return render_to_string("rooms/panel.html", context)

    def news(self, rows: list[dict[str, Any]]) -> list[str]:
        """Sentences for the seats whose presence changed since this page last heard
        (someone dropped, the computer took over, someone came back)."""
        now = {
            r["seat"]: "standin" if r["standin"] else "away" if r["arrived"] else "waiting"
            for r in rows
            if r["standin"] or r["away"]
        }
        names = {r["seat"]: r["name"] for r in rows}
        out = []
        for seat, state in now.items():
            if self.told.get(seat) == state or seat == self.seat:
                continue
            if state == "standin":
                out.append(_("The computer is playing for %(name)s.") % {"name": names[seat]})
            elif state == "away":
                out.append(_("%(name)s has lost the connection.") % {"name": names[seat]})
            # "waiting" (not come to the table yet) is how a game starts: nothing to say.
        for seat in self.told.keys() - now.keys():
            if seat != self.seat and seat in names:
                if self.told[seat] == "waiting":
                    out.append(_("%(name)s has come to the table.") % {"name": names[seat]})
                else:
                    out.append(_("%(name)s is back at the table.") % {"name": names[seat]})
        self.told = now
        return out


def panel_context(
    game: Game, match: Any, seat: int | None, table: Table | None, *, oob: bool
) -> dict[str, Any]:
    """What the room panel shows: presence per seat, the clock, the curtain."""
    from daifugo_site.play.presenter import seat_name

    now = timezone.now()
    states = presence.seat_states(game, now)
    next_at = presence.next_round_at(game, match, states)
    next_left = (next_at - now).total_seconds() if next_at is not None else None
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
                "arrived": p.arrived,
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
        # A hotseat table's only player is its device (seat: the creator's first seat);
        # every other page watches, as at a link room.
        "spectator": seat is None,
        "curtain": curtain,
        "curtain_name": seat_name(game, curtain, False) if curtain is not None else "",
        "version": game.version,
        "round_over": match.round.over and not match.over and hotseat,
        "waiting": bool(waiting),
        # The countdown before the next round starts by itself (static/rooms/rooms.js
        # counts down from the milliseconds left when the panel was rendered, not from
        # the device's clock): only while someone could still move on first.
        "next_round_in": max(0, int(next_left + 0.999)) if next_left is not None else None,
        "next_round_ms": max(0, int(next_left * 1000)) if next_left is not None else 0,
        "next_round_at": next_at.isoformat() if next_at is not None else "",
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


# One wake per game in this process for the next round's automatic start.
_ROUND_TIMERS: dict[str, asyncio.TimerHandle] = {}


def _wake_next_round(game_id: str, game: Game) -> None:
    due = game.updated + datetime.timedelta(seconds=settings.ROOMS_NEXT_ROUND_S)
    wait = max(0.0, (due - timezone.now()).total_seconds())
    old = _ROUND_TIMERS.pop(game_id, None)
    if old is not None:
        old.cancel()

    def fire() -> None:
        _ROUND_TIMERS.pop(game_id, None)
        services.ensure_driver(game_id)

    _ROUND_TIMERS[game_id] = asyncio.get_running_loop().call_later(wait + 0.1, fire)


def _ensure_beat() -> None:
    loop = asyncio.get_running_loop()
    task = _BEATS.get(id(loop))
    if task is None or task.done():
        _BEATS.clear()  # one loop per process; an older one is gone
        _BEATS[id(loop)] = loop.create_task(_beat_forever())


async def _beat_forever() -> None:
    """Renew this process's connection rows every ``ROOMS_HEARTBEAT_S`` (one UPDATE for
    all of them) and tell the tables whose presence a beat found changed (a dead worker's
    pages gone stale, or this process's rows put back after a slow spell)."""
    while True:
        await asyncio.sleep(settings.ROOMS_HEARTBEAT_S)
        if not _LIVE:
            continue
        try:
            # On the consumers' database thread, in order with the pages' own opens and
            # closes (so a closed page's row is never renewed back).
            changed = await asyncdb.call(presence.renew, _LIVE)
            for game_id in {g for c, g in list(_LIVE_GAMES.items()) if _LIVE[c][0] in changed}:
                await _tell(game_id)
                wait = await asyncdb.call(_next_change, game_id)
                if wait is not None:
                    _wake_later(game_id, wait)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the next beat tries again
            log.exception("room presence heartbeat failed")


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
    the new turn's clock; between rounds the panel counts down to the next one."""
    try:
        loaded = services.cached(socket.game_id, version or 0)
        between = loaded is not None and loaded[1].round.over and not loaded[1].over
        if loaded is not None and between:
            # The next round is due at a time: wake a driver then (the sweep would too,
            # up to its interval later).
            _wake_next_round(socket.game_id, loaded[0])
        if table.hotseat:
            await table.send_table(socket, version)
            return
        if loaded is None:
            return
        game = loaded[0]
        if any(e.get(clock.KEY) for e in game.seats) or between or table.next_shown:
            # The turn clock, or the countdown to the next round (shown, or to take away).
            await table.send_panel(socket)
    except Exception:  # noqa: BLE001 - logged; the page's socket must stay open
        log.exception("room table of game %s not updated", socket.game_id)


async def on_presence(socket: Socket, table: Table) -> None:
    """Every page of the game, on ``room.presence``: the panel again, and a driver for a
    seat the computer plays now (the lease makes one process drive it)."""
    try:
        if table.hotseat:
            await table.send_table(socket)
        else:
            await table.send_panel(socket)
    except Exception:  # noqa: BLE001 - logged; the page's socket must stay open
        log.exception("room panel of game %s not updated", socket.game_id)
    services.ensure_driver(socket.game_id)
