from django.apps import AppConfig


class ReviewConfig(AppConfig):
    """Learning from one's own games: the review, hints, the rules checker."""

    name = "daifugo_site.review"
    label = "review"
    default_auto_field = "django.db.models.BigAutoField"
