"""Database calls from async code: one thread with SQLite, overlapping with PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from daifugo_site import asyncdb


def test_sqlite_keeps_channels_single_database_thread() -> None:
    assert not asyncdb.concurrent()


async def _two_slow_calls() -> tuple[float, set[str]]:
    names: set[str] = set()

    def slow() -> int:
        names.add(threading.current_thread().name)
        time.sleep(0.3)
        return 7

    start = time.perf_counter()
    results = await asyncio.gather(asyncdb.call(slow), asyncdb.call(slow))
    assert results == [7, 7]
    return time.perf_counter() - start, names


@pytest.mark.django_db
def test_calls_run_one_at_a_time_without_a_server_database() -> None:
    took, names = asyncio.run(_two_slow_calls())
    assert took >= 0.55
    assert len(names) == 1


@pytest.mark.django_db
def test_calls_overlap_in_the_bounded_pool_with_a_server_database(monkeypatch) -> None:
    monkeypatch.setattr(asyncdb, "concurrent", lambda: True)
    took, names = asyncio.run(_two_slow_calls())
    assert took < 0.55
    assert len(names) == 2 and all(name.startswith("db") for name in names)
    assert asyncdb._executor()._max_workers == 6


def test_moves_take_the_threads_way_with_sqlite() -> None:
    # The event loop's own connections are PostgreSQL's (asyncdb.execute).
    assert not asyncdb.on_loop()


def test_after_an_outage_moves_take_the_threads_way_for_a_while(monkeypatch) -> None:
    from django.db import connections

    from daifugo_site import dbcheck

    monkeypatch.setattr(connections["default"], "vendor", "postgresql")
    monkeypatch.setattr(dbcheck, "_check", lambda: None)  # no pool to check here
    monkeypatch.setattr(dbcheck, "_suspected", -dbcheck.SUSPECT_WINDOW_S)
    assert asyncdb.on_loop()
    before = dbcheck.outages()
    dbcheck.suspect()
    # Suspected: the threads' pool (which checks its connections) serves, and the loop's
    # pool, opened before this outage, is replaced when the loop's way resumes.
    assert not asyncdb.on_loop()
    assert dbcheck.outages() == before + 1
    monkeypatch.setattr(dbcheck, "_suspected", time.monotonic() - dbcheck.SUSPECT_WINDOW_S - 1)
    assert asyncdb.on_loop()
