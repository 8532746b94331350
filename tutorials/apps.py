from django.apps import AppConfig


class TutorialsConfig(AppConfig):
    """Interactive lessons. Its pages and routes (``tutorials:index``) come with their issue."""

    name = "tutorials"
