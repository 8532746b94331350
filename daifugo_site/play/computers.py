"""Computer seats: who thinks, where, in which order, and how a lost turn is picked up.

Where the search runs
    Never on a web event loop. :class:`FairPool` hands :func:`.thinking.think` to a bounded
    ``ProcessPoolExecutor`` (``PLAY_COMPUTER_PROCESSES`` processes, started with ``spawn``:
    they import the engine only). With ``PLAY_COMPUTERS = "local"`` (the embedded default:
    SQLite and the in-memory layer, ``make run``) the web process drives its games and owns
    that pool. With ``"workers"`` (the default when ``REDIS_URL`` is set) web processes only
    send ``computer.turn`` to the ``computers`` channel; ``manage.py computers`` (or plain
    ``manage.py runworker computers``), as many as wanted, drive the games with their own
    pools. A game is driven by one process at a time, whichever received the turn.
    Levels that do not search (beginner, intermediate: heuristics, well under a
    millisecond) never queue behind advanced searches: a computer worker answers them on
    its own loop, a web process that drives its games (``"local"``) on a two-thread pool.

Practice games without a search are driven where their move arrived (issue 43)
    With ``"workers"``, a game that is neither a room's nor rated and whose every seat the
    computer may play is a level that does not search (:func:`drives_here`) is driven by
    the web worker that received its move or its page, on its own loop, under the same
    Redis lease: handing such a turn over cost the stack more than the thinking (a
    ``computer.turn`` message, the worker's read of the news, its own lease and push). A
    search still never runs in a web worker, and the computer workers' sweep still picks
    up a turn whose driver died (the lease expires). ``PLAY_QUICK_ON_WEB = False`` hands
    every turn over as before.

Exactly one computation per computer turn
    A driver first claims the game's lease (:class:`RedisLeases`: ``SET NX PX`` shared by
    every process; :class:`LocalLeases` in one process) and renews it while it thinks and
    waits. Another process that receives the same turn finds the lease held and leaves.
    The lease expires ``PLAY_LEASE_MS`` after its holder stopped renewing (a killed worker),
    and the sweep then hands the turn to another one. The compare-and-swap write in
    ``services.apply_action`` stays the last guard should two ever compute the same turn.

Fair share (issue 11)
    One pending computation per game (a driver computes its turns one after another), and
    the pool serves sessions (game owners) round-robin with at most
    ``PLAY_COMPUTER_SLOTS_PER_SESSION`` computations of one session running at once: a
    session with a hundred games of advanced computers waits for its own turns, not for
    everyone else's.

Timing carries nothing (issue 11)
    A computer's move is published ``delay_ms`` after its turn began, whatever the search
    did: a forced pass (answered at once by the player) and a chosen pass take the same
    time. Only a search longer than the delay shows, and the budget is set to fit in it.

Failure is visible and recoverable
    A player that raises, a broken pool, or a move the engine refuses: logged, and the
    seat plays :func:`.thinking.safe_action` so the game goes on.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from daifugo_site import asyncdb
from rules_engine import Action
from rules_engine.ai import Budget

from . import clock, services, thinking
from .models import Game

log = logging.getLogger(__name__)

#: The channel the computer workers listen on (``manage.py runworker computers``).
CHANNEL = "computers"
#: The channel layer alias of work queues (settings/_env.py): a turn goes to one worker.
TASKS = "tasks"


# -- the pool: bounded, round-robin over sessions ------------------------------------------


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    owner: str
    queued: float = field(default_factory=time.monotonic)


class FairPool:
    """Runs functions in a bounded executor, taking sessions in turn.

    ``run(owner, fn, *args)`` queues the call under ``owner``; whenever a slot is free the
    next owner in rotation that has work and fewer than ``per_owner`` calls running gets
    it. Thread-safe and loop-agnostic: completions come back through the caller's loop.
    """

    def __init__(
        self, size: int, per_owner: int, executor: Callable[[], Any] | None = None
    ) -> None:
        self.size = max(1, size)
        self.per_owner = max(1, per_owner)
        self._make_executor = executor or self._process_executor
        self._executor: Any = None
        self._lock = threading.Lock()
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._running: dict[str, int] = {}
        self._busy = 0

    def _process_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.size,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=thinking.warm_up,
        )

    @property
    def queued(self) -> int:
        with self._lock:
            return sum(len(q) for q in self._queues.values())

    @property
    def running(self) -> int:
        with self._lock:
            return self._busy

    async def run(self, owner: str, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        job = _Job(fn, args, loop, loop.create_future(), owner)
        with self._lock:
            queue = self._queues.get(owner)
            if queue is None:
                # A session with nothing queued goes first: it has waited least recently.
                queue = self._queues[owner] = deque()
                self._queues.move_to_end(owner, last=False)
            queue.append(job)
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            self._forget(job)
            raise

    def _forget(self, job: _Job) -> None:
        """A cancelled call leaves its queue now, not at the next dispatch: ``queued`` (the
        review's check for a free place counts it) is exact once the caller has gone."""
        with self._lock:
            queue = self._queues.get(job.owner)
            if queue is None:
                return
            kept = deque(waiting for waiting in queue if waiting is not job)
            if kept:
                self._queues[job.owner] = kept
            else:
                del self._queues[job.owner]

    def _next_job(self) -> _Job | None:
        """Under the lock: the first owner in rotation that may start one more call."""
        for owner in list(self._queues):
            queue = self._queues[owner]
            while queue and queue[0].future.cancelled():
                queue.popleft()
            if not queue:
                del self._queues[owner]
                continue
            if self._running.get(owner, 0) >= self.per_owner:
                continue
            job = queue.popleft()
            # To the back of the rotation: every other owner goes first next time.
            self._queues.move_to_end(owner)
            if not queue:
                del self._queues[owner]
            return job
        return None

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if self._busy >= self.size:
                    return
                job = self._next_job()
                if job is None:
                    return
                self._busy += 1
                self._running[job.owner] = self._running.get(job.owner, 0) + 1
                if self._executor is None:
                    self._executor = self._make_executor()
                executor = self._executor
            try:
                done = executor.submit(job.fn, *job.args)
            except Exception as exc:  # noqa: BLE001 - e.g. a pool broken by a killed child
                self._reset(executor)
                done = Future()
                done.set_exception(exc)
            done.add_done_callback(lambda f, job=job: self._finished(job, f))

    def _reset(self, executor: Any) -> None:
        """Drop a broken executor: the next call starts a fresh one."""
        with self._lock:
            if self._executor is executor:
                self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)

    def _finished(self, job: _Job, done: Future[Any]) -> None:
        with self._lock:
            self._busy -= 1
            left = self._running.get(job.owner, 1) - 1
            if left:
                self._running[job.owner] = left
            else:
                self._running.pop(job.owner, None)
        exc = done.exception()
        if isinstance(exc, BrokenProcessPool):
            with self._lock:
                broken = self._executor
            if broken is not None:
                self._reset(broken)

        def settle() -> None:
            if job.future.cancelled():
                return
            if exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())

        try:
            job.loop.call_soon_threadsafe(settle)
        except RuntimeError:  # the caller's loop has closed: nobody waits for it
            pass
        self._dispatch()

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


