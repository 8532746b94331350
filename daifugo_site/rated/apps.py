from django.apps import AppConfig


class RatedConfig(AppConfig):
    name = "daifugo_site.rated"
    label = "rated"
    default_auto_field = "django.db.models.BigAutoField"
