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

from . import computers, services


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

    async def review_start(self, message: dict[str, Any]) -> None:
        """A game review's job (daifugo_site/review/services.py): runs here, searching in
        this worker's pool; its lease keeps it to one worker."""
        from daifugo_site.review import services as review_services

        review_id = message.get("review")
        if isinstance(review_id, int) and not isinstance(review_id, bool):
            review_services.start_job(review_id)