_POOL: FairPool | None = None
_QUICK: FairPool | None = None
_POOL_LOCK = threading.Lock()

#: Levels that do not search: a heuristic answers in well under a millisecond (measured:
#: beginner p50 0.03 ms / p99 4 ms, intermediate 0.07 / 0.3 ms), so they run on a small
#: thread pool of the driving process instead of queueing behind advanced searches.
QUICK_LEVELS = ("beginner", "intermediate")


def pool() -> FairPool:
    """This process's search pool (processes), started on first use."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = FairPool(
                settings.PLAY_COMPUTER_PROCESSES, settings.PLAY_COMPUTER_SLOTS_PER_SESSION
            )
        return _POOL


def quick_pool() -> FairPool:
    """Threads for the levels that do not search (off the event loop all the same)."""
    global _QUICK
    with _POOL_LOCK:
        if _QUICK is None:
            from concurrent.futures import ThreadPoolExecutor

            _QUICK = FairPool(
                2, 1, executor=lambda: ThreadPoolExecutor(2, thread_name_prefix="computer")
            )
        return _QUICK


# -- leases: one driver per game across processes --------------------------------------------


class Leases(Protocol):
    async def claim(self, game_id: str, token: str) -> bool: ...
    async def renew(self, game_id: str, token: str) -> bool: ...
    async def release(self, game_id: str, token: str) -> None: ...
    async def held(self, game_id: str) -> bool: ...


class LocalLeases:
    """Leases for one process (the embedded default drives games in the web process)."""

    def __init__(self, ttl_ms: int) -> None:
        self.ttl = ttl_ms / 1000
        self._held: dict[str, tuple[str, float]] = {}

    def _live(self, game_id: str) -> tuple[str, float] | None:
        found = self._held.get(game_id)
        if found is not None and found[1] < time.monotonic():
            del self._held[game_id]
            return None
        return found

    async def claim(self, game_id: str, token: str) -> bool:
        if self._live(game_id) is not None:
            return False
        self._held[game_id] = (token, time.monotonic() + self.ttl)
        return True

    async def renew(self, game_id: str, token: str) -> bool:
        found = self._live(game_id)
        if found is None or found[0] != token:
            return False
        self._held[game_id] = (token, time.monotonic() + self.ttl)
        return True

    async def release(self, game_id: str, token: str) -> None:
        found = self._held.get(game_id)
        if found is not None and found[0] == token:
            del self._held[game_id]

    async def held(self, game_id: str) -> bool:
        return self._live(game_id) is not None


# Renew or delete only while the value is still ours (another process may hold it now).
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"  # noqa: E501
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"  # noqa: E501


class RedisLeases:
    """Leases every process sees: ``SET daifugo:lease:<game> <token> NX PX ttl``."""

    def __init__(self, url: str, ttl_ms: int) -> None:
        self.url = url
        self.ttl_ms = ttl_ms
        # One client per event loop (redis.asyncio connections belong to the loop).
        self._clients: dict[int, Any] = {}

    def _client(self) -> Any:
        import redis.asyncio as aioredis

        key = id(asyncio.get_running_loop())
        client = self._clients.get(key)
        if client is None:
            if len(self._clients) > 8:  # loops of finished tests: bounded
                self._clients.clear()
            client = aioredis.from_url(self.url)
            self._clients[key] = client
        return client

    @staticmethod
    def key(game_id: str) -> str:
        return f"daifugo:lease:{game_id}"

    async def claim(self, game_id: str, token: str) -> bool:
        return bool(await self._client().set(self.key(game_id), token, nx=True, px=self.ttl_ms))

    async def renew(self, game_id: str, token: str) -> bool:
        return bool(await self._client().eval(_RENEW, 1, self.key(game_id), token, self.ttl_ms))

    async def release(self, game_id: str, token: str) -> None:
        await self._client().eval(_RELEASE, 1, self.key(game_id), token)

    async def held(self, game_id: str) -> bool:
        return bool(await self._client().exists(self.key(game_id)))


try:
    from redis.exceptions import RedisError as _RedisError
except ImportError:  # the embedded default has no Redis client

    class _RedisError(Exception):  # type: ignore[no-redef]
        pass


_LEASES: Leases | None = None


def leases() -> Leases:
    global _LEASES
    if _LEASES is None:
        url = settings.PLAY_LEASE_REDIS_URL
        _LEASES = (
            RedisLeases(url, settings.PLAY_LEASE_MS) if url else LocalLeases(settings.PLAY_LEASE_MS)
        )
    return _LEASES


# -- the driver ----------------------------------------------------------------------------

_DRIVERS: dict[str, asyncio.Task[None]] = {}


def computer_action(game: Game, match: Any, seat: int) -> Action:
    """What the computer in ``seat`` does now, computed in this thread (scripts and tests;
    the site computes in a pool process: :func:`_think`). It sees only its observation."""
    level = game.computer_level(seat) or "beginner"
    seed = f"{game.seed}:{game.version}:{seat}"
    return thinking.think(match.observe(seat), level, seed, budget())


def budget(delay_ms: int = 0) -> Budget:
    """The advanced player's budget: playouts, and CPU time of the searching thread (not
    wall time), so a busy machine makes it slower, never weaker.

    At a pace (``delay_ms``, the time a computer's move is published after its turn
    began) the search must end inside it, or a chosen move takes longer than a forced
    pass and the delay tells that the seat had a choice (issue 45: at the 300 ms pace 7
    of 29 chosen passes took 327-462 ms, every forced one at most 307). So the budget is
    the pace less ``PLAY_PACE_MARGIN_MS`` (the hop to the pool process and back, the
    write), never above the level's own: the fast speed plays the advanced level with
    less search (about 0.2 s instead of 0.45)."""
    time_ms = settings.PLAY_COMPUTER_BUDGET_MS
    if delay_ms > 0:
        fits = max(delay_ms - settings.PLAY_PACE_MARGIN_MS, settings.PLAY_PACE_MIN_BUDGET_MS)
        time_ms = min(time_ms, fits)
    return Budget(time_ms=time_ms, playouts=settings.PLAY_COMPUTER_PLAYOUTS)


def seat_level(game: Game, seat: int) -> str:
    """The level that plays ``seat`` when the computer does: a computer seat's own, and for
    a human seat the computer stands in for, the level it names."""
    return game.computer_level(seat) or clock.level(game, seat)


def drives_here(game: Game) -> bool:
    """Whether a web worker drives this game itself in ``"workers"`` mode (see the module's
    docstring): one person's table (not a room's, whose people may move through different
    web workers at once; not rated), every seat played at a level that does not search.
    The seats' levels are fixed when the game is made, so any version of it answers."""
    if not settings.PLAY_QUICK_ON_WEB:
        return False
    if services.is_table_of_people(game) or services.is_rated(game):
        return False
    return all(seat_level(game, seat) in QUICK_LEVELS for seat in range(game.players))


