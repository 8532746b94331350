"""``manage.py mine_player_games [--since DAYS] [--limit N]``: puzzles from finished games of
people (:mod:`tutorials.mine_games`), waiting for an admin's approval. Each game is looked
at once; run it daily (before ``purge`` deletes month-old games)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tutorials import mine, mine_games


class Command(BaseCommand):
    help = "Mine candidate puzzles from players' finished games (each game once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--since", type=int, default=None, help="only games finished in the last DAYS days"
        )
        parser.add_argument("--limit", type=int, default=mine_games.DEFAULT_LIMIT)
        parser.add_argument("--node-limit", type=int, default=mine.NODE_LIMIT)

    def handle(self, *args: Any, **options: Any) -> None:
        since = timedelta(days=options["since"]) if options["since"] is not None else None
        stats = mine_games.scan(
            limit=min(max(0, options["limit"]), 10_000),
            since=since,
            node_limit=options["node_limit"],
            log=self.stderr if options["verbosity"] > 1 else None,
        )
        self.stdout.write(json.dumps(stats.as_dict(), ensure_ascii=False))
