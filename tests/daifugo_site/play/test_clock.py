"""The turn clock: the deadline is the version's write time plus the seat's limit, and
once it has passed the computer (and only the computer, only for that seat) plays."""

from __future__ import annotations

import asyncio
import datetime

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play import clock, computers, hooks, services
from daifugo_site.play.models import Game
from rules_engine import Action

from .conftest import make_game

pytestmark = pytest.mark.django_db

HUMAN_LEADS = 0  # seed: seat 0 holds the diamond 3


def clocked_game(seconds: int = 10, reserve: int = 0) -> Game:
    game, _ = make_game(seed=HUMAN_LEADS)
    Game.objects.filter(pk=game.id).update(seats=clock.with_clock(game.seats, seconds, reserve))
    services._CACHE.pop(game.id, None)
    return Game.objects.get(pk=game.id)


def age(game: Game, seconds: float) -> None:
    """Pretend the game's current version was written ``seconds`` ago."""
    Game.objects.filter(pk=game.id).update(
        updated=game.updated - datetime.timedelta(seconds=seconds)
    )
    services._CACHE.pop(game.id, None)


def lead(game: Game) -> Action:
    _, match = services.current(game.id)  # type: ignore[misc]
    move = next(m for m in match.round.legal_moves() if not m.is_pass)
    return Action("play", match.round.to_act, str(move).split("/")[0], None)


def test_limits_are_checked_and_only_on_human_seats() -> None:
    with pytest.raises(ValueError):
        clock.with_clock([{"kind": "human"}], 2)
    seats = clock.with_clock([{"kind": "human"}, {"kind": "computer", "level": "beginner"}], 30)
    assert [s.get(clock.KEY) for s in seats] == [30, None]


def test_no_clock_no_deadline() -> None:
    game, _ = make_game(seed=HUMAN_LEADS)
    _, match = services.current(game.id)  # type: ignore[misc]
    assert clock.deadline(game, match) is None
    assert clock.remaining(game, match) is None
    assert clock.expired_seats(game, match) == []


def test_the_deadline_is_the_write_time_plus_the_limit() -> None:
    game = clocked_game(10)
    loaded, match = services.current(game.id)  # type: ignore[misc]
    assert clock.deadline(loaded, match) == loaded.updated + datetime.timedelta(seconds=10)
    remaining = clock.remaining(loaded, match)
    assert remaining is not None and 8 < remaining <= 10
    assert clock.expired_seats(loaded, match) == []


def test_the_computer_may_not_play_a_human_seat_in_time() -> None:
    game = clocked_game(10)
    outcome = services.apply_action(game.id, lead(game), by_computer=True)
    assert (outcome.accepted, outcome.reason) == (False, "not_owner")
    assert Game.objects.get(pk=game.id).version == 0


def test_once_run_out_the_computer_plays_that_seat_and_the_clock_restarts() -> None:
    game = clocked_game(10)
    age(game, 11)
    loaded, match = services.current(game.id)  # type: ignore[misc]
    assert clock.expired_seats(loaded, match) == [0]
    assert clock.remaining(loaded, match) == 0
    assert services.computers_to_act(loaded, match) == [0]
    outcome = services.apply_action(game.id, lead(game), by_computer=True)
    assert outcome.accepted
    # The move rewrote ``updated``: the next human turn starts with a full clock.
    loaded, match = services.current(game.id)  # type: ignore[misc]
    assert clock.expired_seats(loaded, match) == []


@pytest.fixture
def thread_pool(monkeypatch: pytest.MonkeyPatch) -> computers.FairPool:
    from concurrent.futures import ThreadPoolExecutor

    fair = computers.FairPool(1, 1, executor=lambda: ThreadPoolExecutor(1))
    monkeypatch.setattr(computers, "_POOL", fair)
    monkeypatch.setattr(computers, "_LEASES", computers.LocalLeases(3000))
    return fair


@pytest.mark.django_db(transaction=True)
async def test_the_driver_takes_a_timed_out_turn(thread_pool: computers.FairPool) -> None:
    game = await database_sync_to_async(clocked_game)(10)
    await database_sync_to_async(age)(game, 11)
    await computers.drive(game.id)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    # The human's lead, then the computers up to the human's next turn (a full clock).
    assert stored.version >= 1
    assert stored.actions[0]["seat"] == 0
    loaded, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert match.round.over or match.round.to_act == 0 or stored.status == "finished"


