"""``manage.py check_lessons [--lang zh-hans|ja]``: validate every lesson and puzzle.

Reads the lessons from the database and runs each through the rules engine and the solver
(:mod:`tutorials.validation`). Prints one line per problem, then
``N lessons, M puzzles, K steps checked, E errors``; exits 1 when E > 0.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tutorials.models import Lesson
from tutorials.spec import LANGS, lesson_from_model
from tutorials.validation import lang_suffix, validate_all


class Command(BaseCommand):
    help = "Validate every lesson and puzzle in the database through the engine and solver."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--lang",
            choices=["zh-hans", "ja"],
            help="Check the texts of this language only (the engine checks always run).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        langs = (lang_suffix(options["lang"]),) if options["lang"] else LANGS
        # Mined puzzles were validated by the miner (tutorials.mine), thousands of them; the
        # tests re-prove a batch. This command checks the authored lessons.
        lessons = list(
            Lesson.objects.filter(mined__isnull=True).order_by("category", "order", "slug")
        )
        specs = [lesson_from_model(lesson) for lesson in lessons]
        problems, steps = validate_all(specs, langs)
        for problem in problems:
            self.stdout.write(str(problem))
        puzzles = sum(1 for lesson in lessons if lesson.is_puzzle)
        self.stdout.write(
            f"{len(lessons) - puzzles} lessons, {puzzles} puzzles, {steps} steps checked, "
            f"{len(problems)} errors"
        )
        if problems:
            raise CommandError(f"{len(problems)} errors in the lessons", returncode=1)
