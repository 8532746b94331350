from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TutorialsConfig(AppConfig):
    """Interactive lessons and puzzles, judged by the rules engine (``tutorials:index``)."""

    name = "tutorials"
    verbose_name = _("Lessons")

    def load_site_content(self, *, verbosity: int = 1) -> str:
        """Load tutorials/content/ (see :mod:`tutorials.loader`); skip if it is not there."""
        from .loader import content_dir, load_content
        from .mined import load_mined

        result = load_content(verbosity=verbosity)
        if result is None:
            return f"skipped: no content folder yet ({content_dir()})"
        return f"{result.summary()}; {load_mined()}"

    def stale_querysets(self) -> dict[str, Any]:
        """What ``manage.py purge`` deletes: guests' lesson progress not written for
        PURGE_GUEST_PROGRESS_DAYS days (a signed-in user's progress is theirs and stays),
        and candidate puzzles from players' games rejected PURGE_REJECTED_PUZZLES_DAYS ago."""
        from datetime import timedelta

        from django.conf import settings
        from django.utils import timezone

        from .models import PlayerPuzzle, Progress

        stale: dict[str, Any] = {}
        days = int(settings.PURGE_GUEST_PROGRESS_DAYS)
        if days > 0:
            since = timezone.now() - timedelta(days=days)
            stale["guest lesson progress"] = Progress.objects.filter(
                user__isnull=True, updated__lt=since
            )
        # Candidates an admin rejected (mined from players' games; never on the site).
        days = int(getattr(settings, "PURGE_REJECTED_PUZZLES_DAYS", 30))
        if days > 0:
            since = timezone.now() - timedelta(days=days)
            stale["rejected puzzles from players' games"] = PlayerPuzzle.objects.filter(
                rejected=True, lesson__isnull=True, decided__lt=since
            )
        return stale
