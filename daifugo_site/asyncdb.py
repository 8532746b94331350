"""Database calls from async code (consumers, computer drivers).

Channels' ``database_sync_to_async`` runs every call of a process in one thread
(``thread_sensitive``). With SQLite that is right: its writers exclude each other anyway.
With PostgreSQL it made that one thread the bottleneck of a whole worker: in the play bench
(100 games, 2 web workers, Redis + PostgreSQL) every move of 50 games queued behind the
others' round trips to the server, and a human move took 470 ms to come back while the
worker's CPU was half idle. So with PostgreSQL the calls run in a small pool of threads,
each taking a connection from the process's psycopg pool (settings/_env.py); the pool's
size bounds them, and the game writes stay correct because each is a compare-and-swap.

One statement sent from the event loop itself (:func:`execute`, PostgreSQL only)
    A move is one UPDATE (play/models.py ``write_move``). Sent through a database thread,
    most of its cost to the worker was the hop (the executor, asgiref's context copied
    there and back, the GIL handed over twice), not the statement. So a move whose state
    is already in the process goes out on a small :class:`psycopg_pool.AsyncConnectionPool`
    of the event loop's own (``DB_LOOP_CONNECTIONS``, in autocommit: a single statement is
    its own transaction), with the same timeouts as the threads' pool. A microbenchmark on
    a real PostgreSQL (the same UPDATE, 20 concurrent callers): 0.45 ms of the worker's CPU
    a call through the thread, 0.25 ms on the loop (issue 43).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

_EXECUTOR: ThreadPoolExecutor | None = None
_LOCK = threading.Lock()


def concurrent() -> bool:
    """Whether calls may overlap: a server database and more than one thread allowed."""
    return connections["default"].vendor == "postgresql" and settings.DB_ASYNC_THREADS > 1


def _executor() -> ThreadPoolExecutor:
    global _EXECUTOR
    with _LOCK:
        if _EXECUTOR is None:
            _EXECUTOR = ThreadPoolExecutor(
                max_workers=settings.DB_ASYNC_THREADS, thread_name_prefix="db"
            )
        return _EXECUTOR


async def call(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``func(*args, **kwargs)`` off the event loop, its connection closed (returned to
    the pool) afterwards, as ``database_sync_to_async`` does."""
    if concurrent():
        runner = DatabaseSyncToAsync(func, thread_sensitive=False, executor=_executor())
    else:
        runner = DatabaseSyncToAsync(func)
    try:
        result: R = await runner(*args, **kwargs)
    except Exception as exc:
        from daifugo_site import outage

        outage.is_outage(exc)  # marks the pool's connections suspect after an outage
        raise
    return result


# -- one statement from the event loop (PostgreSQL) -----------------------------------------

# One pool per event loop (psycopg's async connections belong to the loop that opened
# them), with the count of outages seen when it was opened: a worker has one loop; tests
# that start many are bounded like the Redis clients.
_LOOP_POOLS: dict[int, tuple[Any, int]] = {}
_MAX_LOOP_POOLS = 8
_CLOSING: set[asyncio.Task[Any]] = set()


def on_loop() -> bool:
    """Whether :func:`execute` may be used: PostgreSQL, loop connections allowed, and no
    outage seen lately (then the threads' pool, which checks its connections, serves)."""
    from daifugo_site import dbcheck

    return (
        settings.DB_LOOP_CONNECTIONS > 0
        and connections["default"].vendor == "postgresql"
        and not dbcheck.suspected_recently()
    )


def loop_connection_params() -> dict[str, Any]:
    """The threads' connection settings (Django's, so the same server, role and
    ``statement_timeout``), for an async connection in autocommit. Prepared statements
    are left to psycopg's default unless the settings name a threshold: a move's UPDATE
    is the same text every time, so the server plans it once per connection."""
    params = dict(connections["default"].get_connection_params())
    for key in ("cursor_factory", "context"):
        params.pop(key, None)
    if "prepare_threshold" not in connections["default"].settings_dict["OPTIONS"]:
        params.pop("prepare_threshold", None)
    params["autocommit"] = True
    return params


async def _loop_pool() -> Any:
    from psycopg_pool import AsyncConnectionPool

    from daifugo_site import dbcheck

    key = id(asyncio.get_running_loop())
    found = _LOOP_POOLS.get(key)
    if found is not None and found[1] == dbcheck.outages():
        return found[0]
    if found is not None:
        # Opened before the last outage: its idle connections may be dead, and its
        # reconnection backoff long. A new pool starts afresh.
        _close_later(found[0])
    if len(_LOOP_POOLS) >= _MAX_LOOP_POOLS:  # loops of finished tests: bounded
        _LOOP_POOLS.clear()
    pool = AsyncConnectionPool(
        kwargs=loop_connection_params(),
        min_size=1,
        max_size=settings.DB_LOOP_CONNECTIONS,
        # Below daphne's 5 s handshake, as the threads' pool (settings/_env.py): a move
        # that cannot get a connection is reported, not left waiting.
        timeout=settings.DB_LOOP_TIMEOUT_S,
        name="loop",
        open=False,
    )
    _LOOP_POOLS[key] = (pool, dbcheck.outages())
    await pool.open(wait=False)
    return pool


def _close_later(pool: Any) -> None:
    task = asyncio.get_running_loop().create_task(pool.close(timeout=1.0))
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)


async def execute(sql: str, params: Sequence[Any]) -> int:
    """Run one statement on the event loop's own connection; its row count.

    Errors are the threads' ones (psycopg's), so :func:`daifugo_site.outage.is_outage`
    reads them the same, and marks the outage: the next statements take the threads' way
    for a while, and this pool is replaced (daifugo_site/dbcheck.py)."""
    pool = await _loop_pool()
    try:
        async with pool.connection() as conn:
            cursor = await conn.execute(sql, params)
            return int(cursor.rowcount)
    except Exception as exc:
        from daifugo_site import outage

        outage.is_outage(exc)
        raise
