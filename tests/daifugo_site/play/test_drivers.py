"""A turn asked for while the game's driver is running is never lost."""

from __future__ import annotations

import asyncio

import pytest

from daifugo_site.play import computers


async def test_a_poke_during_a_drive_starts_another_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int | None] = []
    release = asyncio.Event()

    async def drive(game_id: str, version: int | None = None) -> None:
        calls.append(version)
        if len(calls) == 1:
            # The first driver looked at version 1 and is on its way out (no computer to
            # act there) when the moves of versions 2 and 3 ask for the computer.
            await release.wait()

    monkeypatch.setattr(computers, "drive", drive)
    computers.start_driver("g", 1)
    await asyncio.sleep(0)
    computers.start_driver("g", 2)
    computers.start_driver("g", 3)
    assert calls == [1]
    release.set()
    for _ in range(20):
        await asyncio.sleep(0)
    # Exactly one more driver, told the newest version.
    assert calls == [1, 3]
    assert "g" not in computers._POKED and "g" not in computers._DRIVERS


async def test_an_unknown_version_wins_over_a_known_one(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int | None] = []
    release = asyncio.Event()

    async def drive(game_id: str, version: int | None = None) -> None:
        calls.append(version)
        if len(calls) == 1:
            await release.wait()

    monkeypatch.setattr(computers, "drive", drive)
    computers.start_driver("h", 1)
    await asyncio.sleep(0)
    computers.start_driver("h", None)
    computers.start_driver("h", 5)
    release.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert calls == [1, None]


@pytest.mark.parametrize(("mode", "pooled"), [("workers", False), ("local", True)])
async def test_a_heuristic_level_thinks_on_a_computer_workers_loop_and_in_a_pool_elsewhere(
    monkeypatch: pytest.MonkeyPatch, settings: object, mode: str, pooled: bool
) -> None:
    from daifugo_site.play import services
    from daifugo_site.play.models import Game
    from rules_engine import Match, RuleSet

    settings.PLAY_COMPUTERS = mode  # type: ignore[attr-defined]
    rules = RuleSet.preset("standard")
    seat = Match.new(rules, 4, 1, 5).round.to_act
    # The human sits anywhere but the seat to play first.
    human = (seat + 1) % 4
    seats = [
        {"kind": "human"} if s == human else {"kind": "computer", "level": "beginner"}
        for s in range(4)
    ]
    game = Game(
        id=f"think-{mode}", owner="o", rules=rules.to_json(), players=4, rounds=1,
        seats=seats, human_seat=human, delay_ms=0, seed=5,
    )  # fmt: skip
    match = services.match_of(game)
    used: list[str] = []

    class Lane:
        async def run(self, owner: str, fn: object, *args: object) -> object:
            used.append(owner)
            return fn(*args)  # type: ignore[operator]

    monkeypatch.setattr(computers, "quick_pool", lambda: Lane())
    action = await computers._think(game, seat, match.observe(seat))
    assert used == (["o"] if pooled else [])
    # The same move either way: the heuristic, seeded by the game, its version and seat.
    assert action == computers.computer_action(game, match, seat)


def _game(game_id: str, owner: str = "o", levels: tuple[str, ...] = ("beginner",) * 3,
          human: dict[str, object] | None = None) -> object:  # fmt: skip
    from daifugo_site.play import services
    from daifugo_site.play.models import Game
    from rules_engine import RuleSet

    seats = [human or {"kind": "human"}] + [{"kind": "computer", "level": lv} for lv in levels]
    game = Game(
        id=game_id, owner=owner, rules=RuleSet.preset("standard").to_json(), players=4,
        rounds=1, seats=seats, human_seat=0, delay_ms=0, seed=5,
    )  # fmt: skip
    services.match_of(game)  # this process has it, as after its move or its page
    return game


@pytest.mark.parametrize(
    ("game_id", "here"),
    [
        ("quick-practice", True),
        ("intermediate-practice", True),
        ("advanced-seat", False),
        ("slow-standin", False),
        ("room-table", False),
        ("rated-table", False),
        ("not-cached", False),
    ],
)
async def test_a_web_worker_drives_a_practice_game_without_search_and_hands_over_the_rest(
    monkeypatch: pytest.MonkeyPatch, settings: object, game_id: str, here: bool
) -> None:
    from daifugo_site.play import services

    settings.PLAY_COMPUTERS = "workers"  # type: ignore[attr-defined]
    settings.PLAY_QUICK_ON_WEB = True  # type: ignore[attr-defined]
    made = {
        "quick-practice": lambda: _game(game_id),
        "intermediate-practice": lambda: _game(game_id, levels=("intermediate",) * 3),
        "advanced-seat": lambda: _game(game_id, levels=("beginner", "advanced", "beginner")),
        # A human seat whose timed-out turns an advanced computer would play.
        "slow-standin": lambda: _game(
            game_id, human={"kind": "human", "standin_level": "advanced"}
        ),
        "room-table": lambda: _game(game_id, human={"kind": "human", "player": "p1"}),
        "rated-table": lambda: _game(game_id, owner=services.RATED_OWNER_PREFIX + "x"),
        "not-cached": lambda: None,
    }
    made[game_id]()
    started: list[tuple[str, int | None]] = []
    posted: list[dict[str, object]] = []

    class Layer:
        async def send(self, channel: str, message: dict[str, object]) -> None:
            posted.append(message)

    monkeypatch.setattr(computers, "start_driver", lambda g, v: started.append((g, v)))
    monkeypatch.setattr(computers, "get_channel_layer", lambda alias: Layer())
    computers.request_turn(game_id, 7)
    await asyncio.sleep(0)
    assert started == ([(game_id, 7)] if here else [])
    assert [m["game"] for m in posted] == ([] if here else [game_id])
    # Turned off, every turn goes to the computer workers as before.
    settings.PLAY_QUICK_ON_WEB = False  # type: ignore[attr-defined]
    started.clear()
    posted.clear()
    computers.request_turn(game_id, 7)
    await asyncio.sleep(0)
    assert started == [] and [m["game"] for m in posted] == [game_id]
