"""Sockets of the rated 1v1: the queue page (``ws/rated/<lang>/queue/``) and the game
(``ws/rated/<lang>/game/<id>/``).

The game socket is the practice game's (:class:`~daifugo_site.play.consumers.GameConsumer`:
the same message parsing, limits and pushes), with three differences: only the two
signed-in players connect, each acting for and seeing only their own seat; a move goes
through the practice game's ``submit`` (the result is written in the final move's
transaction, see services.py); each page checks the absence limit once a second;
``resign`` is one more action. The move clock is the shared turn clock (play/clock.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from daifugo_site import limits
from daifugo_site.play import clock
from daifugo_site.play import services as play
from daifugo_site.play.consumers import CLOSE_NO_GAME, CLOSE_UNKNOWN_LANGUAGE, GameConsumer

from . import rendering, services

CLOSE_NOT_SIGNED_IN = 4401
CLOSE_NOT_A_PLAYER = 4403


def user_group(user_id: int) -> str:
    return f"rated-user-{user_id}"


async def _user(scope: dict[str, Any]) -> Any:
    user = scope.get("user")
    if user is None:
        return None
    # AuthMiddlewareStack's user is lazy: read it off the event loop.
    authenticated = await database_sync_to_async(lambda: user.is_authenticated)()
    return user if authenticated else None


class QueueConsumer(limits.GuardedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    """Waits for a pairing: asks every RATED_QUEUE_POLL_S (the window widens with time);
    when paired, both players' pages get the game's address in the same group message."""

    in_group = False
    poller: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.lang = self.scope["url_route"]["kwargs"]["lang"]
        await self.accept()
        if self.lang not in dict(settings.LANGUAGES):
            await self.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
        refusal = self.hold_sockets()
        if refusal is not None:
            await self.close(code=limits.CLOSE_TOO_MANY)
            return
        self.user = await _user(self.scope)
        if self.user is None:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        self.in_group = True
        await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
        self.poller = asyncio.get_running_loop().create_task(self.poll())

    async def poll(self) -> None:
        while True:
            game = await database_sync_to_async(services.pair)(self.user)
            if game is not None:
                rated = await database_sync_to_async(services.load)(game.id)
                if rated is not None:
                    for uid in (rated[0].seat0_id, rated[0].seat1_id):
                        await self.channel_layer.group_send(
                            user_group(uid), {"type": "queue.paired", "game": game.id}
                        )
                return
            await asyncio.sleep(settings.RATED_QUEUE_POLL_S)

    async def queue_paired(self, event: dict[str, Any]) -> None:
        with translation.override(self.lang):
            url = reverse("rated:game", args=[event["game"]])
            await self.send(text_data=rendering.render_paired(url))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the queue page sends nothing; joining and leaving are forms (HTTP)

    async def cleanup(self) -> None:
        if self.poller is not None:
            self.poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.poller
        if self.in_group:
            self.in_group = False
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)


def _present_key(game_id: str, seat: int) -> str:
    return f"rated:present:{game_id}:{seat}"


class RatedGameConsumer(GameConsumer):
    ticker: asyncio.Task[None] | None = None
    seat: int | None = None
    present_held = False

    async def admit(self) -> bool:
        """Only the two signed-in players, each for their own seat (the shared guard
        set-up is GameConsumer.connect)."""
        user = await _user(self.scope)
        if user is None:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return False
        loaded = await database_sync_to_async(services.load)(self.game_id)
        if loaded is None:
            await self.close(code=CLOSE_NO_GAME)
            return False
        seat = loaded[0].seat_of(user.pk)
        if seat is None:
            # Others see a rated game only as its replay, once it is over.
            await self.close(code=CLOSE_NOT_A_PLAYER)
            return False
        self.seat = seat
        self.user = user
        self.is_owner = True
        self.human_seat = seat
        self.stats_seat = seat
        return True

    async def joined(self) -> None:
        self.present_held = True
        await self._presence(+1)
        # The turn clock's wake-up for the turn now running (the first one has no move
        # before it to set it; after a restart, none is set in this process).
        found = play.cached(self.game_id, 0)
        if found is not None:
            clock.wake_at_deadline(*found)
        self.ticker = asyncio.get_running_loop().create_task(self.tick())

    async def _presence(self, delta: int) -> None:
        key = _present_key(self.game_id, self.seat or 0)
        cache.add(key, 0, timeout=24 * 3600)
        try:
            count = cache.incr(key, delta)
        except ValueError:
            count = max(0, delta)
        if delta > 0 and count == 1 or delta < 0 and count <= 0:
            await database_sync_to_async(services.set_present)(
                self.game_id, self.seat or 0, delta > 0
            )

    async def tick(self) -> None:
        while True:
            await asyncio.sleep(1)
            try:
                happened = await database_sync_to_async(services.tick)(self.game_id)
            except Exception:
                play.log.exception("rated clock tick failed in game %s", self.game_id)
                continue
            if happened is not None:
                await play.broadcast(self.game_id, -1)

    async def cleanup(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.ticker
        if self.present_held:
            self.present_held = False
            with contextlib.suppress(Exception):
                await self._presence(-1)
        await super().cleanup()

    async def handle(self, text_data: str | None, bytes_data: bytes | None) -> None:
        content = limits.parse_message(
            text_data,
            bytes_data,
            max_bytes=settings.PLAY_MAX_MESSAGE_BYTES,
            max_depth=settings.PLAY_MAX_MESSAGE_DEPTH,
        )
        if content.get("action") == "client":
            await self.client_report(content)
            return
        if content.get("action") == "say":
            await self.say(content)
            return
        if content.get("action") == "resign":
            done = await database_sync_to_async(services.resign)(self.game_id, self.user)
            if done:
                await play.broadcast(self.game_id, -1)
            else:
                await self.send_error("game_over")
            return
        if content.get("action") == "next":
            await self.send_error("unknown_action")  # one round: there is no next
            return
        parsed = self.parse_action(content)
        if isinstance(parsed, str):
            await self.send_error(parsed)
            return
        action, version = parsed
        if not await database_sync_to_async(services.playing)(self.game_id):
            await self.send_error("game_over")
            return
        # The practice game's path: engine, compare-and-swap, broadcast, and the turn
        # clock's wake-up (the computer plays this seat if its time runs out).
        outcome = await play.submit(
            self.game_id, action, by_computer=False, expected_version=version
        )
        if not outcome.accepted:
            await self.send_error(outcome.reason)

    def speaker(self) -> int | None:
        return self.seat  # both pages are players' (admit): each says for its own seat

    async def game_rebound(self, event: dict[str, Any]) -> None:
        return  # rated games have no resume link

    async def send_table(self, version: int | None = None) -> None:
        rendered = await database_sync_to_async(rendering.render_rated)(
            self.game_id, self.lang, self.seat or 0, self.sent
        )
        if rendered is not None:
            html, self.sent = rendered
            await self.send(text_data=html)
