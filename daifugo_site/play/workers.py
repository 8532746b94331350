"""The computer workers' consumer: ``computer.turn`` messages on the ``computers`` channel.

Web processes (``PLAY_COMPUTERS = "workers"``) post a turn after every human action and
when a page connects; the sweep posts the turns nobody drives. Whichever worker receives
one starts the game's driver (:func:`.computers.drive`), which leaves at once when another
process holds the game's lease. The handler only starts a task: one worker drives many
games at once, and its searches run in its own bounded process pool.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import AsyncConsumer

from . import computers, hooks, services


class ComputersConsumer(AsyncConsumer):  # type: ignore[misc]
    async def computer_turn(self, message: dict[str, Any]) -> None:
        game_id = message.get("game")
        version = message.get("version")
        if not isinstance(game_id, str) or len(game_id) > 32:
            return
        news = message.get("news")
        if isinstance(version, int) and isinstance(news, dict):
            services.learn(game_id, version, news)
        computers.ensure_sweeper(always=True)
        computers.start_driver(game_id, version if isinstance(version, int) else None)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Jobs of the apps built on play (a game review: daifugo_site/review registers
        # ``review.start``) run here too, searching in this worker's pool.
        job = hooks.worker_jobs.get(str(message.get("type")))
        if job is not None:
            job(message)
            return
        await super().dispatch(message)
