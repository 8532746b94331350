from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "daifugo_site.rooms"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The play socket's error region says the rooms' refusals too.
        from daifugo_site import limits

        from .messages import MESSAGES

        for code, text in MESSAGES.items():
            limits.MESSAGES.setdefault(code, text)