async def _think(game: Game, seat: int, obs: Any) -> Action:
    level = seat_level(game, seat)
    seed = f"{game.seed}:{game.version}:{seat}"
    try:
        search = budget(game.delay_ms)
        if level in QUICK_LEVELS and mode() == "workers":
            # A computer worker, or a web worker driving a game of such levels alone
            # (drives_here), answers on its own loop: a heuristic takes well under a
            # millisecond, less than the hop to a thread and back costs (issue 43).
            quick: Action = thinking.think(obs, level, seed, search)
            return quick
        lane = quick_pool() if level in QUICK_LEVELS else pool()
        action: Action = await lane.run(game.owner, thinking.think, obs, level, seed, search)
        return action
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("computer player (%s) failed in game %s; playing safe", level, game.id)
        return thinking.safe_action(obs)


async def _keep_lease(game_id: str, token: str) -> None:
    every = settings.PLAY_LEASE_MS / 3000
    while True:
        await asyncio.sleep(every)
        try:
            if not await leases().renew(game_id, token):
                log.warning("lost the lease of game %s", game_id)
                return
        except Exception:  # noqa: BLE001 - a Redis hiccup: try again next time
            log.exception("could not renew the lease of game %s", game_id)


async def drive(game_id: str, version: int | None = None) -> None:
    """Play the game's computer seats until a human must act, if no one else is."""
    token = secrets.token_hex(8)
    try:
        claimed = await leases().claim(game_id, token)
    except (OSError, ConnectionError, _RedisError) as exc:
        # Redis away (issue 43): nobody can hold the game, so nobody drives it now; the
        # sweep hands the turn out again once Redis answers.
        log.warning("game %s not driven: no lease (%r)", game_id, exc)
        return
    if not claimed:
        return
    keeper = asyncio.create_task(_keep_lease(game_id, token))
    try:
        await _drive(game_id, version)
    finally:
        keeper.cancel()
        try:
            await leases().release(game_id, token)
        except Exception:  # noqa: BLE001 - it expires by itself
            log.exception("could not release the lease of game %s", game_id)


