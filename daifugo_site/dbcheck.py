"""Dead connections out of the psycopg pool once an outage is seen (issue 43).

After PostgreSQL restarts, every idle connection in a process's pool is dead, and each
would fail one request before the pool drops it. Django's ``CONN_HEALTH_CHECKS`` would
check every connection before lending it: a round trip per database call, always. Instead,
when a call fails for want of the database (daifugo_site/outage.py), the pool checks its
idle connections once (``ConnectionPool.check``, in a thread of its own, at most every
:data:`EVERY_S`): the dead ones are dropped and the pool opens new ones when it can.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)

EVERY_S = 1.0
_last = 0.0
_lock = threading.Lock()


def suspect() -> None:
    """Have this process's pool drop its dead connections (soon, off the caller's thread)."""
    global _last
    with _lock:
        now = time.monotonic()
        if now - _last < EVERY_S:
            return
        _last = now
    threading.Thread(target=_check, name="db-check", daemon=True).start()


def _check() -> None:
    from django.db import connections

    try:
        pool = getattr(connections["default"], "pool", None)
        if pool is not None:
            pool.check()
    except Exception as exc:  # noqa: BLE001 - the next failure asks again
        log.warning("could not check the database pool (%r)", exc)
