"""The review's progress, pushed: ``ws/review/<lang>/<game>/``.

The review page opens this socket while its review runs. Whoever runs the job (the web
process itself, or a computer worker: the channel layer reaches every process) sends
``review.progress`` to the review's group after each decision it stores, with the figures
in the message, so a push costs no database work here. The socket sends the progress
fragment (``#review``, swapped out of band by htmx's ``ws`` extension); the last one
tells the page to fetch the finished review over HTTP, which stays small on the socket
(a finished review is far bigger than any frame the site sends).

Only the player of the reviewed seat gets in (:func:`.sources.for_viewer`); the socket
reads nothing from the client (anything sent is dropped uncounted: it triggers no work).
The page still polls slowly: that poll restarts a job whose process died.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from daifugo_site import asyncdb, limits

from . import sources
from .models import Review

CLOSE_UNKNOWN_LANGUAGE = 4404
CLOSE_NOT_YOURS = 4403


def group_name(review_id: int) -> str:
    return f"review-{review_id}"


@dataclass(frozen=True)
class Progress:
    """What the progress fragment needs (a pushed message's figures)."""

    pk: int
    done: int
    total: int
    status: str

    @property
    def percent(self) -> int:
        if self.status == Review.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0


def progress_message(done: int, total: int, status: str) -> dict[str, Any]:
    return {"type": "review.progress", "done": done, "total": total, "status": status}


def _find(game_id: str, session: Any, user: Any) -> tuple[Any, Progress] | None:
    source = sources.for_viewer(game_id, session, user)
    if source is None:
        return None
    review = Review.objects.filter(game=source.game, seat=source.seat).first()
    if review is None:
        return None
    return source.game, Progress(review.pk, review.done, review.total, review.status)


class ReviewProgressConsumer(limits.GuardedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    lang: str
    in_group: str | None = None
    game: Any = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.lang = kwargs["lang"]
        game_id = kwargs["game_id"]
        await self.accept()
        if self.lang not in dict(settings.LANGUAGES):
            await self.close(code=CLOSE_UNKNOWN_LANGUAGE)
            return
        refusal = self.hold_sockets()
        if refusal is not None:
            await self.close(code=limits.CLOSE_TOO_MANY)
            return
        found = None
        if len(game_id) <= 32:
            found = await asyncdb.call(
                _find, game_id, self.scope.get("session") or {}, self.scope.get("user")
            )
        if found is None:
            await self.close(code=CLOSE_NOT_YOURS)
            return
        self.game, progress = found
        name = group_name(progress.pk)
        self.in_group = name
        await self.channel_layer.group_add(name, self.channel_name)
        # The job may have moved on since the page was rendered.
        await self.send_progress(progress)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # nothing is read from the client

    async def cleanup(self) -> None:
        if self.in_group is not None:
            name, self.in_group = self.in_group, None
            await self.channel_layer.group_discard(name, self.channel_name)

    async def review_progress(self, event: dict[str, Any]) -> None:
        assert self.in_group is not None
        pk = int(self.in_group.rsplit("-", 1)[1])
        await self.send_progress(
            Progress(pk, int(event["done"]), int(event["total"]), str(event["status"]))
        )

    async def send_progress(self, progress: Progress) -> None:
        with translation.override(self.lang):
            html = render_to_string(
                "review/_progress.html",
                {"review": progress, "game": self.game, "view": None, "pushed": True},
            )
        await self.send(text_data=html)
