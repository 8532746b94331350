"""A game's review (stored once done: the cache) and the hints a player asked for.

A review belongs to a game and the seat reviewed. Its ``items`` hold one entry per
reviewed decision (the log index and the search's figures, see
:func:`daifugo_site.review.analysis.review_decision`): numbers and move codes only, no
sentences, so one stored review reads in every language, and the position and the
effects are rebuilt from the game's log when the page is shown.

Games come from ``play.Game`` today (practice games); rooms and rated games will plug in
through :mod:`daifugo_site.review.sources`, which says which games may be reviewed, by
whom, and whether hints are allowed.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Review(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    # Decisions to review, and the items found so far (a restarted job resumes here).
    total = models.PositiveIntegerField(default=0)
    items = models.JSONField(default=list, blank=True)
    # The budget the review ran with (worlds per candidate), for the record.
    worlds = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_review_per_seat")]
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")

    def __str__(self) -> str:
        return f"review of {self.game_id} seat {self.seat} ({self.status})"

    @property
    def done(self) -> int:
        return len(self.items)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0


class Hint(models.Model):
    """One hint: the game, the table version it was asked at, and what was suggested.
    Asking twice at one version counts once."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="hints")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    result = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "version"], name="one_hint_per_turn")
        ]
        verbose_name = _("hint")
        verbose_name_plural = _("hints")

    def __str__(self) -> str:
        return f"hint in {self.game_id} at {self.version}"