def test_the_sweep_finds_a_clock_that_runs_out_later() -> None:
    game = clocked_game(10)
    age(game, 5)  # older than a lease, but within its time
    assert computers.stuck_games() == []
    age(Game.objects.get(pk=game.id), 6)
    assert [g for g, _ in computers.stuck_games()] == [game.id]


@pytest.mark.django_db(transaction=True)
async def test_a_timer_asks_for_a_driver_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    game = await database_sync_to_async(clocked_game)(10)
    asked: list[str] = []
    # The driver the play app registered (computers.request_turn) is what the timer asks.
    monkeypatch.setattr(hooks, "driver", lambda gid, v=None, news=None: asked.append(gid))
    loaded = await database_sync_to_async(services.current)(game.id)
    assert loaded is not None
    loaded[0].updated = loaded[0].updated - datetime.timedelta(seconds=9.9)
    clock.wake_at_deadline(*loaded)
    await asyncio.sleep(0.4)
    assert asked == [game.id]


# -- the reserve ----------------------------------------------------------------------------


def test_without_a_reserve_nothing_is_kept_or_written() -> None:
    # A room's table passes no reserve: its clock is the limit alone, as before.
    game = clocked_game(10)
    assert clock.RESERVE_KEY not in game.seats[0] and clock.reserve_left(game, 0) == 0.0
    age(game, 8)
    assert services.apply_action(game.id, lead(game), by_computer=False).accepted
    assert clock.USED_KEY not in Game.objects.get(pk=game.id).seats[0]


def test_the_reserve_runs_only_after_the_moves_own_limit() -> None:
    game = clocked_game(10, 20)
    loaded, match = services.current(game.id)  # type: ignore[misc]
    assert clock.reserve_left(loaded, 0) == 20.0
    assert clock.move_deadline(loaded, match) == loaded.updated + datetime.timedelta(seconds=10)
    assert clock.deadline(loaded, match) == loaded.updated + datetime.timedelta(seconds=30)
    # Past the move's 10 s the reserve runs: the computer may not play yet.
    age(game, 25)
    loaded, match = services.current(game.id)  # type: ignore[misc]
    assert clock.expired_seats(loaded, match) == []
    remaining = clock.remaining(loaded, match)
    assert remaining is not None and 3 < remaining <= 5
    outcome = services.apply_action(game.id, lead(game), by_computer=True)
    assert (outcome.accepted, outcome.reason) == (False, "not_owner")


def test_a_late_move_spends_the_reserve_in_the_stored_seats() -> None:
    game = clocked_game(10, 20)
    age(game, 16)  # 6 s past the limit
    assert services.apply_action(game.id, lead(game), by_computer=False).accepted
    stored = Game.objects.get(pk=game.id)
    used = stored.seats[0][clock.USED_KEY]
    assert 6.0 <= used < 7.0
    # Derived from the stored row, in any process: a fresh read sees the same reserve.
    services._CACHE.pop(game.id, None)
    loaded, _ = services.current(game.id)  # type: ignore[misc]
    assert 13.0 < clock.reserve_left(loaded, 0) <= 14.0
    assert clock.reserve_left(loaded, 1) == 0.0  # a computer seat has no clock


def test_once_both_run_out_the_computer_plays_and_the_reserve_is_gone() -> None:
    game = clocked_game(10, 20)
    age(game, 31)
    loaded, match = services.current(game.id)  # type: ignore[misc]
    assert clock.expired_seats(loaded, match) == [0]
    assert services.apply_action(game.id, lead(game), by_computer=True).accepted
    stored = Game.objects.get(pk=game.id)
    assert stored.seats[0][clock.USED_KEY] == 20.0
    assert clock.reserve_left(stored, 0) == 0.0


def test_a_move_in_time_leaves_the_reserve_whole() -> None:
    game = clocked_game(10, 20)
    age(game, 4)
    assert services.apply_action(game.id, lead(game), by_computer=False).accepted
    stored = Game.objects.get(pk=game.id)
    assert clock.USED_KEY not in stored.seats[0]
    assert clock.reserve_left(stored, 0) == 20.0


def test_reserve_bounds() -> None:
    with pytest.raises(ValueError):
        clock.with_clock([{"kind": "human"}], 30, clock.MAX_RESERVE_SECONDS + 1)
