"""Puzzle ratings: every attempt is a rated game between a player and a puzzle.

The model is the rated 1v1's (:mod:`daifugo_site.ratings`, OpenSkill on a Glicko-like
scale): solving is the player beating the puzzle, failing the puzzle beating the player,
and both ratings move. A player is a signed-in user or a guest's session token (adopted on
sign-up, :func:`adopt`). A player meets a puzzle once: the attempt is unique per player
and puzzle, so a replayed answer changes nothing.

The next puzzle is chosen near the player's rating among those not met yet; the puzzle of
the day is a pure function of the date (the same for everyone, on every worker).
"""

from __future__ import annotations

import datetime
import hashlib
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest

from daifugo_site.ratings import rate_1v1

from .models import MinedPuzzle, PuzzleAttempt, PuzzlePlayer
from .progress import TOKEN_KEY, visitor_token

#: How far from the player's rating the next puzzle is looked for first, then wider.
WINDOWS = (100, 200, 400, 800, 5000)


def _user(request: HttpRequest) -> Any:
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def player_for(request: HttpRequest, create: bool = True) -> PuzzlePlayer | None:
    """This visitor's puzzle player (made on first use when ``create``)."""
    user = _user(request)
    if user is not None:
        found = PuzzlePlayer.objects.filter(user=user).first()
        if found is not None or not create:
            return found
        try:
            with transaction.atomic():
                return PuzzlePlayer.objects.create(user=user)
        except IntegrityError:  # two first requests at once
            return PuzzlePlayer.objects.get(user=user)
    token = visitor_token(request, create=create)
    if not token:
        return None
    found = PuzzlePlayer.objects.filter(session_token=token, user__isnull=True).first()
    if found is None and create:
        found = PuzzlePlayer.objects.create(session_token=token)
    return found


def adopt(session: Any, user: Any) -> None:
    """On sign-in: the guest's puzzle rating and attempts become the user's (unless the
    user already has a rating of their own, which then stays)."""
    token = session.get(TOKEN_KEY)
    if not token:
        return
    guest = PuzzlePlayer.objects.filter(session_token=token, user__isnull=True).first()
    if guest is None or PuzzlePlayer.objects.filter(user=user).exists():
        return
    guest.user = user
    guest.save(update_fields=["user", "updated"])


@dataclass
class Result:
    attempt: PuzzleAttempt
    new: bool  # False: the puzzle had been met before, nothing changed


def record(player: PuzzlePlayer, puzzle: MinedPuzzle, solved: bool, mode: str = "rated") -> Result:
    """Rate one attempt (once per player and puzzle): both ratings move."""
    try:
        return _record(player, puzzle, solved, mode)
    except IntegrityError:  # the same attempt from two requests at once: the first counted
        return Result(PuzzleAttempt.objects.get(player=player, puzzle=puzzle), False)


def _record(player: PuzzlePlayer, puzzle: MinedPuzzle, solved: bool, mode: str) -> Result:
    with transaction.atomic():
        # Locked rows: two answers at once cannot both count, nor lose an update.
        player = PuzzlePlayer.objects.select_for_update().get(pk=player.pk)
        puzzle = MinedPuzzle.objects.select_for_update().get(pk=puzzle.pk)
        existing = PuzzleAttempt.objects.filter(player=player, puzzle=puzzle).first()
        if existing is not None:
            return Result(existing, False)
        me = (player.rating, player.deviation)
        it = (puzzle.rating, puzzle.deviation)
        if solved:
            me2, it2 = rate_1v1(me, it)
        else:
            it2, me2 = rate_1v1(it, me)
        attempt = PuzzleAttempt.objects.create(
            player=player,
            puzzle=puzzle,
            solved=solved,
            mode=mode,
            rating_before=player.rating,
            rating_after=me2[0],
            puzzle_before=puzzle.rating,
            puzzle_after=it2[0],
        )
        player.rating, player.deviation = me2
        if mode == "streak":
            player.streak = player.streak + 1 if solved else 0
            player.best_streak = max(player.best_streak, player.streak)
        player.save()
        puzzle.rating, puzzle.deviation = it2
        puzzle.attempts += 1
        puzzle.solves += int(solved)
        puzzle.save(update_fields=["rating", "deviation", "attempts", "solves"])
    return Result(attempt, True)


def next_puzzle(
    player: PuzzlePlayer | None,
    theme: str | None = None,
    rng: random.Random | None = None,
    exclude: tuple[str, ...] = (),
) -> MinedPuzzle | None:
    """A puzzle near the player's rating that they have not met (nor been served), within
    the narrowest window that has one; any unmet one if none."""
    rng = rng or random.Random()
    rating = player.rating if player is not None else 1500.0
    qs = MinedPuzzle.objects.all()
    if theme:
        qs = qs.filter(themes__contains=f",{theme},")
    if player is not None and player.pk is not None:
        qs = qs.exclude(tries__player=player)
    if exclude:
        qs = qs.exclude(key__in=list(exclude))
    for width in WINDOWS:
        near = qs.filter(rating__gte=rating - width, rating__lte=rating + width)
        total = near.count()
        if total:
            return near.order_by("key")[rng.randrange(total)]
    return None


def daily(day: datetime.date) -> MinedPuzzle | None:
    """The puzzle of the day: chosen from the date alone (a hash, not a random generator
    nor the process), so every worker and every visitor gets the same one."""
    total = MinedPuzzle.objects.count()
    if not total:
        return None
    index = int(hashlib.sha256(f"daifugo-daily-{day.isoformat()}".encode()).hexdigest(), 16)
    return MinedPuzzle.objects.order_by("key")[index % total]


@dataclass
class ThemeStat:
    theme: str
    tried: int
    solved: int

    @property
    def rate(self) -> float:
        return self.solved / self.tried if self.tried else 0.0


def dashboard(player: PuzzlePlayer | None) -> dict[str, Any]:
    """Rating history (oldest first) and per-theme results, strongest first."""
    if player is None or player.pk is None:
        return {"history": [], "themes": [], "tried": 0, "solved": 0}
    attempts = list(
        PuzzleAttempt.objects.filter(player=player)
        .select_related("puzzle")
        .order_by("created", "id")[:2000]
    )
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for a in attempts:
        for theme in a.puzzle.theme_list:
            stats[theme][0] += 1
            stats[theme][1] += int(a.solved)
    themes = sorted(
        (ThemeStat(t, n, s) for t, (n, s) in stats.items()),
        key=lambda st: (-st.rate, -st.tried, st.theme),
    )
    return {
        "history": attempts,
        "themes": themes,
        "tried": len(attempts),
        "solved": sum(1 for a in attempts if a.solved),
    }
