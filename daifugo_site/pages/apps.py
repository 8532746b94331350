from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The home page and other plain pages, plus the site-wide management commands."""

    name = "daifugo_site.pages"
    label = "pages"
