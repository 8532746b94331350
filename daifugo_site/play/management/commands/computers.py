"""``manage.py computers``: a computer worker (``runworker computers`` plus the sweep).

Run as many as wanted, on any machine that reaches Redis and the database (settings with
``REDIS_URL``). Each one drives the games whose turns it receives on the ``computers``
channel, searching in its own pool of ``PLAY_COMPUTER_PROCESSES`` processes, and sweeps
for turns nobody drives from the moment it starts: after a restart of everything, every
unfinished game waiting on a computer resumes without anyone opening its page.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.management.commands.runworker import Command as RunWorker
from channels.worker import Worker
from django.conf import settings
from django.core.management import CommandError

from daifugo_site.play import computers

log = logging.getLogger(__name__)

#: Seconds between two attempts to read the channel while Redis does not answer.
RETRY_S = 1.0


class ComputerWorker(Worker):  # type: ignore[misc]
    async def handle(self) -> None:
        # From start-up, before any message: after a restart of everything, the games
        # waiting on a computer resume without anyone opening their page.
        computers.ensure_sweeper(always=True)
        await super().handle()

    async def listener(self, channel: str) -> None:
        """Channels' listener, but a Redis outage is waited out instead of ending the
        worker (issue 43: a restarted Redis left no computer worker at all). Turns posted
        while Redis was away are lost with it; the sweep finds them afterwards."""
        down = False
        while True:
            try:
                message = await self.channel_layer.receive(channel)
            except (OSError, ConnectionError) as exc:
                self._down(exc, down)
                down = True
                await asyncio.sleep(RETRY_S)
                continue
            except Exception as exc:
                # redis-py's errors (ConnectionError, TimeoutError) do not all derive
                # from OSError; anything else is a bug and ends the worker as before.
                if not _is_redis_outage(exc):
                    raise
                self._down(exc, down)
                down = True
                await asyncio.sleep(RETRY_S)
                continue
            if down:
                log.warning("the channel layer answers again")
                down = False
            if not message.get("type", None):
                raise ValueError("Worker received message with no type.")
            scope = {"type": "channel", "channel": channel}
            instance_queue = self.get_or_create_application_instance(channel, scope)
            await instance_queue.put(message)

    @staticmethod
    def _down(exc: BaseException, already: bool) -> None:
        if not already:
            log.warning("the channel layer does not answer (%s); retrying", exc)


def _is_redis_outage(exc: BaseException) -> bool:
    try:
        import redis.exceptions
    except ImportError:
        return False
    return isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError)


class Command(RunWorker):  # type: ignore[misc]
    help = "Play computer seats: listen on the 'computers' channel and sweep for lost turns."
    worker_class = ComputerWorker

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--layer", default=computers.TASKS, help="channel layer alias (work queues)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.PLAY_LEASE_REDIS_URL:
            raise CommandError(
                "computer workers need REDIS_URL: the channel layer and the leases "
                "must be shared with the web workers."
            )
        # The heuristic levels play here; the searches run in the pool's processes.
        from daifugo_site.play.thinking import serving_caches

        serving_caches(settings.ENGINE_SERVING_CACHE_ENTRIES)
        super().handle(*args, channels=[computers.CHANNEL], **options)
