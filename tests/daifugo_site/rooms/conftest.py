"""Rooms for the tests: sessions (player tokens), a room with people seated, started."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from daifugo_site.play.models import Game
from daifugo_site.rooms import services as rooms
from daifugo_site.rooms.models import Room
from rules_engine import RuleSet
from tests.daifugo_site.play.conftest import new_session


def seated_room(
    people: int = 3,
    *,
    players: int = 4,
    rounds: int = 3,
    clock_s: int = 0,
    drop_timeout_s: int = 30,
    start: bool = True,
) -> tuple[Room, Game | None, list[tuple[str, str]]]:
    """A room whose creator (sessions[0]) and ``people - 1`` others sit in seats
    0..people-1; started with the free seats filled by the computer when ``start``."""
    sessions = [new_session() for _ in range(people)]
    room = rooms.create_room(
        creator=sessions[0][1],
        name="Aki",
        rules=RuleSet.preset("standard"),
        players=players,
        rounds=rounds,
        levels=["beginner"] * (players - 1),
        clock_s=clock_s,
        drop_timeout_s=drop_timeout_s,
        delay_ms=0,
    )
    for i, (_key, token) in enumerate(sessions[1:], start=1):
        assert rooms.take_seat(room, i, token, f"P{i}") is None
    game = None
    if start:
        game, refusal = rooms.start(room, sessions[0][1], fill=True)
        assert refusal is None
    return room, game, sessions


@pytest.fixture(autouse=True)
def _fresh_windows() -> Iterator[None]:
    """A room counts in the games windows per session and per address (issue 45), kept
    in the cache, which outlives a test: each test starts with empty windows."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
