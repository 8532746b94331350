"""The rated 1v1: queue and pairing, the result (once), resignation and absence.

Every move goes through ``play.services.submit`` / ``apply_action`` (the engine, a
compare-and-swap on the log's version). Each seat has the shared turn clock
(play/clock.py, RATED_MOVE_SECONDS a move, then a reserve of RATED_RESERVE_SECONDS for
the whole game): when both run out the computer plays that turn for the seat. The move
that ends the game runs :func:`on_game_finished` inside its own transaction
(``services.FINISH_HOOKS``), so the result and both ratings are written with the end or
not at all. Resignation and absence end the game without a move; all three go through
:func:`finish`, whose guard (an UPDATE ... WHERE status = playing) lets exactly one
ending win: a result is written once.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from daifugo_site.accounts import sitestats
from daifugo_site.accounts.models import GameResult
from daifugo_site.accounts.signals import profile_for
from daifugo_site.accounts.stats import record as record_stats
from daifugo_site.play import clock
from daifugo_site.play import services as play
from daifugo_site.play.models import Game
from daifugo_site.ratings import START_MU, START_SIGMA, rate_1v1
from rules_engine import Match, RuleSet
from rules_engine.rules import ONE_ON_ONE

from .models import QueueEntry, RatedGame, Rating, RatingChange

log = logging.getLogger(__name__)


def rating_for(user: Any) -> Rating:
    rating, _ = Rating.objects.get_or_create(
        user=user, defaults={"mu": START_MU, "sigma": START_SIGMA}
    )
    return rating


def open_game_of(user: Any) -> RatedGame | None:
    return (
        RatedGame.objects.filter(status=RatedGame.Status.PLAYING)
        .filter(models_q_user(user))
        .first()
    )


def models_q_user(user: Any) -> Any:
    from django.db.models import Q

    return Q(seat0=user) | Q(seat1=user)


# -- the queue ----------------------------------------------------------------------------


def window(waited_s: float) -> float:
    """How far apart two ratings may be to pair, after waiting ``waited_s`` seconds:
    RATED_WINDOW_START, widening by RATED_WINDOW_PER_S each second, up to RATED_WINDOW_MAX."""
    return min(
        settings.RATED_WINDOW_MAX,
        settings.RATED_WINDOW_START + settings.RATED_WINDOW_PER_S * max(0.0, waited_s),
    )


def join_queue(user: Any) -> QueueEntry | RatedGame:
    """Put ``user`` in the queue (again: keeps their place), or their unfinished game."""
    game = open_game_of(user)
    if game is not None:
        return game
    rating = rating_for(user)
    now = timezone.now()
    entry, created = QueueEntry.objects.get_or_create(
        user=user, defaults={"mu": rating.mu, "joined": now, "seen": now}
    )
    if not created and entry.game_id is not None:
        # Paired before: that game is over (open_game_of found none), so queue anew.
        entry.game = None
        entry.mu = rating.mu
        entry.joined = entry.seen = now
        entry.save(update_fields=["game", "mu", "joined", "seen"])
    return entry


def leave_queue(user: Any) -> None:
    QueueEntry.objects.filter(user=user, game__isnull=True).delete()


def pair(user: Any, now: datetime.datetime | None = None) -> Game | None:
    """The game ``user`` was paired into: found, or made now with the closest waiting
    player whose rating is within the window (the wider of the two players' windows, so
    whoever waited longer widens it for both). None: still waiting (or not queued)."""
    now = now or timezone.now()
    with transaction.atomic():
        entry = QueueEntry.objects.select_related("game").filter(user=user).first()
        if entry is None:
            return None
        if entry.game is not None:
            return entry.game
        QueueEntry.objects.filter(pk=entry.pk).update(seen=now)
        mine = window((now - entry.joined).total_seconds())
        best: QueueEntry | None = None
        fresh = now - datetime.timedelta(seconds=settings.RATED_QUEUE_STALE_S)
        waiting = QueueEntry.objects.filter(game__isnull=True, seen__gte=fresh)
        for other in waiting.exclude(pk=entry.pk)[:200]:
            allowed = max(mine, window((now - other.joined).total_seconds()))
            gap = abs(other.mu - entry.mu)
            if gap <= allowed and (best is None or gap < abs(best.mu - entry.mu)):
                best = other
        if best is None:
            return None
        # The one who waited longer sits first (and so is seat 0 in the engine's deal).
        first, second = sorted([entry, best], key=lambda e: (e.joined, e.pk))
        game = create_rated_game(first.user, second.user)
        # Both rows at once, only if both are still free: two pages pairing at the same
        # moment cannot put one player in two games.
        taken = QueueEntry.objects.filter(pk__in=[entry.pk, best.pk], game__isnull=True).update(
            game=game.game
        )
        if taken != 2:
            transaction.set_rollback(True)
            return None
    return game.game


def review_seat(game: Game, user: Any) -> tuple[int | None, bool] | None:
    """For the review (``review.sources.rated_seat``): the seat ``user`` plays in the rated
    ``game`` (None: not a player) and whether it is over; None when it is not rated."""
    rated = RatedGame.objects.filter(pk=game.pk).first()
    if rated is None:
        return None
    seat = rated.seat_of(user.pk if user is not None and user.is_authenticated else None)
    return seat, rated.status == RatedGame.Status.FINISHED


def rated_rules() -> RuleSet:
    """RULES.md section 6: the standard preset, 13 cards each, the other 27 face down."""
    return RuleSet.from_json(ONE_ON_ONE)


def create_rated_game(user0: Any, user1: Any) -> RatedGame:
    seats = [
        {"kind": "human", "name": profile_for(user0).display_name},
        {"kind": "human", "name": profile_for(user1).display_name},
    ]
    rules = rated_rules()
    # No browser owns it as a practice game: the two accounts act through the rated socket.
    game = Game(
        owner=play.RATED_OWNER_PREFIX + secrets.token_urlsafe(12),
        rules=rules.to_json(),
        players=2,
        rounds=1,
        seats=clock.with_clock(seats, settings.RATED_MOVE_SECONDS, settings.RATED_RESERVE_SECONDS),
        human_seat=0,
        delay_ms=0,
    )
    Match.new(rules, 2, 1, game.seed)
    game.save()
    # Nobody's page is open yet: a player who never opens the game is absent from now.
    now = timezone.now().isoformat()
    return RatedGame.objects.create(game=game, seat0=user0, seat1=user1, away_since=[now, now])


# -- moves and endings --------------------------------------------------------------------


def load(game_id: str) -> tuple[RatedGame, Game, Match] | None:
    rated = RatedGame.objects.filter(pk=game_id).first()
    if rated is None:
        return None
    loaded = play.current(game_id)
    if loaded is None:
        return None
    return rated, loaded[0], loaded[1]


def on_game_finished(game: Game, match: Match) -> None:
    """play.services.FINISH_HOOKS: the move that ended a rated game (the player's own, or
    the computer's on a run-out clock) writes the result in its own transaction."""
    if not str(game.owner).startswith("rated:"):
        return
    winner = match.winner
    finish(game.id, 0 if winner is None else winner, RatedGame.End.OUT)


def playing(game_id: str) -> bool:
    return RatedGame.objects.filter(pk=game_id, status=RatedGame.Status.PLAYING).exists()


def forget(game_id: str) -> None:
    with play._CACHE_LOCK:
        play._CACHE.pop(game_id, None)


def finish(game_id: str, winner: int, end: str) -> bool:
    """End the rated game with ``winner`` (seat): ratings, history, statistics. Exactly
    one call per game does it (True); any later one changes nothing (False)."""
    now = timezone.now()
    with transaction.atomic():
        won = RatedGame.objects.filter(pk=game_id, status=RatedGame.Status.PLAYING).update(
            status=RatedGame.Status.FINISHED, winner=winner, end=end, finished=now
        )
        if won != 1:
            return False
        Game.objects.filter(pk=game_id).update(status=Game.Status.FINISHED, updated=now)
        rated = RatedGame.objects.get(pk=game_id)
        users = [rated.seat0_id, rated.seat1_id]
        # Locked in id order: two games finishing at once never wait on each other.
        ratings = {
            r.user_id: r
            for r in Rating.objects.select_for_update()
            .filter(user_id__in=users)
            .order_by("user_id")
        }
        for uid in users:
            if uid not in ratings:
                ratings[uid] = Rating.objects.create(user_id=uid)
        w, lo = ratings[users[winner]], ratings[users[1 - winner]]
        (wm, ws), (lm, ls) = rate_1v1((w.mu, w.sigma), (lo.mu, lo.sigma))
        for rating, mu, sigma, is_winner in ((w, wm, ws, True), (lo, lm, ls, False)):
            RatingChange.objects.create(
                user_id=rating.user_id,
                game=rated,
                mu_before=rating.mu,
                mu_after=mu,
                sigma_after=sigma,
                won=is_winner,
            )
            rating.mu, rating.sigma = mu, sigma
            rating.games += 1
            rating.wins += int(is_winner)
            rating.save(update_fields=["mu", "sigma", "games", "wins", "updated"])
        QueueEntry.objects.filter(game_id=game_id).delete()
    # This process's copy of the game row says "playing": read it anew from now on.
    forget(game_id)
    # Statistics after the result, each in its own savepoint: a statistic must never undo
    # a result (an opted-out account records nothing).
    game = Game.objects.get(pk=game_id)
    user_model = get_user_model()
    for seat, uid in enumerate(users):
        try:
            with transaction.atomic():
                record_stats(
                    user_model.objects.get(pk=uid),
                    game_id,
                    GameResult.Kind.RATED,
                    game.record(),
                    seat,
                    # The rated result, not the cards: a resigned game has no finished round.
                    place=1 if seat == winner else 2,
                )
        except Exception:
            log.exception("rated statistics failed for game %s", game_id)
    try:
        with transaction.atomic():
            sitestats.record(game, "rated", user_ids=users)
    except Exception:
        log.exception("site statistics failed for game %s", game_id)
    return True


def resign(game_id: str, user: Any) -> bool:
    rated = RatedGame.objects.filter(pk=game_id).first()
    seat = rated.seat_of(user.pk) if rated is not None else None
    if rated is None or seat is None:
        return False
    return finish(game_id, 1 - seat, RatedGame.End.RESIGNED)


def set_present(game_id: str, seat: int, present: bool) -> None:
    """A seat's pages: all closed since now (present=False), or one open (True)."""
    with transaction.atomic():
        rated = RatedGame.objects.select_for_update().filter(pk=game_id).first()
        if rated is None:
            return
        away = list(rated.away_since or [None, None])
        away[seat] = None if present else timezone.now().isoformat()
        RatedGame.objects.filter(pk=game_id).update(away_since=away)


def tick(game_id: str, now: datetime.datetime | None = None) -> str | None:
    """Enforce the absence limit: "abandoned" when it ended the game now, else None.
    Each open page of the game calls it every second; :func:`finish` is guarded, so two
    pages ticking at once end it once. (The move clock is enforced by the computer side,
    play/clock.py.)"""
    now = now or timezone.now()
    loaded = load(game_id)
    if loaded is None:
        return None
    rated, game, match = loaded
    if rated.status != RatedGame.Status.PLAYING or match.over:
        return None
    for seat, since in enumerate(rated.away_since or []):
        if since and (now - datetime.datetime.fromisoformat(since)).total_seconds() > (
            settings.RATED_ABSENT_SECONDS
        ):
            if finish(game_id, 1 - seat, RatedGame.End.ABANDONED):
                return "abandoned"
            return None
    return None
