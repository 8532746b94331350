"""``manage.py load_site_content``: load every app's content data into the database.

Run by ``make run`` and ``make test`` after ``migrate``. An app takes part by giving its
AppConfig a method::

    def load_site_content(self, *, verbosity: int = 1) -> str:
        ...  # read the app's data files, update the database idempotently
        return "12 rule pages"  # a short summary for the log

Loaders must be idempotent (running twice changes nothing) since every ``make`` runs them.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Load content data files for every app that defines AppConfig.load_site_content."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--app", action="append", default=[], help="Only this app label (repeatable)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted: list[str] = options["app"]
        verbosity: int = options["verbosity"]
        for label in wanted:
            try:
                apps.get_app_config(label)
            except LookupError as error:
                raise CommandError(f"No installed app with label {label!r}") from error
        loaded = 0
        for app_config in apps.get_app_configs():
            loader = getattr(app_config, "load_site_content", None)
            if not callable(loader) or (wanted and app_config.label not in wanted):
                continue
            summary = loader(verbosity=verbosity)
            loaded += 1
            self.stdout.write(f"{app_config.label}: {summary or 'loaded'}")
        if loaded == 0:
            self.stdout.write("No app has content to load yet.")
