from typing import Any

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "daifugo_site.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from daifugo_site.play import services

        from . import signals, sitestats

        signals.connect()
        # Practice games' statistics are recorded when the game ends (services.apply_action).
        services.FINISH_HOOKS.append(sitestats.record_finished_game)
        # A player's page counts for the anonymous statistics (play/consumers.py asks).
        from daifugo_site.play import hooks

        from . import client

        hooks.page_statistics = client  # type: ignore[assignment]
        # The tutor mines players' finished games only where nobody opted out.
        from tutorials import hooks as tutor_hooks

        tutor_hooks.game_opted_out = sitestats.game_opted_out

    def stale_querysets(self) -> dict[str, Any]:
        """What ``manage.py purge`` deletes: anonymous statistics, and the pages' tallies of
        games that never ended (an ended game folds its own), after PURGE_SITE_STATS_DAYS."""
        from django.conf import settings

        from daifugo_site.play.apps import cutoff

        from .models import ClientTally, SiteStat

        days = int(getattr(settings, "PURGE_SITE_STATS_DAYS", 0))
        if days <= 0:
            return {}
        return {
            "anonymous game statistics": SiteStat.objects.filter(created__lt=cutoff(days)),
            "page tallies of unfinished games": ClientTally.objects.filter(
                created__lt=cutoff(days)
            ),
        }
