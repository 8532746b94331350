"""``manage.py load_lessons [FOLDER]``: load lessons and puzzles from a content folder.

The folder holds ``lessons/*.toml`` and ``puzzles/*.toml`` (default: tutorials/content/,
which ``load_site_content`` loads too). Loading is idempotent and validated: an invalid
file is refused and its problems printed; the command then exits 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tutorials.loader import content_dir, load_content


class Command(BaseCommand):
    help = "Load lesson and puzzle files (TOML) into the database, validated."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", nargs="?", help="Content folder (default: tutorials/content)")

    def handle(self, *args: Any, **options: Any) -> None:
        root = Path(options["folder"]) if options["folder"] else content_dir()
        result = load_content(root, verbosity=options["verbosity"], err=self.stderr)
        if result is None:
            raise CommandError(f"No content folder at {root}")
        self.stdout.write(result.summary())
        if result.refused:
            raise CommandError(f"{len(result.refused)} file(s) refused", returncode=1)
