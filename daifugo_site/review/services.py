"""Running reviews and hints in the computer-player processes.

Where the search runs
    In the same bounded process pool as the computer seats
    (:func:`daifugo_site.play.computers.pool`): each reviewed decision is one pool call of
    :func:`.analysis.review_decision`, queued under the owner ``review:<game>`` so the
    pool's round-robin serves a review like any other session (one decision at a time,
    between other players' computer moves); a hint is queued under the game's owner, like
    that player's own computer seats. Nothing searches on a web event loop: the loops only
    await the pool.

Which process drives a review
    With ``PLAY_COMPUTERS = "local"`` (the embedded default) the web process that was asked
    runs the job as a task; with ``"workers"`` it sends ``review.start`` on the computers'
    channel and a computer worker runs it (:mod:`daifugo_site.play.workers`). A lease
    (the computer seats' :func:`~daifugo_site.play.computers.leases`, key ``review-<id>``)
    makes it one job per review across processes.

Restarts
    Each decision's result is written as it arrives; a job that dies (a killed worker, a
    restart) leaves its lease to expire, and the next progress poll of the page asks for
    the job again, which resumes at the first decision not yet stored.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import time
from collections import deque
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import IntegrityError

from daifugo_site import asyncdb
from daifugo_site.play import computers
from daifugo_site.play import services as play_services

from . import analysis
from .models import Hint, Review
from .sources import Source

log = logging.getLogger(__name__)

_JOBS: dict[int, asyncio.Task[None]] = {}


def lease_name(review_id: int) -> str:
    return f"review-{review_id}"


def review_for(source: Source) -> Review:
    """The review of ``source`` (created, with its number of decisions, on first ask)."""
    found = Review.objects.filter(game=source.game, seat=source.seat).first()
    if found is not None:
        return found
    total = len(analysis.decisions(source.record(), source.seat))
    try:
        return Review.objects.create(
            game=source.game,
            seat=source.seat,
            total=total,
            worlds=settings.REVIEW_WORLDS,
            status=Review.Status.DONE if total == 0 else Review.Status.RUNNING,
        )
    except IntegrityError:  # two clicks at once: the other one created it
        return Review.objects.get(game=source.game, seat=source.seat)


def seed_of(game_id: str, index: int) -> str:
    """The search's seed for a decision: public facts only (see analysis: honesty)."""
    return f"review:{game_id}:{index}"


def request_review(review_id: int) -> None:
    """Make sure the review's job runs somewhere (call on the event loop)."""
    if computers.mode() == "workers":
        layer = get_channel_layer(computers.TASKS)
        task = asyncio.get_running_loop().create_task(
            layer.send(computers.CHANNEL, {"type": "review.start", "review": review_id})
        )
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)
    else:
        start_job(review_id)


_BACKGROUND: set[asyncio.Task[Any]] = set()


def start_job_message(message: dict[str, Any]) -> None:
    """A computer worker's ``review.start`` message: the review's job runs there, searching
    in that worker's pool; its lease keeps it to one worker."""
    review_id = message.get("review")
    if isinstance(review_id, int) and not isinstance(review_id, bool):
        start_job(review_id)


def start_job(review_id: int) -> None:
    """Start the review's job in this process unless it runs here already."""
    task = _JOBS.get(review_id)
    if task is not None and not task.done():
        return
    if len(_JOBS) >= settings.REVIEW_MAX_JOBS:
        log.warning("too many reviews running here; review %s waits for a later poll", review_id)
        return
    # A context of its own: a task started from a request would otherwise inherit the
    # request's sync_to_async executor, which is gone once the response is sent.
    task = asyncio.get_running_loop().create_task(run(review_id), context=contextvars.Context())
    _JOBS[review_id] = task
    task.add_done_callback(lambda t: _job_done(review_id, t))


def _job_done(review_id: int, task: asyncio.Task[None]) -> None:
    if _JOBS.get(review_id) is task:
        del _JOBS[review_id]
    if not task.cancelled() and task.exception() is not None:
        log.error("review %s failed", review_id, exc_info=task.exception())


async def is_running(review_id: int) -> bool:
    """Whether some process holds the review's lease (is working on it)."""
    return bool(await computers.leases().held(lease_name(review_id)))


async def _keep(name: str, token: str) -> None:
    while True:
        await asyncio.sleep(settings.PLAY_LEASE_MS / 3000)
        try:
            if not await computers.leases().renew(name, token):
                return
        except Exception:  # noqa: BLE001 - a Redis hiccup: try again next time
            log.exception("could not renew the lease %s", name)


def _load(review_id: int) -> tuple[Review, list[analysis.Decision]] | None:
    review = Review.objects.select_related("game").filter(pk=review_id).first()
    if review is None or review.status != Review.Status.RUNNING:
        return None
    return review, analysis.decisions(review.game.record(), review.seat)


def _store(review_id: int, items: list[dict[str, Any]], done: bool, seconds: float) -> None:
    fields: dict[str, Any] = {"items": items}
    if done:
        fields["status"] = Review.Status.DONE
        fields["seconds"] = round(seconds, 2)
    Review.objects.filter(pk=review_id).update(**fields)


