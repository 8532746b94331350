"""When PostgreSQL does not answer (issue 43): the site's own translated answer, never a
traceback or Django's bare 500 page.

- HTTP: :func:`server_error` is the project's ``handler500``. Django calls it for any
  exception no view handled, including one raised in a middleware (the session read fails
  first while the database is away); for a database outage it answers a styled,
  translated 503 page (``templates/503.html``, standalone: nothing on it reads the
  database) with ``Retry-After``, otherwise Django's own 500 page as before.
- WebSockets: :class:`SocketOutage` wraps the socket application. A database error that
  escapes a consumer (or Channels' session and user middleware, which read the database
  before any consumer runs) becomes the page's error frame in its language, then a close
  with :data:`CLOSE_UNAVAILABLE`; the page's socket reconnects as htmx's extension does.
  Consumers that catch their own errors use :func:`is_outage` to say the same thing.

The pools recover by themselves: psycopg's pool checks a connection before lending it
(Django's pool options) and opens new ones when the server is back.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils import translation
from django.views import defaults

log = logging.getLogger(__name__)

#: Close code of a socket whose request the database could not serve (try again later).
CLOSE_UNAVAILABLE = 4503
#: The reason code pages show (daifugo_site/ui/reasons.py has its sentence).
REASON = "unavailable"
#: Seconds a browser is told to wait before retrying a page.
RETRY_AFTER_S = 5


def is_outage(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says the database could not be reached or did
    not answer in time: connection errors, a pool that lent nothing in time, a statement
    cancelled by ``statement_timeout``."""
    found = _is_outage(exc)
    if found:
        from daifugo_site import dbcheck

        dbcheck.suspect()  # the pool checks what it lends for a while (dead connections)
    return found


def _is_outage(exc: BaseException | None) -> bool:
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, OperationalError | InterfaceError):
            return True
        try:
            import psycopg
            import psycopg_pool
        except ImportError:
            pass
        else:
            if isinstance(exc, psycopg.OperationalError | psycopg_pool.PoolTimeout):
                return True
            if isinstance(exc, psycopg.errors.QueryCanceled):
                return True
        if isinstance(exc, DatabaseError) and "statement timeout" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _language(path: str) -> str:
    return translation.get_language_from_path(path) or translation.get_language() or "zh-hans"


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a 503 page in the page's language for a database outage."""
    if not is_outage(sys.exc_info()[1]):
        return defaults.server_error(request)
    with translation.override(_language(request.path_info)):
        body = loader.render_to_string("503.html", {"LANGUAGE_CODE": translation.get_language()})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


def error_frame(path: str) -> str:
    """The error region's fragment, in the language the socket's URL names."""
    from daifugo_site.play.rendering import render_error

    parts = path.strip("/").split("/")
    lang = parts[2] if len(parts) > 2 else ""
    from django.conf import settings

    if lang not in dict(settings.LANGUAGES):
        lang = settings.LANGUAGE_CODE
    return render_error(REASON, lang)


class SocketOutage:
    """ASGI middleware for sockets: a database outage ends the socket with the site's own
    translated error frame (accepting it first when the handshake had not been answered)
    instead of daphne's traceback and a bare 1011 or handshake failure."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        state = {"accepted": False, "closed": False}

        async def tracked(message: dict[str, Any]) -> None:
            kind = message.get("type")
            if kind == "websocket.accept":
                state["accepted"] = True
            elif kind == "websocket.close":
                state["closed"] = True
            await send(message)

        try:
            await self.inner(scope, receive, tracked)
        except Exception as exc:
            if scope.get("type") != "websocket" or not is_outage(exc) or state["closed"]:
                raise
            log.warning("socket %s ended: database unavailable (%r)", scope.get("path"), exc)
            try:
                if not state["accepted"]:
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": error_frame(scope.get("path", ""))})
                await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
            except Exception:  # noqa: BLE001 - the client left already: nothing to tell
                pass
