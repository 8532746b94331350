from django.apps import AppConfig


class RatedConfig(AppConfig):
    name = "daifugo_site.rated"
    label = "rated"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.utils.translation import gettext_lazy as _

        from daifugo_site import limits
        from daifugo_site.play import services as play

        from . import services

        play.FINISH_HOOKS.append(services.on_game_finished)
        # The review asks a rated game's seats through its hook (it imports nothing of rated).
        from daifugo_site.review import sources

        sources.rated_seat = services.review_seat
        limits.MESSAGES.setdefault("game_over", _("This game is over."))
        limits.MESSAGES.setdefault("not_signed_in", _("Sign in to play rated games."))
