"""A WebSocket health check: ``ws/ping/<lang>/`` answers every message with a pong.

It proves the whole chain (daphne, origin check, auth middleware, routing, translations)
works, and shows the pattern feature consumers follow: the language comes from the URL and
replies are rendered under ``translation.override``.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

# Close code for an unsupported language in the URL (4000-4999 are the application's).
CLOSE_UNKNOWN_LANGUAGE = 4404


class PingConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    lang: str

    async def connect(self) -> None:
        lang = self.scope["url_route"]["kwargs"]["lang"]
        if lang not in dict(settings.LANGUAGES):
            # Accept first so the client sees our close code, not a generic handshake error.
            await self.accept()
            await self.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
        self.lang = lang
        await self.accept()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        with translation.override(self.lang):
            message = gettext("The connection is working.")
        await self.send_json(
            {
                "type": "pong",
                "lang": self.lang,
                "message": message,
                # Echo what the client sent, so a client can match replies to requests.
                "echo": content.get("data") if isinstance(content, dict) else None,
            }
        )
