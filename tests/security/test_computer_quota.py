"""Issue 11 item 3: one session's computer players cannot starve everyone else's.

The pool is bounded and serves sessions round-robin, one pending computation per game
(:class:`daifugo_site.play.computers.FairPool`). Measured with real searches in a real
pool process: a normal player's computer turn while an attacker has 30, then 100 games'
advanced turns queued (before this change: 0.97 s alone, 2.9 s with 30, 7.7 s with 100).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from daifugo_site.play import thinking
from daifugo_site.play.computers import FairPool
from rules_engine import Round, RuleSet, observe
from rules_engine.ai import Budget

#: The production budget (settings.base): what an attacker's advanced seats would use.
BUDGET = Budget(time_ms=300, playouts=600)


def _observation(seed: int) -> object:
    r = Round.deal(RuleSet.preset("standard"), 6, seed=seed)
    return observe(r, r.to_act)


async def _turn_around(fair: FairPool, attackers: int) -> float:
    """Seconds for the normal player's one computer turn with ``attackers`` queued."""
    attack = [
        asyncio.ensure_future(
            fair.run("attacker", thinking.think, _observation(i), "advanced", f"a{i}", BUDGET)
        )
        for i in range(attackers)
    ]
    await asyncio.sleep(0.05)  # the attacker's work is queued (one is running) first
    started = time.perf_counter()
    await fair.run("player", thinking.think, _observation(999), "advanced", "p", BUDGET)
    elapsed = time.perf_counter() - started
    for task in attack:
        task.cancel()
    await asyncio.gather(*attack, return_exceptions=True)
    while fair.running:  # the attacker's job that was running finishes
        await asyncio.sleep(0.01)
    return elapsed


async def test_a_normal_players_turn_does_not_wait_for_an_attackers_games() -> None:
    fair = FairPool(size=1, per_owner=1)  # the real process pool, one process
    try:
        await fair.run("warm", thinking.think, _observation(1), "beginner", "w", BUDGET)
        alone = await _turn_around(fair, 0)
        with30 = await _turn_around(fair, 30)
        with100 = await _turn_around(fair, 100)
    finally:
        fair.shutdown()
    print(f"turn-around alone {alone:.2f} s, 30 attackers {with30:.2f} s, 100: {with100:.2f} s")
    # At most the attacker's one running search is ahead of the player's.
    assert with30 < 2 * alone + 1.0
    assert with100 < 2 * alone + 1.0


async def test_sessions_are_served_in_turn_and_each_within_its_slots() -> None:
    import threading

    order: list[str] = []
    gate = threading.Event()  # the first jobs wait until everything is queued

    now: dict[str, int] = {}
    most: dict[str, int] = {}
    lock = threading.Lock()

    def job(name: str) -> str:
        with lock:
            order.append(name)
            now[name[0]] = now.get(name[0], 0) + 1
            most[name[0]] = max(most.get(name[0], 0), now[name[0]])
        gate.wait(5)
        time.sleep(0.005)
        with lock:
            now[name[0]] -= 1
        return name

    fair = FairPool(size=2, per_owner=1, executor=lambda: ThreadPoolExecutor(2))
    try:
        jobs = [fair.run("a", job, f"a{i}") for i in range(4)]
        jobs += [fair.run("b", job, f"b{i}") for i in range(2)]
        jobs += [fair.run("c", job, "c0")]
        waiting = asyncio.gather(*jobs)
        await asyncio.sleep(0.1)
        gate.set()
        results = await waiting
    finally:
        fair.shutdown()
    assert sorted(results) == sorted(["a0", "a1", "a2", "a3", "b0", "b1", "c0"])
    # Never two of one session at once with per_owner=1, and b and c are not left
    # until a's four are done: everyone gets a turn before anyone's second.
    assert set(order[:3]) == {"a0", "b0", "c0"}
    assert most == {"a": 1, "b": 1, "c": 1}


async def test_a_cancelled_wait_frees_its_place() -> None:
    fair = FairPool(size=1, per_owner=1, executor=lambda: ThreadPoolExecutor(1))
    try:
        first = asyncio.ensure_future(fair.run("a", time.sleep, 0.3))
        queued = asyncio.ensure_future(fair.run("a", time.sleep, 5))
        await asyncio.sleep(0.01)
        assert fair.queued == 1
        queued.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await queued
        # It leaves the queue at once, not when the running call ends (CI once found it
        # still counted after the next call had run, the thread's dispatch not yet there).
        assert fair.queued == 0 and not first.done()
        await first
        started = time.perf_counter()
        await fair.run("b", time.sleep, 0)
        assert time.perf_counter() - started < 1  # the cancelled 5 s sleep never ran
        assert fair.queued == 0
    finally:
        fair.shutdown()


def test_a_broken_pool_is_replaced() -> None:
    import os
    import signal

    async def scenario() -> None:
        fair = FairPool(size=1, per_owner=1)
        try:
            pid = await fair.run("a", os.getpid)
            os.kill(pid, signal.SIGKILL)  # a search process dies (OOM killer, a crash)
            await asyncio.sleep(0.2)
            with pytest.raises(Exception):  # noqa: B017 - BrokenProcessPool, whatever wraps it
                await fair.run("a", os.getpid)
            # The next computation gets a fresh process.
            assert await fair.run("a", os.getpid) != pid
        finally:
            fair.shutdown()

    asyncio.run(scenario())