async def _drive(game_id: str, version: int | None) -> None:
    turn_started = time.monotonic()
    while True:
        loaded = services.cached(game_id, version) if version is not None else None
        if loaded is None:
            loaded = await asyncdb.call(services.current, game_id, version)
        if loaded is None:
            return
        game, match = loaded
        if services.needs_database(game):
            seats = await asyncdb.call(services.computers_to_act, game, match)
        else:
            seats = services.computers_to_act(game, match)
        if not seats:
            if match.round.over and await asyncdb.call(services.computer_moves_on, game, match):
                outcome = await services.submit(
                    game_id, Action.next_round(), by_computer=True, expected_version=game.version
                )
                version = outcome.version if outcome.accepted else None
                turn_started = time.monotonic()
                continue
            return
        seat = seats[0]
        obs = match.observe(seat)
        action = await _think(game, seat, obs)
        # Publish delay_ms after the turn began, however long the search took (or not).
        wait = game.delay_ms / 1000 - (time.monotonic() - turn_started)
        if wait > 0:
            await asyncio.sleep(wait)
        outcome = await services.submit(
            game_id, action, by_computer=True, expected_version=game.version
        )
        if outcome.accepted and _STATS is not None:
            # computer_ms of the bench: turn start to pushed, the pacing wait left out.
            _record(game.computer_level(seat) or "", time.monotonic() - turn_started - max(0, wait))
        for heuristic in (True, False):
            if outcome.accepted or outcome.reason == "stale":
                break
            log.error(
                "computer move %s refused in game %s (%s); playing safe",
                action,
                game_id,
                outcome.reason,
            )
            action = thinking.safe_action(obs, heuristic=heuristic)
            outcome = await services.submit(
                game_id, action, by_computer=True, expected_version=game.version
            )
        if not outcome.accepted and outcome.reason != "stale":
            log.error("no safe move accepted in game %s (%s)", game_id, outcome.reason)
            return
        # Accepted: the next turn starts now. Stale (the table moved on while this one
        # was thought, e.g. the human moved to the next round): look again.
        version = outcome.version if outcome.accepted else None
        turn_started = time.monotonic()


