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

from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import models
from django.utils import timezone

from daifugo_site.play.models import Game
from tutorials.models import Progress


def _cutoff(days: int) -> Any:
    return timezone.now() - timedelta(days=days)


def _delete_in_batches(queryset: models.QuerySet[Any], batch: int) -> int:
    deleted = 0
    while True:
        keys = list(queryset.values_list("pk", flat=True)[:batch])
        if not keys:
            return deleted
        queryset.model._default_manager.filter(pk__in=keys).delete()
        deleted += len(keys)


def stale_querysets() -> dict[str, models.QuerySet[Any]]:
    """What the settings say is old now, by name (settings of 0 are left out)."""
    found: dict[str, models.QuerySet[Any]] = {}
    unfinished = int(settings.PURGE_UNFINISHED_GAMES_DAYS)
    if unfinished > 0:
        found["unfinished games"] = Game.objects.exclude(status=Game.Status.FINISHED).filter(
            updated__lt=_cutoff(unfinished)
        )
    finished = int(settings.PURGE_FINISHED_GAMES_DAYS)
    if finished > 0:
        # Rated games stay: the players' rating histories link to their replays.
        found["finished games"] = Game.objects.filter(
            status=Game.Status.FINISHED, updated__lt=_cutoff(finished), rated__isnull=True
        )
    site_stats = int(getattr(settings, "PURGE_SITE_STATS_DAYS", 0))
    if site_stats > 0:
        from daifugo_site.accounts.models import SiteStat

        found["anonymous game statistics"] = SiteStat.objects.filter(
            created__lt=_cutoff(site_stats)
        )
        from daifugo_site.accounts.models import ClientTally

        # The pages' tallies of games that never ended (an ended game folds its own).
        found["page tallies of unfinished games"] = ClientTally.objects.filter(
            created__lt=_cutoff(site_stats)
        )
    from daifugo_site.rooms.presence import dead_connections

    # Open-page rows of room seats that no live worker renews (a worker killed mid-game).
    found["dead room connections"] = dead_connections()
    guests = int(settings.PURGE_GUEST_PROGRESS_DAYS)
    if guests > 0:
        found["guest lesson progress"] = Progress.objects.filter(
            user__isnull=True, updated__lt=_cutoff(guests)
        )
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
