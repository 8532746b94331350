from django.apps import AppConfig


class UiConfig(AppConfig):
    """Shared UI pieces: the card component and the layout's template tags."""

    name = "daifugo_site.ui"
    label = "ui"