# The bench's figures (python -m daifugo_site.play.bench): one line per computer move,
# appended to the file PLAY_BENCH_STATS names; off (None) unless the bench sets it.
_STATS: str | None = os.environ.get("PLAY_BENCH_STATS") or None


_STATS_FILE: Any = None


def _record(level: str, seconds: float) -> None:
    # Opened once and line-buffered: opening the file per move was a visible share of the
    # computer worker's CPU in the bench's own figures.
    global _STATS_FILE
    assert _STATS is not None
    if _STATS_FILE is None:
        _STATS_FILE = open(_STATS, "a", buffering=1)  # noqa: SIM115 - lives with the process
    _STATS_FILE.write(f"{level} {seconds * 1000:.1f}\n")


# Games poked while their driver was running, with the newest version asked for (None:
# unknown, read the database). The running driver may already have looked at an older
# state and be on its way out ("no computer to act"): its end then starts another, so a
# turn is never lost between the two (it was: a room table whose people moved in quick
# succession waited for the sweep, and forever where there is none). Bounded by the
# running drivers: an entry lives only until its driver ends.
_POKED: dict[str, int | None] = {}


def start_driver(game_id: str, version: int | None) -> None:
    task = _DRIVERS.get(game_id)
    if task is not None and not task.done():
        if game_id in _POKED:
            known = _POKED[game_id]
            version = None if known is None or version is None else max(known, version)
        _POKED[game_id] = version
        return
    if len(_DRIVERS) >= settings.PLAY_MAX_DRIVERS:
        log.warning("too many games driven here (%d); game %s waits", len(_DRIVERS), game_id)
        return
    task = asyncio.get_running_loop().create_task(drive(game_id, version))
    _DRIVERS[game_id] = task
    task.add_done_callback(lambda t: _driver_done(game_id, t))


def _driver_done(game_id: str, task: asyncio.Task[None]) -> None:
    if _DRIVERS.get(game_id) is task:
        del _DRIVERS[game_id]
    if not task.cancelled() and task.exception() is not None:
        log.error("computer driver for game %s failed", game_id, exc_info=task.exception())
    if game_id in _POKED and not task.cancelled():
        try:
            start_driver(game_id, _POKED.pop(game_id))
        except RuntimeError:  # the loop is closing: the sweep resumes the game
            pass
    else:
        _POKED.pop(game_id, None)


def mode() -> str:
    return str(settings.PLAY_COMPUTERS)


def request_turn(
    game_id: str, version: int | None = None, news: dict[str, Any] | None = None
) -> None:
    """Make sure the game's computer seats get played (call on the event loop); ``news``
    of ``version`` lets a computer worker advance its copy without a read.

    With ``"workers"`` the turn goes to the computer workers, unless this process has the
    game (it just applied its move or sent its page) and :func:`drives_here` says so."""
    if mode() == "workers":
        loaded = services.cached(game_id, 0)
        if loaded is not None and drives_here(loaded[0]):
            start_driver(game_id, version)
            return
        # The computer workers sweep (manage.py computers); web workers only post turns.
        layer = get_channel_layer(TASKS)
        message: dict[str, Any] = {"type": "computer.turn", "game": game_id, "version": version}
        if news is not None and version is not None:
            message["news"] = news
        task = asyncio.get_running_loop().create_task(layer.send(CHANNEL, message))
        _BACKGROUND.add(task)
        task.add_done_callback(_posted)
    else:
        ensure_sweeper()
        start_driver(game_id, version)


_BACKGROUND: set[asyncio.Task[Any]] = set()


def _posted(task: asyncio.Task[Any]) -> None:
    _BACKGROUND.discard(task)
    if not task.cancelled() and task.exception() is not None:
        # Redis away (issue 43): the game is stored, so the sweep of a computer worker
        # finds the turn once Redis is back; one line, not a traceback per move.
        log.warning("a computer turn was not posted (%r); the sweep will find it",
                    task.exception())  # fmt: skip


