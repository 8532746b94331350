"""``manage.py computers``: a computer worker (``runworker computers`` plus the sweep).

Run as many as wanted, on any machine that reaches Redis and the database (settings with
``REDIS_URL``). Each one drives the games whose turns it receives on the ``computers``
channel, searching in its own pool of ``PLAY_COMPUTER_PROCESSES`` processes, and sweeps
for turns nobody drives from the moment it starts: after a restart of everything, every
unfinished game waiting on a computer resumes without anyone opening its page.
"""

from __future__ import annotations

from typing import Any

from channels.management.commands.runworker import Command as RunWorker
from channels.worker import Worker
from django.conf import settings
from django.core.management import CommandError

from daifugo_site.play import computers


class ComputerWorker(Worker):  # type: ignore[misc]
    async def handle(self) -> None:
        # From start-up, before any message: after a restart of everything, the games
        # waiting on a computer resume without anyone opening their page.
        computers.ensure_sweeper(always=True)
        await super().handle()


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
        super().handle(*args, channels=[computers.CHANNEL], **options)
