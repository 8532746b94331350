"""Anonymous statistics of finished games, for the public statistics page.

Recorded when a game ends (``play.services.FINISH_HOOKS``, and a rated game's
:func:`daifugo_site.rated.services.finish`) unless the game's browser or account turned
statistics off; nothing that identifies anyone is kept (no token, account, move, card or
address). ``manage.py purge`` deletes rows older than ``PURGE_SITE_STATS_DAYS`` (30).
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Avg, Count, Q, Sum
from django.utils import timezone

from daifugo_site.play import services as play_services
from rules_engine import Match, RuleSet
from rules_engine.effects import REVOLUTION

from . import client
from .client import token_hash
from .models import GameResult, Profile, SiteStat, StatsOptOut
from .stats import final_match, steps
from .stats import record as record_account

log = logging.getLogger(__name__)

DURATION_BUCKETS = ((5 * 60, "<5m"), (15 * 60, "5-15m"), (30 * 60, "15-30m"))
DURATIONS = ("<5m", "5-15m", "15-30m", "30m+")
KINDS = ("practice", "room", "hotseat", "rated")


def opted_out(
    owner_token: str, user_ids: list[int] | None = None, seat_tokens: list[str] | None = None
) -> bool:
    """Whether this game's browser (practice), any of its room players' browsers, or any
    of its accounts turned statistics off: one person's "off" keeps the whole game out."""
    if user_ids:
        return Profile.objects.filter(user_id__in=user_ids, statistics=False).exists()
    tokens = [owner_token, *(seat_tokens or [])]
    if StatsOptOut.objects.filter(token_hash__in=[token_hash(t) for t in tokens]).exists():
        return True
    return Profile.objects.filter(player_token__in=tokens, statistics=False).exists()


def game_opted_out(game: Any) -> bool:
    """Whether anyone at a finished game's table turned statistics off: a rated game asks
    its two accounts, any other its browsers and the accounts behind them. The tutor's
    miner of players' games asks this (``tutorials.hooks``)."""
    from daifugo_site.rated.models import RatedGame

    rated = RatedGame.objects.filter(game_id=game.pk).first()
    user_ids = [rated.seat0_id, rated.seat1_id] if rated is not None else None
    tokens = [str(e["player"]) for e in game.seats if e.get("player")]
    return opted_out(str(game.owner), user_ids, tokens)


def kind_of(game: Any) -> str:
    """practice, room, hotseat or rated."""
    if str(game.owner).startswith("rated:"):
        return "rated"
    if any(entry.get("hotseat") for entry in game.seats):
        return "hotseat"
    if any(entry.get("player") for entry in game.seats):
        return "room"
    return "practice"


def duration_bucket(seconds: float) -> str:
    for limit, name in DURATION_BUCKETS:
        if seconds < limit:
            return name
    return "30m+"


def record(
    game: Any,
    kind: str | None = None,
    user_ids: list[int] | None = None,
    match: Match | None = None,
) -> bool:
    """Record the finished ``game`` (with its pages' tallies, client.py) unless someone at
    it turned statistics off; the tallies are deleted either way. ``match``: the game's
    final match when the caller has it (the move that ended the game), so that the log is
    replayed once here, not twice."""
    seat_tokens = [str(e["player"]) for e in game.seats if e.get("player")]
    if opted_out(str(game.owner), user_ids, seat_tokens):
        client.forget(game.id)
        return False
    record = game.record()
    rules = RuleSet.from_json(record["rules"])
    if match is None:
        match = final_match(record)
    moves = revolutions = 0
    for step in steps(record):
        if step.action.kind in ("play", "pass"):
            moves += 1
            if any(e.kind == REVOLUTION for e in step.after.effects):
                revolutions += 1
    first_leader_wins = 0
    for no, result in enumerate(match.results):
        if result and match.deal_round(no).first_leader == result[0]:
            first_leader_wins += 1
    SiteStat.objects.create(
        kind=kind or kind_of(game),
        preset=rules.preset_name,
        changed=sorted(k for k in record["rules"] if k != "preset"),
        players=game.players,
        rounds=len(match.results),
        levels=[s.get("level") for s in game.seats if s.get("kind") == "computer"],
        moves=moves,
        revolutions=revolutions,
        first_leader_wins=first_leader_wins,
        duration=duration_bucket((game.updated - game.created).total_seconds()),
        **client.fold(game.id),
    )
    return True


def recent() -> Any:
    """The rows of the last ``PURGE_SITE_STATS_DAYS`` days (what the page says it shows,
    whether or not the purge ran lately)."""
    days = int(getattr(settings, "PURGE_SITE_STATS_DAYS", 0)) or 30
    return SiteStat.objects.filter(created__gte=timezone.now() - datetime.timedelta(days=days))


def percent(part: float, whole: float) -> int:
    """``part`` of ``whole`` in whole percent (0 of nothing).

    >>> percent(1, 3)
    33
    >>> percent(1, 0)
    0
    """
    return round(100 * part / whole) if whole else 0


def aggregates() -> list[dict[str, Any]]:
    """Per preset: games, how often the first leader finishes first (of rounds), how
    often a game has a revolution, revolutions per game, average moves and rounds."""
    rows = (
        recent()
        .values("preset")
        .annotate(
            games=Count("id"),
            total_rounds=Sum("rounds"),
            leader=Sum("first_leader_wins"),
            total_revolutions=Sum("revolutions"),
            with_revolution=Count("id", filter=Q(revolutions__gt=0)),
            moves=Avg("moves"),
        )
        .order_by("preset")
    )
    out = []
    for r in rows:
        out.append(
            {
                "preset": r["preset"],
                "games": r["games"],
                "leader_rate": percent(r["leader"] or 0, r["total_rounds"] or 0),
                "revolution_rate": percent(r["with_revolution"], r["games"]),
                "revolutions": round((r["total_revolutions"] or 0) / r["games"], 2),
                "moves": round(r["moves"] or 0),
                "rounds": round((r["total_rounds"] or 0) / r["games"], 1),
            }
        )
    return out


def shares(field: str, order: tuple[str, ...]) -> list[dict[str, Any]]:
    """How the recent games divide by ``field`` (kind, duration), in ``order``."""
    counts = {r[field]: r["n"] for r in recent().values(field).annotate(n=Count("id"))}
    total = sum(counts.values())
    return [
        {"key": key, "games": counts.get(key, 0), "share": percent(counts.get(key, 0), total)}
        for key in order
    ]


def record_finished_game(game: Any, match: Match) -> None:
    """services.FINISH_HOOKS: a practice game whose owner is an account's token. Runs in
    the final move's transaction; a statistic must never undo that move, so it fails alone
    (in its own savepoint) and is only logged."""
    if play_services.is_rated(game):
        return  # rated games record both players in daifugo_site.rated.services
    try:
        with transaction.atomic():
            profile = Profile.objects.filter(player_token=game.owner).select_related("user").first()
            if profile is not None:
                record_account(
                    profile.user, game.id, GameResult.Kind.PRACTICE, game.record(), game.human_seat
                )
            record(game, match=match)
    except Exception:
        log.exception("statistics of game %s were not recorded", game.id)
