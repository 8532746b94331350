"""Lessons, their steps, and each visitor's progress.

A lesson is data (tutorials/content/*.toml, loaded by :mod:`tutorials.loader`, or edited in
the admin); the rules engine judges every step (:mod:`tutorials.validation`). Text fields
are translated with modeltranslation (``title_zh_hans``, ``title_ja``, …; see
translation.py). The non-text parts of a step live in two JSON fields:

- ``table``: how the shown table state is reached, like a scenario: ``hands`` (seat 0 is
  the learner), optional ``leader``, ``revolution``, ``previous``, ``plays`` (play / pass /
  give steps replayed through the engine) and ``show_hands`` (show every hand face up;
  puzzles do by default).
- ``data``: per kind: play ``accept`` or ``goal``; watch ``script`` (one action per
  :class:`ScriptLine`, same order); legal ``answer``; puzzle ``place``, ``solution``,
  ``unique``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Category(models.TextChoices):
    BASICS = "basics", pgettext_lazy("lesson category", "Basics")
    LOCAL_RULES = "local-rules", pgettext_lazy("lesson category", "Local rules")
    THE_ROUND = "the-round", pgettext_lazy("lesson category", "The round")
    STRATEGY = "strategy", pgettext_lazy("lesson category", "Strategy")
    PUZZLES = "puzzles", pgettext_lazy("lesson category", "Puzzles")


class Kind(models.TextChoices):
    EXPLAIN = "explain", pgettext_lazy("step kind", "Explanation")
    WATCH = "watch", pgettext_lazy("step kind", "Watch")
    PLAY = "play", pgettext_lazy("step kind", "Your move")
    CHOOSE = "choose", pgettext_lazy("step kind", "Question")
    LEGAL = "legal", pgettext_lazy("step kind", "Which plays are legal?")
    PUZZLE = "puzzle", pgettext_lazy("step kind", "Puzzle")


#: Steps the learner answers (the first of these is what the rules pages embed).
INTERACTIVE_KINDS = (Kind.PLAY, Kind.CHOOSE, Kind.LEGAL, Kind.PUZZLE)


class Lesson(models.Model):
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    order = models.IntegerField(_("order"), default=0)
    category = models.CharField(_("category"), max_length=20, choices=Category.choices)
    difficulty = models.PositiveSmallIntegerField(
        _("difficulty"), null=True, blank=True, help_text=_("Puzzles only: 1 (easy) to 5.")
    )
    rules = models.JSONField(
        _("rules"),
        default=dict,
        help_text=_('A preset and overrides: {"preset": "standard"}.'),
    )
    section = models.SlugField(
        _("rules section"),
        max_length=80,
        blank=True,
        help_text=_("Slug of the rules section this lesson belongs to (optional)."),
    )
    title = models.CharField(_("title"), max_length=200)
    summary = models.TextField(_("summary"), blank=True)
    # Set by the loader: the file the lesson came from and a hash of its content, so that
    # loading again changes nothing unless the file did. Empty for admin-made lessons.
    source = models.CharField(_("source file"), max_length=300, blank=True, editable=False)
    source_hash = models.CharField(max_length=64, blank=True, editable=False)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("lesson")
        verbose_name_plural = _("lessons")

    def __str__(self) -> str:
        return f"{self.slug}: {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("tutorials:lesson", args=[self.slug])

    @property
    def is_puzzle(self) -> bool:
        return self.category == Category.PUZZLES

    @property
    def preset(self) -> str:
        rules = self.rules if isinstance(self.rules, dict) else {}
        return str(rules.get("preset", "basic"))


class Step(models.Model):
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="steps")
    order = models.PositiveIntegerField(_("order"), default=0)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    table = models.JSONField(_("table"), null=True, blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)
    text = models.TextField(_("text"), blank=True)
    prompt = models.TextField(_("prompt"), blank=True)
    question = models.TextField(_("question"), blank=True)
    hint1 = models.TextField(_("first hint"), blank=True)
    hint2 = models.TextField(_("second hint"), blank=True)
    right = models.TextField(_("why the answer is right"), blank=True)
    other = models.TextField(_("explanation for other wrong moves"), blank=True)

    class Meta:
        ordering = ["lesson", "order", "id"]
        verbose_name = _("step")
        verbose_name_plural = _("steps")

    def __str__(self) -> str:
        return f"{self.lesson.slug} #{self.order} ({self.kind})"

    @property
    def is_interactive(self) -> bool:
        return self.kind in INTERACTIVE_KINDS


class ScriptLine(models.Model):
    """A caption for one scripted action of a watch step (the action is ``step.data``)."""

    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="script_lines")
    order = models.PositiveIntegerField(_("order"), default=0)
    caption = models.TextField(_("caption"), blank=True)

    class Meta:
        ordering = ["step", "order", "id"]
        verbose_name = _("script line")
        verbose_name_plural = _("script lines")

    def __str__(self) -> str:
        return f"{self.step} line {self.order}"


class WrongMove(models.Model):
    """A tempting legal move that is not the answer, with its own explanation."""

    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="wrong_moves")
    move = models.CharField(_("move"), max_length=100)
    text = models.TextField(_("explanation"), blank=True)

    class Meta:
        ordering = ["step", "id"]
        verbose_name = _("tempting wrong move")
        verbose_name_plural = _("tempting wrong moves")

    def __str__(self) -> str:
        return f"{self.step}: {self.move}"


class Choice(models.Model):
    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="choices")
    order = models.PositiveIntegerField(_("order"), default=0)
    text = models.TextField(_("text"))
    explain = models.TextField(_("explanation"), blank=True)
    correct = models.BooleanField(_("correct"), default=False)
    # The TOML key is `check`; `check` itself is taken by Django (Model.check()).
    engine_check = models.JSONField(
        _("engine check"),
        null=True,
        blank=True,
        help_text=_("Scenario expect keys: hold if correct, fail if wrong."),
    )

    class Meta:
        ordering = ["step", "order", "id"]
        verbose_name = _("choice")
        verbose_name_plural = _("choices")

    def __str__(self) -> str:
        return f"{self.step} choice {self.order}"


class Progress(models.Model):
    """One visitor's place in one lesson.

    ``session_token`` is a random id kept in the visitor's session (it survives the session
    key changing at login, and the language changing); ``user`` is set for a signed-in
    visitor. ``state`` holds each step's answers, tries and hints (:mod:`tutorials.progress`).
    """

    session_token = models.CharField(max_length=64, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="progress")
    step_index = models.PositiveIntegerField(default=0)
    stars = models.PositiveSmallIntegerField(default=3)
    completed = models.BooleanField(default=False)
    hints_used = models.PositiveSmallIntegerField(default=0)
    state = models.JSONField(default=dict, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("progress")
        verbose_name_plural = _("progress")
        constraints = [
            models.UniqueConstraint(
                fields=["session_token", "lesson"],
                condition=models.Q(user__isnull=True),
                name="tutorials_progress_one_per_session",
            ),
            models.UniqueConstraint(
                fields=["user", "lesson"],
                condition=models.Q(user__isnull=False),
                name="tutorials_progress_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        who: Any = self.user or self.session_token[:8]
        return f"{who} · {self.lesson.slug} · step {self.step_index}"


class PlayerPuzzle(models.Model):
    """A puzzle made from a position of a player's game, in one of two ways:

    - from a review (daifugo_site/review/puzzles.py): its lesson (category puzzles, built
      and validated by the same code as the tutor's own puzzles) can be opened by its link
      at once; the tutor's list shows it under "from players' games" once approved;
    - found by the miner in finished games (:mod:`tutorials.mine_games`): ``record`` holds
      the miner's proven record and there is no lesson at all until an admin approves it;
      approving makes it a live mined puzzle (``lesson`` and its ``MinedPuzzle``), rated and
      served like the others. A rejected one waits for ``manage.py purge``.
    """

    lesson = models.OneToOneField(
        Lesson, on_delete=models.CASCADE, related_name="player_puzzle", null=True, blank=True
    )
    approved = models.BooleanField(_("approved"), default=False)
    rejected = models.BooleanField(_("rejected"), default=False)
    # Where it came from: the game and the action index of the decision.
    game_id = models.CharField(_("game"), max_length=16, db_index=True)
    action_index = models.PositiveIntegerField(_("action index"))
    # Mined ones: the miner's record (table, solution, line, themes, rating: no names) and
    # a digest of the position up to suit symmetry (tutorials.mine.canonical_key), so
    # the same position is never a candidate twice.
    record = models.JSONField(_("mined record"), null=True, blank=True, editable=False)
    position = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    decided = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("puzzle from a player's game")
        verbose_name_plural = _("puzzles from players' games")
        constraints = [
            models.UniqueConstraint(
                fields=["game_id", "action_index"], name="one_puzzle_per_position"
            )
        ]

    def __str__(self) -> str:
        state = "approved" if self.approved else "rejected" if self.rejected else "waiting"
        name = self.lesson.slug if self.lesson is not None else f"candidate {self.pk}"
        return f"{name} ({state})"


class GameScan(models.Model):
    """A finished game the miner looked at (:mod:`tutorials.mine_games`): each game once.
    Goes with its game (``manage.py purge`` deletes finished games after a month)."""

    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, primary_key=True, related_name="puzzle_scan"
    )
    scanned = models.DateTimeField(auto_now_add=True)
    # Why it was not mined ("" if it was): opted-out, rules, no-people, broken.
    skipped = models.CharField(max_length=20, blank=True)
    tried = models.PositiveIntegerField(default=0)
    kept = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)

    class Meta:
        verbose_name = _("game scanned for puzzles")
        verbose_name_plural = _("games scanned for puzzles")

    def __str__(self) -> str:
        return f"scan of {self.game_id}: {self.kept}/{self.tried} {self.skipped}"


class MinedPuzzle(models.Model):
    """A puzzle found by the miner (:mod:`tutorials.mine`) in games between computer players.

    Its position and step are a tutor lesson (``lesson``: the tutor's table, moves, defence
    and refutations serve it); this row adds what makes it one of many: its themes, the
    solution line, and a rating that moves with every attempt like a player's.
    """

    key = models.CharField(_("key"), max_length=40, unique=True)
    lesson = models.OneToOneField(Lesson, on_delete=models.CASCADE, related_name="mined")
    preset = models.CharField(_("rules"), max_length=20)
    players = models.PositiveSmallIntegerField(_("players"))
    place = models.PositiveSmallIntegerField(_("goal place"))
    solution = models.CharField(_("solution"), max_length=100)
    line = models.JSONField(_("solution line"), default=list)
    # ",eight-cut,counting," so that one theme is a plain substring filter on any database.
    themes = models.CharField(_("themes"), max_length=200)
    length = models.PositiveSmallIntegerField(_("length"))
    rating = models.FloatField(_("rating"), db_index=True)
    deviation = models.FloatField(_("rating deviation"), default=350.0)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    solves = models.PositiveIntegerField(_("solves"), default=0)
    digest = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["key"]
        verbose_name = _("mined puzzle")
        verbose_name_plural = _("mined puzzles")

    def __str__(self) -> str:
        return f"{self.key} ({round(self.rating)})"

    @property
    def theme_list(self) -> list[str]:
        return [t for t in self.themes.split(",") if t]


class PuzzlePlayer(models.Model):
    """A visitor's puzzle rating (a guest by session token, adopted on sign-up)."""

    session_token = models.CharField(max_length=64, blank=True, db_index=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="puzzle_player",
    )
    rating = models.FloatField(_("rating"), default=1500.0)
    deviation = models.FloatField(_("rating deviation"), default=350.0)
    streak = models.PositiveIntegerField(_("current streak"), default=0)
    best_streak = models.PositiveIntegerField(_("best streak"), default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("puzzle player")
        verbose_name_plural = _("puzzle players")

    def __str__(self) -> str:
        who: Any = self.user or self.session_token[:8]
        return f"{who} · {round(self.rating)}"


class PuzzleAttempt(models.Model):
    """One rated attempt: a player meets a puzzle once (the first answer decides it)."""

    player = models.ForeignKey(PuzzlePlayer, on_delete=models.CASCADE, related_name="attempts")
    puzzle = models.ForeignKey(MinedPuzzle, on_delete=models.CASCADE, related_name="tries")
    solved = models.BooleanField(_("solved"))
    mode = models.CharField(_("mode"), max_length=10, default="rated")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    puzzle_before = models.FloatField()
    puzzle_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [
            models.UniqueConstraint(fields=["player", "puzzle"], name="one_attempt_per_puzzle")
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.puzzle.key} · {'solved' if self.solved else 'failed'}"
