"""The rated 1v1: ratings and their history, the queue, and each rated game's seats/clock.

The game itself is a ``play.Game`` (rules, seed, log; the engine replays it); a
:class:`RatedGame` beside it names the two accounts, keeps the move clock and, once, the
result. ``RatingChange`` is the history: one row per player per rated game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from daifugo_site.play.models import Game


class Rating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField(default=1500.0)
    sigma = models.FloatField(default=350.0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [models.Index(fields=["-mu"])]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.mu:.0f} ± {self.sigma:.0f}"

    @property
    def provisional(self) -> bool:
        return self.games < settings.RATED_PROVISIONAL_GAMES

    @property
    def shown(self) -> int:
        return round(self.mu)


class QueueEntry(models.Model):
    """A signed-in player waiting for an opponent (one row per account at most)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    mu = models.FloatField()
    joined = models.DateTimeField()
    # The waiting page asks every second; an entry not asked for lately (the page was
    # closed) is not paired, so nobody is put in a game with someone who left.
    seen = models.DateTimeField(null=True, blank=True)
    # Set when paired: the page that waits finds its game here.
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["joined"]

    def __str__(self) -> str:
        return f"queue {self.user_id} ({self.mu:.0f})"


class RatedGame(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    class End(models.TextChoices):
        OUT = "out", _("went out first")
        RESIGNED = "resigned", _("resigned")
        ABANDONED = "abandoned", _("left the game")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="rated"
    )
    seat0 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seat1 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # The move clock is the shared turn clock (play/clock.py: a limit in each seat entry,
    # the deadline from the game's last write); the computer plays a turn that runs out.
    # Per seat: since when (ISO time) no page of that player is open, or None.
    away_since = models.JSONField(default=list)
    # The result, written once (RatedGame.objects.filter(status=PLAYING).update(...)).
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    end = models.CharField(max_length=10, choices=End.choices, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"rated {self.game_id} ({self.status})"

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        if user_id == self.seat0_id:
            return 0
        if user_id == self.seat1_id:
            return 1
        return None

    def user_id_at(self, seat: int) -> int:
        return int(self.seat0_id if seat == 0 else self.seat1_id)


class RatingChange(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    won = models.BooleanField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rated_change_once")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.mu_before:.0f} -> {self.mu_after:.0f}"
