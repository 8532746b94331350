from django.apps import AppConfig


class ReviewConfig(AppConfig):
    """Learning from one's own games: the review, hints, the rules checker."""

    name = "daifugo_site.review"
    label = "review"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A review's job runs on the computer workers (play/workers.py asks its hooks).
        from daifugo_site.play import hooks

        from . import services

        hooks.worker_jobs["review.start"] = services.start_job_message
        # The table's hint button asks whether a game offers hints (jinja2/play/table.html).
        from daifugo_site.ui import jinja

        from .sources import hints_offered

        jinja.register("hints_offered", hints_offered)
