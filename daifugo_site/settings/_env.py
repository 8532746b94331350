"""Reading deployment choices from environment variables.

Kept apart from the settings modules so the parsing is plain functions that tests call
directly, and so settings files stay declarative.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated environment variable as a list, blanks dropped."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def sqlite_database(path: Path) -> dict[str, Any]:
    """SQLite tuned for a busy single server: write-ahead log (readers never wait for the
    writer), ``synchronous=NORMAL`` (durable at checkpoints, no fsync per commit: a power
    cut may lose the last moments, never corrupt), and IMMEDIATE transactions so two
    writers queue instead of failing with "database is locked"."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
        # Keep each thread's connection: opening one (and running the PRAGMAs) costs more
        # than most queries here, and SQLite connections are cheap to hold.
        "CONN_MAX_AGE": None,
    }


def database_from_url(url: str) -> dict[str, Any]:
    """Django DATABASES["default"] from a DATABASE_URL.

    Supports ``postgres://`` / ``postgresql://`` (psycopg 3, from the ``prod`` extra) and
    ``sqlite:///relative.db`` / ``sqlite:////absolute/path.db``. Parsed here rather than with
    a library: the two schemes the project uses fit in a few lines and need no dependency.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///name.db -> path "/name.db" -> "name.db"; sqlite:////abs -> "//abs" -> "/abs"
        path = unquote(parts.path[1:]) if parts.path.startswith("/") else unquote(parts.path)
        if not path:
            raise ValueError("DATABASE_URL sqlite:/// needs a file path")
        return sqlite_database(Path(path))
    if scheme in {"postgres", "postgresql", "pgsql"}:
        options: dict[str, Any] = dict(parse_qsl(parts.query))
        # A pool per process (psycopg_pool, Django 5.1+): opening a PostgreSQL connection
        # per query cost more than the query, and 200 pages connecting at once then missed
        # daphne's 5 s handshake timeout (measured with the play bench). Under ASGI this
        # is the way to reuse connections (persistent ones would be per thread).
        # The pool's wait is below daphne's 5 s WebSocket handshake timeout: a socket whose
        # connect waits for a connection that will not come (PostgreSQL away) is still
        # answered with the site's own error frame (daifugo_site/outage.py, issue 43).
        options.setdefault("pool", {"min_size": 2, "max_size": 8, "timeout": 4})
        # Bounded statements (issue 43): a query PostgreSQL is slow to answer is cancelled
        # and reported to the page (outage.py) instead of holding a connection and a
        # thread. DB_STATEMENT_TIMEOUT_MS=0 turns it off (e.g. a long data migration).
        timeout_ms = int(os.environ.get("DB_STATEMENT_TIMEOUT_MS", "5000"))
        if timeout_ms > 0:
            options.setdefault("options", f"-c statement_timeout={timeout_ms}")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(parts.port or ""),
            "OPTIONS": options,
            # Under ASGI each request may run in a different thread: persistent
            # connections would pile up, one per thread, so close them per request.
            "CONN_MAX_AGE": 0,
        }
    raise ValueError(f"Unsupported DATABASE_URL scheme {parts.scheme!r}: use postgres or sqlite")


def channel_layers(redis_url: str | None) -> dict[str, Any]:
    """CHANNEL_LAYERS: Redis when REDIS_URL is set, else in-process memory; ``default`` for
    pages, ``tasks`` for work queues (:data:`daifugo_site.play.computers.TASKS`).

    The in-memory layer only reaches consumers in the same process: fine for one daphne,
    wrong for several workers, which is what REDIS_URL is for.
    """
    if redis_url:
        # redis-py 6+ times reads out after 5 s by default, exactly the 5 s channels-redis
        # blocks in BZPOPMIN waiting for a message: an idle worker then died with "Timeout
        # reading". Reads may block longer than that.
        hosts = [{"address": redis_url, "socket_timeout": 30}]
        return {
            # Pages (consumers, groups): pub/sub, one PUBLISH per group send
            # (daifugo_site/channel_layers.py says why).
            "default": {
                "BACKEND": "daifugo_site.channel_layers.BoundedPubSubChannelLayer",
                "CONFIG": {"hosts": hosts},
            },
            # Work queues: each message to exactly one of the workers listening (the
            # computer workers' "computers" channel), kept while none is listening.
            "tasks": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": hosts},
            },
        }
    memory = {"BACKEND": "daifugo_site.channel_layers.SweepingInMemoryChannelLayer"}
    return {"default": memory, "tasks": dict(memory)}


def admin_path(env_value: str | None, secret_key: str, *, derive: bool) -> str:
    """``"admin/"``-style prefix: the variable's value (slashes normalised), else a path
    derived from the secret key when ``derive`` (production), else ``admin/``.

    >>> admin_path("/staff-door", "k", derive=True)
    'staff-door/'
    >>> admin_path(None, "k", derive=False)
    'admin/'
    >>> admin_path("", "secret", derive=True) == admin_path(None, "secret", derive=True)
    True
    >>> admin_path(None, "secret", derive=True).startswith("manage-")
    True
    """
    value = (env_value or "").strip().strip("/")
    if value:
        return f"{value}/"
    if not derive:
        return "admin/"
    digest = hmac.new(secret_key.encode(), b"daifugo admin path", hashlib.sha256).hexdigest()
    return f"manage-{digest[:16]}/"