async def run(review_id: int) -> None:
    """The review's job: every decision not reviewed yet, one pool call each."""
    name = lease_name(review_id)
    token = secrets.token_hex(8)
    if not await computers.leases().claim(name, token):
        return
    keeper = asyncio.create_task(_keep(name, token))
    try:
        loaded = await asyncdb.call(_load, review_id)
        if loaded is None:
            return
        review, found = loaded
        items = list(review.items)
        budget = analysis.Budget(worlds=review.worlds or settings.REVIEW_WORLDS)
        started = time.monotonic() - (review.seconds or 0.0)
        pool = computers.pool()
        inflight: deque[asyncio.Task[dict[str, Any]]] = deque()
        ahead = len(items)

        def start(decision: analysis.Decision, slot: int) -> asyncio.Task[dict[str, Any]]:
            # Slot 0 is the review's own owner; an extra slot (a core nobody else wants)
            # runs under a name of its own, so the pool's per-owner cap does not hold it.
            owner = f"review:{review.game_id}" + (f":{slot}" if slot else "")
            return asyncio.ensure_future(
                pool.run(
                    owner,
                    analysis.review_decision,
                    decision.obs,
                    decision.action,
                    seed_of(review.game_id, decision.index),
                    budget,
                    decision.pending,
                )
            )

        try:
            while len(items) < len(found):
                # One decision always; more only while the pool has a free process and
                # nothing queued (another player's computer move always goes first).
                while ahead < len(found) and (
                    not inflight
                    or (
                        len(inflight) < settings.REVIEW_PARALLEL
                        and pool.running + pool.queued < pool.size
                    )
                ):
                    inflight.append(start(found[ahead], ahead % settings.REVIEW_PARALLEL))
                    ahead += 1
                decision = found[len(items)]
                try:
                    result = await inflight.popleft()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("review %s: decision %s failed", review_id, decision.index)
                    await asyncdb.call(
                        Review.objects.filter(pk=review_id).update, status=Review.Status.FAILED
                    )
                    return
                # Stored in order: a resumed job starts at the first decision not stored.
                result["i"] = decision.index
                result["round"] = decision.round_no
                items.append(result)
                done = len(items) >= len(found)
                await asyncdb.call(_store, review_id, items, done, time.monotonic() - started)
                await push(review_id, len(items), len(found), done)
        finally:
            for task in inflight:
                task.cancel()
        if not found:
            await asyncdb.call(_store, review_id, items, True, 0.0)
            await push(review_id, 0, 0, True)
    finally:
        keeper.cancel()
        try:
            await computers.leases().release(name, token)
        except Exception:  # noqa: BLE001 - it expires by itself
            log.exception("could not release the lease %s", name)


async def push(review_id: int, done: int, total: int, finished: bool) -> None:
    """Tell the review's open pages (any process: the channel layer) how far it is."""
    from .consumers import group_name, progress_message

    status = Review.Status.DONE if finished else Review.Status.RUNNING
    try:
        await get_channel_layer().group_send(
            group_name(review_id), progress_message(done, total, status)
        )
    except Exception:  # noqa: BLE001 - a lost push: the page's slow poll catches up
        log.exception("could not push the progress of review %s", review_id)


# -- hints ---------------------------------------------------------------------------------


class HintRefused(Exception):
    """No hint now; ``reason`` is one of: not_practice, not_your_turn, round_over."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _hint_position(source: Source) -> tuple[int, Any, Hint | None]:
    match = play_services.match_of(source.game)
    if match.round.over:
        raise HintRefused("round_over")
    obs = match.observe(source.seat)
    owes = obs.owed_choice is not None and obs.owed_choice[0] == obs.seat
    if not (obs.my_turn and (obs.legal or owes)) and not (obs.phase == "exchange" and obs.owe):
        raise HintRefused("not_your_turn")
    found = Hint.objects.filter(
        game=source.game, seat=source.seat, version=source.game.version
    ).first()
    return source.game.version, obs, found


def _save_hint(source: Source, version: int, result: dict[str, Any]) -> None:
    try:
        Hint.objects.get_or_create(
            game=source.game, seat=source.seat, version=version, defaults={"result": result}
        )
    except IntegrityError:  # asked twice at once: counted once
        pass


def hints_used(game_id: str, seat: int) -> int:
    return Hint.objects.filter(game_id=game_id, seat=seat).count()


async def hint(source: Source) -> tuple[int, dict[str, Any]]:
    """The table version the hint is for and the advanced player's suggestion for the
    seat's decision at it (counted once per table version). Raises :class:`HintRefused`."""
    if not source.practice:
        raise HintRefused("not_practice")
    version, obs, found = await asyncdb.call(_hint_position, source)
    if found is not None:
        return version, dict(found.result)
    result: dict[str, Any] = await computers.pool().run(
        source.game.owner,
        analysis.hint,
        obs,
        f"hint:{source.game.id}:{version}",
        analysis.Budget(worlds=settings.REVIEW_HINT_WORLDS),
    )
    await asyncdb.call(_save_hint, source, version, result)
    return version, result
