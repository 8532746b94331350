from typing import Any

from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "daifugo_site.play"
    label = "play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The computers' driver plugs into the move path (services does not import it).
        from . import computers, hooks

        hooks.driver = computers.request_turn
        # The quick messages' refusals, said in the play page's error region.
        from daifugo_site import limits

        from .phrases import MESSAGES

        for code, text in MESSAGES.items():
            limits.MESSAGES.setdefault(code, text)
        # The table's words with a context, for its Jinja2 fragments (jinja2/play/table.html).
        from daifugo_site.ui import jinja

        from . import words

        jinja.register("words", words)

    def stale_querysets(self) -> dict[str, Any]:
        """What ``manage.py purge`` deletes of this app's rows (settings of 0 keep them)."""
        from django.conf import settings

        from .models import Game

        found: dict[str, Any] = {}
        unfinished = int(settings.PURGE_UNFINISHED_GAMES_DAYS)
        if unfinished > 0:
            found["unfinished games"] = Game.objects.exclude(status=Game.Status.FINISHED).filter(
                updated__lt=cutoff(unfinished)
            )
        finished = int(settings.PURGE_FINISHED_GAMES_DAYS)
        if finished > 0:
            # Rated games stay: the players' rating histories link to their replays.
            found["finished games"] = Game.objects.filter(
                status=Game.Status.FINISHED, updated__lt=cutoff(finished), rated__isnull=True
            )
        return found


def cutoff(days: int) -> Any:
    """The time before which a row of ``days`` days' keeping is old (housekeeping)."""
    from datetime import timedelta

    from django.utils import timezone

    return timezone.now() - timedelta(days=days)
