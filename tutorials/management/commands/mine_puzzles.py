"""``manage.py mine_puzzles [--games N] [--seed S] [--target T] [--out FILE]``: the puzzle
miner (:mod:`tutorials.mine`, also ``python -m tutorials.mine``). Offline: not run by make."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tutorials import mine


class Command(BaseCommand):
    help = "Mine puzzles from games between the computer players (writes a JSON lines file)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=50)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--target", type=int, default=None)
        parser.add_argument("--node-limit", type=int, default=mine.NODE_LIMIT)
        parser.add_argument("--out", type=Path, default=mine.DEFAULT_OUT)

    def handle(self, *args: Any, **options: Any) -> None:
        puzzles, stats = mine.mine(
            options["games"],
            options["seed"],
            options["node_limit"],
            log=self.stderr,
            target=options["target"],
        )
        mine.write(puzzles, options["out"])
        self.stdout.write(json.dumps({**stats, **mine.summary(puzzles)}, ensure_ascii=False))
