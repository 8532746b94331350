from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "daifugo_site.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from daifugo_site.play import services

        from . import signals, stats

        signals.connect()
        # Practice games' statistics are recorded when the game ends (services.apply_action).
        services.FINISH_HOOKS.append(stats.record_finished_game)
