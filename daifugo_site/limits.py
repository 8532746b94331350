"""What one client may use: message size, depth and rate, games created, open sockets.

Every limit is a setting (``LIMIT_*`` and ``PLAY_*`` in settings/base.py) with a default a
real player never meets, and every refusal has a translated sentence (:data:`MESSAGES`).

Counters shared between processes live in the Django cache named by ``LIMITS_CACHE``: a
bounded local-memory cache by default (one process), Redis when ``REDIS_URL`` is set, so
several workers count together. Two kinds:

- *windows* (games created per minute): a counter per fixed window that expires soon
  after it, two of them giving a sliding-window estimate;
- *gauges* (open sockets per address, viewers per game): incremented on connect and
  decremented on disconnect. A gauge key expires ``LIMIT_GAUGE_TTL_S`` after the last
  socket it counted was opened, so a count leaked by a killed process is forgotten then
  instead of locking an address out for good. After such an expiry a gauge may undercount
  the sockets still open: a limit that is briefly lenient is the safe side of this trade.

Messages from sockets are parsed by :func:`parse_message`: the size and nesting depth are
checked before the JSON parser runs, and everything a parser can raise is caught here.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from channels.consumer import get_handler_name
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: Sentences for the refusals of this module (reason code -> text), used by every consumer
#: and form; the play page shows them in its error region (role=alert).
#: (``malformed``, ``flood`` and the engine's reasons are in daifugo_site/ui/reasons.py.)
MESSAGES: dict[str, str | Promise] = {
    "too_large": _("That message is too long."),
    "version_required": _(
        "That action did not say which state of the table it answers, so it was not applied. "
        "Reload the page and try again."
    ),
    "viewers_full": _("This game already has as many viewers as it can take. Try again later."),
    "too_many_sockets": _(
        "Too many pages of this site are open from your network. Close some and reload."
    ),
    "too_many_pages": _(
        "This browser has too many pages of this site open. Close some and reload."
    ),
    "games_per_minute": _(
        "You have started many games in the last minute. Wait a moment, then try again."
    ),
    "unfinished_games": _(
        "You already have the most unfinished games allowed (%(count)d). Finish one of them "
        "first; a game nobody has played for %(minutes)d minutes no longer counts."
    ),
}

#: Close codes (4000-4999 belong to the application).
CLOSE_TOO_MANY = 4429
CLOSE_SLOW_READER = 4408


def message(reason: str | None, **params: Any) -> str:
    """The sentence for a refusal: this module's, else the shared reasons' (translated in
    the active language)."""
    from daifugo_site.ui.reasons import reason_text

    if reason in MESSAGES:
        text = str(MESSAGES[reason])
        return text % params if params else text
    return reason_text(reason)


# -- counters in the shared cache ---------------------------------------------------------


def _cache() -> BaseCache:
    return caches[getattr(settings, "LIMITS_CACHE", "default")]


def _key(*parts: object) -> str:
    # Cache keys must be short ASCII without spaces (memcached's rule, kept for portability).
    return "limit:" + ":".join(str(p).replace(" ", "_")[:80] for p in parts)


def _incr(key: str, timeout: float) -> int:
    cache = _cache()
    for _attempt in range(3):
        cache.add(key, 0, timeout=timeout)
        try:
            return int(cache.incr(key))
        except ValueError:
            # Expired (or culled) between add and incr: create it again.
            continue
    return 1


def take_window(name: str, ident: str, limit: int, seconds: int = 60) -> bool:
    """Count one event for ``ident``; False when it would make more than ``limit`` events
    in the last ``seconds``. A refused event is not counted: the window holds what was
    allowed, so a client (or a NAT shared with one) is free again ``seconds`` after its
    last allowed event, however long the hammering went on after it.

    A sliding window, estimated from two fixed ones (the current window's count plus the
    previous one's, weighted by how much of it is still inside the last ``seconds``), so a
    burst across a window boundary cannot get twice the limit through."""
    now = time.time()
    window, into = divmod(now, seconds)
    key = _key("w", name, ident, int(window))
    current = _incr(key, 2 * seconds + 1)
    previous = int(_cache().get(_key("w", name, ident, int(window) - 1), 0))
    if current + previous * (1 - into / seconds) <= limit:
        return True
    try:
        _cache().decr(key)  # refused: given back
    except ValueError:
        pass  # expired meanwhile
    return False


def acquire(name: str, ident: str, limit: int) -> bool:
    """Take one unit of the gauge ``name`` for ``ident``; False (nothing taken) when the
    gauge is at ``limit``. Every True must be paired with one :func:`release`."""
    key = _key("g", name, ident)
    if _incr(key, settings.LIMIT_GAUGE_TTL_S) > limit:
        release(name, ident)
        return False
    # The expiry counts from the last socket opened: a busy gauge is not forgotten while
    # in use, a leaked one is forgotten LIMIT_GAUGE_TTL_S after its last use.
    _cache().touch(key, settings.LIMIT_GAUGE_TTL_S)
    return True


def release(name: str, ident: str) -> None:
    key = _key("g", name, ident)
    cache = _cache()
    try:
        if cache.decr(key) < 0:
            cache.delete(key)
    except ValueError:
        pass  # expired meanwhile: nothing to give back


def gauge(name: str, ident: str) -> int:
    return int(_cache().get(_key("g", name, ident), 0))


# -- per connection -----------------------------------------------------------------------


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


class Malformed(Exception):
    """A message that cannot be read; ``reason`` is ``malformed`` or ``too_large``."""

    def __init__(self, reason: str = "malformed") -> None:
        super().__init__(reason)
        self.reason = reason


def _depth_exceeds(text: str, max_depth: int) -> bool:
    """Whether JSON ``text`` nests arrays/objects deeper than ``max_depth`` (strings, with
    their escapes, skipped). Linear, and run only on text already bounded in size."""
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif ch in "]}":
            depth -= 1
    return False


#: For other JSON inputs bounded the same way (the rules checker's table state).
depth_exceeds = _depth_exceeds


def _no_constant(name: str) -> Any:
    # NaN, Infinity and -Infinity are not JSON; Python's parser accepts them by default.
    raise Malformed()


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999
        raise Malformed()
    return value


def _bounded_int(text: str) -> int:
    # Python refuses more than 4300 digits anyway; a version or count never needs 19.
    if len(text.lstrip("-")) > 18:
        raise Malformed()
    return int(text)


def parse_message(
    text_data: str | None, bytes_data: bytes | None, *, max_bytes: int, max_depth: int = 4
) -> dict[str, Any]:
    """The JSON object a WebSocket message holds, or :class:`Malformed`.

    Checks the size (in UTF-8 bytes) and the nesting depth before parsing; refuses binary
    frames, non-objects, NaN/Infinity, non-finite floats and huge integers; turns whatever
    else the parser raises into :class:`Malformed`.

    >>> parse_message('{"action": "pass", "v": 3}', None, max_bytes=100)
    {'action': 'pass', 'v': 3}
    >>> parse_message('{"v": Infinity}', None, max_bytes=100)
    Traceback (most recent call last):
    ...
    daifugo_site.limits.Malformed: malformed
    """
    if text_data is None:
        raise Malformed()
    # Characters first (cheap); a character is at most 4 bytes in UTF-8.
    if len(text_data) > max_bytes or len(text_data.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Malformed("too_large")
    if _depth_exceeds(text_data, max_depth):
        raise Malformed()
    try:
        content = json.loads(
            text_data,
            parse_constant=_no_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
        )
    except Malformed:
        raise
    except (ValueError, TypeError, OverflowError, RecursionError, MemoryError):
        raise Malformed() from None
    if not isinstance(content, dict):
        raise Malformed()
    return content


def version_of(content: dict[str, Any]) -> int | None:
    """The table version a message names (``v``: an integer or a string of digits), None
    when it names none; :class:`Malformed` when it is not a small non-negative integer."""
    raw = content.get("v")
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool):
        raise Malformed()
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 9:
        value = int(raw)
    else:
        raise Malformed()
    if not 0 <= value < 10**9:
        raise Malformed()
    return value


# -- per address --------------------------------------------------------------------------


def client_address(scope_or_meta: dict[str, Any]) -> str | None:
    """The client's address from an ASGI scope (``client``) or a request's META
    (``REMOTE_ADDR``); daphne's --proxy-headers puts the proxy's X-Forwarded-For there.
    None when the server does not know it (then no per-address limit applies)."""
    client = scope_or_meta.get("client")
    if client:
        return str(client[0])
    addr = scope_or_meta.get("REMOTE_ADDR")
    return str(addr) if addr else None


# -- slow readers ----------------------------------------------------------------------------


def _buffered_bytes(protocol: Any) -> int:
    """Bytes written to a daphne WebSocket but not yet taken by the kernel: autobahn's send
    queue plus Twisted's write buffer (FileDescriptor.dataBuffer/_tempDataBuffer)."""
    total = 0
    for data, _sync in list(getattr(protocol, "send_queue", ()) or ()):
        total += len(data)
    transport = getattr(protocol, "transport", None)
    if transport is not None:
        total += len(getattr(transport, "dataBuffer", b"")) - int(getattr(transport, "offset", 0))
        total += int(getattr(transport, "_tempDataLen", 0))
    return total


def _abort(protocol: Any) -> None:
    transport = getattr(protocol, "transport", None)
    if transport is not None:
        transport.abortConnection()


def _quiet_after_close(send: Any) -> Any:
    """``send`` that drops a frame for a connection already closed: a push (another
    player's move) can race the page closing, and autobahn then raised ``Disconnected``
    ("Attempt to send on a closed protocol") out of the group handler, logged as an error
    for something normal. Nothing is lost: the page is gone, and it gets the whole table
    when it comes back."""
    try:
        from autobahn.exception import Disconnected
    except ImportError:  # another server: nothing of autobahn's to catch
        return send

    async def guarded(message: dict[str, Any]) -> None:
        try:
            await send(message)
        except Disconnected:
            pass

    return guarded


class SendBacklog:
    """ASGI middleware for daphne's WebSocket: puts ``daifugo.backlog`` (bytes waiting to be
    written to this client) and ``daifugo.abort`` (drop the TCP connection now) in the
    scope, so a consumer can drop a client that does not read instead of queueing frames
    for it without end. Under another server (or the test communicator) the scope gets
    neither and consumers skip the check."""

    def __init__(self, inner: Callable[..., Any]) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        protocol = send.args[0] if isinstance(send, partial) and send.args else None
        if protocol is not None and hasattr(protocol, "transport"):
            scope = dict(
                scope,
                **{
                    "daifugo.backlog": partial(_buffered_bytes, protocol),
                    "daifugo.abort": partial(_abort, protocol),
                },
            )
        return await self.inner(scope, receive, _quiet_after_close(send))


class InboundBound:
    """ASGI middleware for WebSockets: a bounded queue between the server and the consumer.

    daphne puts every frame it reads into the application's queue, which has no bound, and
    a consumer reads them one at a time: a client that sends faster than the consumer
    drops them (its rate limit) grew daphne's memory by the size of everything it sent
    (issue 45: 40,000 frames of 15 KB, 97 -> 769 MB, never given back). Here a task moves
    each frame out of the server's queue as soon as it is there, into a queue of at most
    ``LIMIT_INBOUND_MESSAGES`` frames and ``LIMIT_INBOUND_BYTES`` bytes; a client whose
    frames would go past either is dropped (the TCP connection aborted where the server
    allows it, else closed with 1008) and the consumer hears a disconnect. What one client
    can make a process hold is then bounded whatever it sends. A real page sends a few
    frames a second and never has more than one or two waiting.
    """

    def __init__(self, inner: Callable[..., Any]) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await self.inner(scope, receive, send)
        import asyncio

        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        held = [0]  # bytes of the frames in ``queue``

        async def pump() -> None:
            limit, budget = settings.LIMIT_INBOUND_MESSAGES, settings.LIMIT_INBOUND_BYTES
            while True:
                message = await receive()
                kind = message.get("type")
                if kind == "websocket.receive":
                    size = len(message.get("text") or "") + len(message.get("bytes") or b"")
                    if queue.qsize() >= limit or (queue.qsize() and held[0] + size > budget):
                        await _outran(scope, send)
                        queue.put_nowait({"type": "websocket.disconnect", "code": 1008})
                        # Keep emptying the server's queue (frames already read) until it
                        # says the connection is gone; nothing of it is kept.
                        while (await receive()).get("type") != "websocket.disconnect":
                            pass
                        return
                    held[0] += size
                queue.put_nowait(message)
                if kind == "websocket.disconnect":
                    return

        async def next_message() -> dict[str, Any]:
            message = await queue.get()
            if message.get("type") == "websocket.receive":
                held[0] -= len(message.get("text") or "") + len(message.get("bytes") or b"")
            return message

        task = asyncio.get_running_loop().create_task(pump())
        try:
            return await self.inner(scope, next_message, send)
        finally:
            task.cancel()


async def _outran(scope: dict[str, Any], send: Any) -> None:
    import logging

    logging.getLogger(__name__).warning(
        "websocket client %s dropped: it sent faster than its frames were read",
        client_address(scope),
    )
    if not drop(scope):
        try:
            await send({"type": "websocket.close", "code": 1008})
        except Exception:  # noqa: BLE001 - closing already, or closed: nothing to do
            pass


def backlog_exceeded(scope: dict[str, Any]) -> bool:
    """Whether this client has more unread bytes waiting than ``LIMIT_SEND_BACKLOG_BYTES``."""
    backlog = scope.get("daifugo.backlog")
    return backlog is not None and backlog() > settings.LIMIT_SEND_BACKLOG_BYTES


def drop(scope: dict[str, Any]) -> bool:
    """Abort the client's connection (daphne then delivers the disconnect); False when the
    server gave no way to (the caller closes the socket instead)."""
    abort = scope.get("daifugo.abort")
    if abort is None:
        return False
    abort()
    return True


# -- the guard every consumer shares ----------------------------------------------------------


class GuardedSocket:
    """Mixin for an ``AsyncWebsocketConsumer`` (put it first among the bases): counts the
    socket against its address, runs :meth:`cleanup` exactly once however the consumer ends
    (a normal close, a handler that raised, a cancelled task), and drops a client that does
    not read (see :class:`SendBacklog`) instead of queueing frames for it."""

    scope: dict[str, Any]
    _held_address: str | None = None
    _held_session: str | None = None
    _cleaned = False
    _dropped = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        finally:
            await self._cleanup_once()

    async def _cleanup_once(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        try:
            await self.cleanup()
        finally:
            if self._held_address is not None:
                release("sockets", self._held_address)
                self._held_address = None
            if self._held_session is not None:
                release("sockets-session", self._held_session)
                self._held_session = None

    async def cleanup(self) -> None:
        """Leave groups, give back gauges: whatever connect() took. Runs once."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first runs close_old_connections through sync_to_async,
        # a hop to the one thread that also serves every synchronous view, for *every*
        # message: with 1,000 viewers one push meant 1,000 hops queued ahead of other
        # visitors' pages (measured: most of the server's time). These consumers touch the
        # database only through database_sync_to_async, which closes old connections
        # around each call itself, so the hop is skipped.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        await self._cleanup_once()

    def hold_sockets(self) -> str | None:
        """Count this socket against its address and its browser session: None, or the
        reason it may not open (what was taken is given back by the cleanup)."""
        address = client_address(self.scope)
        if address is not None:
            if not acquire("sockets", address, settings.LIMIT_SOCKETS_PER_IP):
                return "too_many_sockets"
            self._held_address = address
        session = self.scope.get("session")
        key = getattr(session, "session_key", None) if session is not None else None
        if key:
            if not acquire("sockets-session", key, settings.LIMIT_SOCKETS_PER_SESSION):
                return "too_many_pages"
            self._held_session = key
        return None

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if self._dropped:
            return
        if backlog_exceeded(self.scope):
            self._dropped = True
            if not drop(self.scope):
                await super().close(code=CLOSE_SLOW_READER)  # type: ignore[misc]
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)  # type: ignore[misc]
