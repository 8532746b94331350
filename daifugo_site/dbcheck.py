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
#: For this long after an outage was last seen, moves take the database threads' way, not
#: the event loop's (daifugo_site/asyncdb.py), whose pool is then replaced by a new one:
#: psycopg's pool retries a lost server with a backoff that doubles without a bound, so
#: after a long outage its next attempt could be minutes away.
SUSPECT_WINDOW_S = 30.0
_last = 0.0
_suspected = -SUSPECT_WINDOW_S
_outages = 0
_lock = threading.Lock()


def suspected_recently() -> bool:
    """Whether an outage was seen in the last :data:`SUSPECT_WINDOW_S` seconds."""
    return time.monotonic() - _suspected < SUSPECT_WINDOW_S


def outages() -> int:
    """How many times an outage was seen in this process: a pool opened before the last
    one may hold dead connections."""
    return _outages


def suspect() -> None:
    """Have this process's pool drop its dead connections (soon, off the caller's thread)."""
    global _last, _suspected, _outages
    with _lock:
        now = time.monotonic()
        _suspected = now
        _outages += 1
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