# -- the sweep: turns nobody is driving (a killed worker, a restart) -------------------------

# (game id, version) seen waiting on a human: not looked at again until the game moves.
_SEEN: OrderedDict[tuple[str, int], None] = OrderedDict()
_SEEN_SIZE = 20_000
_SWEEPERS: dict[int, asyncio.Task[None]] = {}


def stuck_games() -> list[tuple[str, int]]:
    """Unfinished games, not moved for a lease's time, whose computer seat is to act.

    Cheap enough to run every few seconds beside live games: one query for (id, version)
    pairs, then the games this process has cached answer from memory, pairs already seen
    waiting on a human are skipped, and the rest are loaded in one query."""
    from django.db import close_old_connections

    now = timezone.now()
    try:
        rows = list(
            Game.objects.filter(
                status=Game.Status.PLAYING,
                updated__lt=now - timedelta(milliseconds=settings.PLAY_LEASE_MS),
                updated__gte=now - timedelta(seconds=settings.PLAY_SWEEP_MAX_AGE_S),
            )
            .order_by("-updated")
            .values_list("id", "version")[: settings.PLAY_SWEEP_MAX_ROWS]
        )
        found = []
        unknown = []
        for game_id, version in rows:
            if (game_id, version) in _SEEN:
                continue
            loaded = services.cached(game_id, version)
            if loaded is None:
                unknown.append(game_id)
                continue
            _classify(loaded[0], loaded[1], found)
        for chunk in range(0, len(unknown), 500):
            for game in Game.objects.filter(pk__in=unknown[chunk : chunk + 500]):
                _classify(game, services.match_of(game), found)
        return found
    finally:
        # Run on a thread of its own (not the consumers' database thread): close it here.
        close_old_connections()


def _classify(game: Game, match: Any, found: list[tuple[str, int]]) -> None:
    if services.computers_to_act(game, match) or services.computer_moves_on(game, match):
        found.append((game.id, game.version))
    elif services.needs_database(game) or clock.deadline(game, match) is not None:
        pass  # time-dependent (a turn clock, a dropped seat): look again next sweep
    else:
        _SEEN[(game.id, game.version)] = None
        while len(_SEEN) > _SEEN_SIZE:
            _SEEN.popitem(last=False)


async def sweep_once() -> int:
    """Hand every stuck game to a driver; the number handed."""
    handed = 0
    # Not on the consumers' database thread (thread_sensitive): a sweep must never delay
    # a move.
    for game_id, version in await sync_to_async(stuck_games, thread_sensitive=False)():
        if await leases().held(game_id):
            continue
        if mode() == "workers":
            await get_channel_layer(TASKS).send(
                CHANNEL, {"type": "computer.turn", "game": game_id, "version": version}
            )
        else:
            start_driver(game_id, version)
        handed += 1
    if handed:
        log.info("sweep: %d game(s) waiting on a computer resumed", handed)
    return handed


async def sweep_forever() -> None:
    while True:
        try:
            await sweep_once()
        except asyncio.CancelledError:
            raise
        except (OSError, ConnectionError, _RedisError) as exc:
            # Redis away (issue 43): one line a sweep, not a traceback; the next tries again.
            log.warning("computer sweep: Redis does not answer (%r)", exc)
        except Exception as exc:  # noqa: BLE001 - the next sweep tries again
            from daifugo_site import outage

            if outage.is_outage(exc):
                log.warning("computer sweep: the database does not answer (%r)", exc)
            else:
                log.exception("computer sweep failed")
        await asyncio.sleep(settings.PLAY_SWEEP_SECONDS or 2.0)


def ensure_sweeper(always: bool = False) -> None:
    """Start this process's sweep on its event loop (once per loop; off when the interval
    is 0, as in most tests, unless ``always``: a computer worker always sweeps)."""
    if not settings.PLAY_SWEEP_SECONDS and not always:
        return
    loop = asyncio.get_running_loop()
    task = _SWEEPERS.get(id(loop))
    if task is None or task.done():
        _SWEEPERS.clear()  # a loop of its own per process; older ones are gone
        _SWEEPERS[id(loop)] = loop.create_task(sweep_forever())


def in_flight() -> dict[str, int]:
    """Figures for the bench and the tests."""
    p = _POOL
    return {
        "drivers": len(_DRIVERS),
        "queued": p.queued if p is not None else 0,
        "running": p.running if p is not None else 0,
        "pid": os.getpid(),
    }
