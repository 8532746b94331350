"""The play page's WebSocket: ``ws/play/<lang>/<game id>/``.

Messages from the page are JSON objects (htmx's ``ws-send`` of a form): ``action`` (play,
pass, give, next), ``cards`` (codes separated by spaces), ``shape`` (group or sequence,
for cards that read both ways; not called "form", which would shadow ``HTMLFormElement.form``
in the browser), and ``v`` (the table version the page showed, so a repeated or late play
is refused instead of applied twice).

Thin, as in the Channels tutorial: it reads a message, turns it into an engine
:class:`~rules_engine.Action` for the human seat, hands it to
:func:`~daifugo_site.play.services.submit`, and renders fragments. Every page of the game
joins the game's group, so an accepted action (committed first) reaches all of them.
"""

from __future__ import annotations

import json
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from rules_engine import Action, CardError, format_cards, parse_cards

from . import services
from .rendering import render_error, render_table

CLOSE_UNKNOWN_LANGUAGE = 4404
CLOSE_NO_GAME = 4004
MAX_MESSAGE_BYTES = 4096
ACTIONS = ("play", "pass", "give", "next")
FORMS = ("", "single", "group", "sequence")


class TokenBucket:
    """Per-connection rate limit: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    lang: str
    game_id: str
    is_owner: bool
    human_seat: int

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.lang = kwargs["lang"]
        self.game_id = kwargs["game_id"]
        await self.accept()
        if self.lang not in dict(settings.LANGUAGES):
            await self.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
        game = await database_sync_to_async(services.get_game)(self.game_id)
        if game is None:
            await self.close(code=CLOSE_NO_GAME)
            return
        session = self.scope.get("session")
        token = session.get(services.PLAYER_TOKEN_KEY) if session is not None else None
        self.is_owner = bool(token) and token == game.owner
        self.human_seat = game.human_seat
        # What this page shows already (fragment keys): pushes send only what changed.
        self.sent: dict[str, Any] | None = None
        self.bucket = TokenBucket(settings.PLAY_MESSAGES_PER_SECOND, settings.PLAY_MESSAGE_BURST)
        self.last_flood_notice = 0.0
        await self.channel_layer.group_add(services.group_name(self.game_id), self.channel_name)
        # The state may have moved on since the page was rendered: send it whole.
        await self.send_table()
        services.ensure_driver(self.game_id)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "game_id"):
            await self.channel_layer.group_discard(
                services.group_name(self.game_id), self.channel_name
            )

    # -- client -> server ------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            now = time.monotonic()
            if now - self.last_flood_notice > 1:
                self.last_flood_notice = now
                await self.send_error("flood")
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error("malformed")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_error("malformed")
            return
        if not isinstance(content, dict):
            await self.send_error("malformed")
            return
        if not self.is_owner:
            await self.send_error("not_owner")
            return
        parsed = self.parse_action(content)
        if isinstance(parsed, str):
            await self.send_error(parsed)
            return
        action, version = parsed
        outcome = await services.submit(
            self.game_id, action, by_computer=False, expected_version=version
        )
        if not outcome.accepted:
            await self.send_error(outcome.reason)
        # Accepted: the group broadcast brings the new table to this page too.

    def parse_action(self, content: dict[str, Any]) -> tuple[Action, int | None] | str:
        """The action a message asks for, or the reason it cannot be read."""
        kind = content.get("action")
        if kind not in ACTIONS:
            return "unknown_action"
        version: int | None = None
        raw_version = content.get("v")
        if raw_version not in (None, ""):
            try:
                version = int(raw_version)
            except (TypeError, ValueError):
                return "malformed"
        if kind == "next":
            return Action.next_round(), version
        if kind == "pass":
            return Action.pass_(self.human_seat), version
        cards = content.get("cards")
        if not isinstance(cards, str) or not cards.strip():
            return "not_a_combination" if kind == "play" else "bad_exchange"
        try:
            text = format_cards(parse_cards(cards))
        except CardError:
            return "unknown_card"
        if kind == "give":
            return Action("give", self.human_seat, text), version
        form = content.get("shape") or ""
        if form not in FORMS:
            return "malformed"
        return Action("play", self.human_seat, text, form or None), version

    # -- server -> client ------------------------------------------------------------------

    async def game_update(self, event: dict[str, Any]) -> None:
        await self.send_table(event.get("version"))

    async def send_table(self, version: int | None = None) -> None:
        # Usually the state is in this process's cache: render right here (a millisecond
        # of templates) rather than queue behind the database thread.
        rendered = render_table(
            self.game_id, self.lang, self.is_owner, version, self.sent, cache_only=True
        )
        if rendered is None:
            rendered = await database_sync_to_async(render_table)(
                self.game_id, self.lang, self.is_owner, version, self.sent
            )
        if rendered is not None:
            html, self.sent = rendered
            await self.send(text_data=html)

    async def send_error(self, reason: str | None) -> None:
        await self.send(text_data=render_error(reason, self.lang))
