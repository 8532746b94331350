from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "daifugo_site.play"
    label = "play"
    default_auto_field = "django.db.models.BigAutoField"
