"""Database calls from async code (consumers, computer drivers).

Channels' ``database_sync_to_async`` runs every call of a process in one thread
(``thread_sensitive``). With SQLite that is right: its writers exclude each other anyway.
With PostgreSQL it made that one thread the bottleneck of a whole worker: in the play bench
(100 games, 2 web workers, Redis + PostgreSQL) every move of 50 games queued behind the
others' round trips to the server, and a human move took 470 ms to come back while the
worker's CPU was half idle. So with PostgreSQL the calls run in a small pool of threads,
each taking a connection from the process's psycopg pool (settings/_env.py); the pool's
size bounds them, and the game writes stay correct because each is a compare-and-swap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

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
