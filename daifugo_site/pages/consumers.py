"""A WebSocket health check: ``ws/ping/<lang>/`` answers every message with a pong.

It proves the whole chain (daphne, origin check, auth middleware, routing, translations)
works, and shows the pattern feature consumers follow: the language comes from the URL and
replies are rendered under ``translation.override``; messages are read by
:func:`daifugo_site.limits.parse_message` (bounded size and depth, before any work), rate
limited per connection, and every socket goes through :class:`~daifugo_site.limits.GuardedSocket`
(per-address count, cleanup that always runs, slow readers dropped).

A message is a JSON object; its ``data`` (if any) is echoed. Anything else is answered
``{"type": "error", "reason": "malformed" | "too_large" | "flood", "message": ...}``, and a
flood is answered at most once a second: dropped messages cost nothing but the count.
"""

from __future__ import annotations

import json
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from daifugo_site import limits

# Close code for an unsupported language in the URL (4000-4999 are the application's).
CLOSE_UNKNOWN_LANGUAGE = 4404


class PingConsumer(limits.GuardedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    lang: str

    async def connect(self) -> None:
        lang = self.scope["url_route"]["kwargs"]["lang"]
        # Accept first so the client sees our close code, not a generic handshake error.
        await self.accept()
        if lang not in dict(settings.LANGUAGES):
            await self.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
        self.lang = lang
        refusal = self.hold_sockets()
        if refusal is not None:
            await self.send_error(refusal)
            await self.close(code=limits.CLOSE_TOO_MANY)
            return
        self.bucket = limits.TokenBucket(
            settings.PING_MESSAGES_PER_SECOND, settings.PING_MESSAGE_BURST
        )
        self.last_flood_notice = 0.0

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not hasattr(self, "bucket"):
            return  # closing: connect() refused this socket
        if not self.bucket.take():
            now = time.monotonic()
            if now - self.last_flood_notice > 1:
                self.last_flood_notice = now
                await self.send_error("flood")
            return
        try:
            content = limits.parse_message(
                text_data, bytes_data, max_bytes=settings.PING_MAX_MESSAGE_BYTES
            )
        except limits.Malformed as refused:
            await self.send_error(refused.reason)
            return
        with translation.override(self.lang):
            message = gettext("The connection is working.")
        data = content.get("data")
        await self.send_json(
            {
                "type": "pong",
                "lang": self.lang,
                "message": message,
                # Echo what the client sent, so a client can match replies to requests.
                "echo": data,
            }
        )

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, ensure_ascii=False))

    async def send_error(self, reason: str) -> None:
        with translation.override(getattr(self, "lang", None) or settings.LANGUAGE_CODE):
            text = limits.message(reason)
        await self.send_json({"type": "error", "reason": reason, "message": text})
