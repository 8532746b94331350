"""A player's account: the profile beside django.contrib.auth's user, and their statistics.

The user row is allauth's (e-mail address + password); what the site shows is here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX = 24


def generated_name(language: str | None = None) -> str:
    """A new account's display name: a word and four random digits, in the account's
    language. Never anything taken from the e-mail address, which no one else may see
    (issue 45; the local part was the default before)."""
    import secrets

    from django.utils import translation

    number = f"{secrets.randbelow(9000) + 1000}"
    with translation.override(language or translation.get_language() or settings.LANGUAGE_CODE):
        return translation.gettext("Card player %(n)s") % {"n": number}


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX)
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # Off: nothing about this account's games is recorded (and what was is deleted).
    statistics = models.BooleanField(_("record my game statistics"), default=True)
    # The practice games' owner token (play.services.PLAYER_TOKEN_KEY) of this account:
    # every browser signed in to the account uses it, so its games follow the account.
    player_token = models.CharField(max_length=64, blank=True, db_index=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name


class GameResult(models.Model):
    """One finished game of one account, for its statistics (only while ``statistics`` is
    on). Holds no cards or moves: the kind, rules preset, table size, place and counts."""

    class Kind(models.TextChoices):
        PRACTICE = "practice", _("practice")
        RATED = "rated", _("rated")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_results"
    )
    game_id = models.CharField(max_length=16)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    preset = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    # The final standing in the match (1 = won), and the mean finishing place of its rounds.
    place = models.PositiveSmallIntegerField()
    average_place = models.FloatField()
    revolutions = models.PositiveSmallIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    finished = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-finished"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game_id"], name="accounts_result_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} · {self.game_id} · {self.place}"


class SiteStat(models.Model):
    """One finished game, anonymously, for the public statistics page. Never a token, an
    account, a move, a card or an address: only what the table was and how it went."""

    created = models.DateTimeField(auto_now_add=True, db_index=True)
    kind = models.CharField(max_length=10)  # practice, rated
    preset = models.CharField(max_length=20)
    changed = models.JSONField(default=list)  # names of the options changed from the preset
    players = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    levels = models.JSONField(default=list)  # the computer seats' levels
    moves = models.PositiveIntegerField()
    revolutions = models.PositiveSmallIntegerField()
    # Rounds whose first leader finished first, of all rounds played.
    first_leader_wins = models.PositiveSmallIntegerField()
    duration = models.CharField(max_length=10)  # a bucket: "<5m", "5-15m", "15-30m", "30m+"
    # From the players' pages (daifugo_site/accounts/client.py): how often a page's socket
    # connected again, how many rendering failures the pages reported, and each page's
    # device class: {"phone": bool, "memory": bucket, "cores": bucket, "browser": family,
    # "os": family} (at most one per seat; no version, no exact figure).
    reconnects = models.PositiveIntegerField(default=0)
    render_failures = models.PositiveIntegerField(default=0)
    devices = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"{self.kind} {self.preset} {self.players}p"


class StatsOptOut(models.Model):
    """A browser that turned statistics off (its practice games' owner token, hashed)."""

    token_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.token_hash[:8]


class ClientTally(models.Model):
    """What one player's pages of a game in progress told the server, until the game ends
    and it is folded into its :class:`SiteStat` (then deleted; ``manage.py purge`` deletes
    those of games that never ended). One row per (game, seat), so bounded by the seats;
    only for a person whose statistics are on. No token, account, address or version."""

    game_id = models.CharField(max_length=16)
    seat = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    connects = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    phone = models.BooleanField(null=True)
    memory = models.CharField(max_length=8, blank=True)
    cores = models.CharField(max_length=8, blank=True)
    browser = models.CharField(max_length=16, blank=True)
    os = models.CharField(max_length=16, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game_id", "seat"], name="accounts_tally_once")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seat}"
