"""``manage.py purge``: delete what nobody can reach any more (run it daily, see README).

- expired sessions (the session engine's own ``clear_expired``);
- unfinished games not written for ``PURGE_UNFINISHED_GAMES_DAYS`` days (abandoned);
- finished games not written for ``PURGE_FINISHED_GAMES_DAYS`` days (not rated games: the
  rating histories link to them);
- anonymous game statistics (and the pages' tallies of games that never ended) older than
  ``PURGE_SITE_STATS_DAYS`` days;
- open-page rows of room seats whose worker died (``rooms.presence``);
- guests' lesson progress not written for ``PURGE_GUEST_PROGRESS_DAYS`` days (a signed-in
  user's progress is theirs and stays).

A setting of 0 keeps those rows forever. Deletes run in batches of ``PURGE_BATCH_SIZE``
rows, each its own statement, so a large backlog never locks a table for long. ``--dry-run``
counts without deleting. Idempotent: a second run right after deletes nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import models
from django.utils import timezone


def _delete_in_batches(queryset: models.QuerySet[Any], batch: int) -> int:
    deleted = 0
    while True:
        keys = list(queryset.values_list("pk", flat=True)[:batch])
        if not keys:
            return deleted
        queryset.model._default_manager.filter(pk__in=keys).delete()
        deleted += len(keys)


def stale_querysets() -> dict[str, models.QuerySet[Any]]:
    """What the settings say is old now, by name: each app declares what it keeps and for
    how long (``AppConfig.stale_querysets``), so this command knows no app's models."""
    found: dict[str, models.QuerySet[Any]] = {}
    for config in apps.get_app_configs():
        declared = getattr(config, "stale_querysets", None)
        if declared is not None:
            found.update(declared())
    return found


class Command(BaseCommand):
    help = "Delete expired sessions, abandoned and old games, and old guest progress."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Count, delete nothing.")

    def handle(self, *args: Any, **options: Any) -> None:
        dry_run: bool = options["dry_run"]
        batch = max(1, int(settings.PURGE_BATCH_SIZE))
        lines = []
        store = import_module(settings.SESSION_ENGINE).SessionStore
        expired: int | str = "?"
        if hasattr(store, "get_model_class"):  # the database engines: countable
            expired = store.get_model_class().objects.filter(expire_date__lt=timezone.now()).count()
        if dry_run:
            lines.append(f"expired sessions: {expired} would be deleted")
        else:
            store.clear_expired()
            lines.append(f"expired sessions: {expired} deleted")
        for name, queryset in stale_querysets().items():
            if dry_run:
                lines.append(f"{name}: {queryset.count()} would be deleted")
            else:
                lines.append(f"{name}: {_delete_in_batches(queryset, batch)} deleted")
        for line in lines:
            self.stdout.write(line)
