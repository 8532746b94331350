"""Per-account statistics of finished games, from the engine's replay of the log.

Recorded once per (account, game) when the game ends, only while the account's
``statistics`` switch is on; nothing is kept about cards or moves, only counts.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Avg, Count, Q, Sum

from rules_engine import Action, Match, Refusal, RuleSet
from rules_engine.effects import REVOLUTION
from rules_engine.state import Round

from .models import GameResult, Profile

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Step:
    """One action of a game's log and the round before and after it."""

    index: int
    round_no: int
    action: Action
    before: Round
    after: Round


def steps(record: dict[str, Any]) -> Iterator[Step]:
    """Every action of a stored game, replayed through the engine (the one move path)."""
    match = Match.new(
        RuleSet.from_json(record["rules"]), record["players"], record["rounds"], record["seed"]
    )
    for index, data in enumerate(record["actions"]):
        action = Action.from_json(data)
        before = match.round
        out = match.apply(action)
        if isinstance(out, Refusal):  # pragma: no cover - a stored log always replays
            raise ValueError(f"stored action {index} is refused: {out.reason}")
        match = out
        yield Step(index, match.round_no + 1, action, before, match.round)


def final_match(record: dict[str, Any]) -> Match:
    return Match.from_record(record)


def summary(record: dict[str, Any], seat: int, place: int | None = None) -> dict[str, Any]:
    """What the statistics keep of ``seat``'s game (no cards, no moves).

    ``place`` is the game's result when it did not come from the cards (a rated game ended
    by resignation or absence): the rounds played may be none, so it is also the average
    place then."""
    match = final_match(record)
    revolutions = 0
    moves = 0
    for step in steps(record):
        if step.action.seat == seat and step.action.kind in ("play", "pass"):
            moves += 1
            if step.action.kind == "play" and any(e.kind == REVOLUTION for e in step.after.effects):
                revolutions += 1
    places = [result.index(seat) + 1 for result in match.results]
    if place is None:
        place = match.standings().index(seat) + 1 if match.over else len(places)
    if not places and place:
        places = [place]
    return {
        "preset": str(record["rules"].get("preset", "")),
        "players": record["players"],
        "rounds": record["rounds"],
        "place": place,
        "average_place": sum(places) / len(places) if places else 0.0,
        "revolutions": revolutions,
        "moves": moves,
    }


def record(
    user: Any,
    game_id: str,
    kind: str,
    game_record: dict[str, Any],
    seat: int,
    place: int | None = None,
) -> bool:
    """Record one finished game for ``user`` unless their statistics are off; once only.
    ``place``: see :func:`summary`."""
    profile = Profile.objects.filter(user=user).first()
    if profile is None or not profile.statistics:
        return False
    values = summary(game_record, seat, place)
    try:
        with transaction.atomic():
            GameResult.objects.create(user=user, game_id=game_id, kind=kind, **values)
    except IntegrityError:
        return False  # recorded already
    return True


@dataclass(frozen=True)
class PresetLine:
    preset: str
    games: int
    firsts: int

    @property
    def first_rate(self) -> int:
        return round(100 * self.firsts / self.games) if self.games else 0


def overview(user: Any) -> dict[str, Any]:
    rows = GameResult.objects.filter(user=user)
    totals = rows.aggregate(
        games=Count("id"),
        wins=Count("id", filter=Q(place=1)),
        average=Avg("average_place"),
        revolutions=Sum("revolutions"),
    )
    by_preset = [
        PresetLine(r["preset"], r["games"], r["firsts"])
        for r in rows.values("preset")
        .annotate(games=Count("id"), firsts=Count("id", filter=Q(place=1)))
        .order_by("preset")
    ]
    return {
        "games": totals["games"] or 0,
        "wins": totals["wins"] or 0,
        "average_place": round(totals["average"], 2) if totals["average"] is not None else None,
        "revolutions": totals["revolutions"] or 0,
        "by_preset": by_preset,
    }
