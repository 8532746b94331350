"""The tournament program's bookkeeping (not the players' strength)."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout

import pytest

from rules_engine import Observation, RuleSet
from rules_engine.__main__ import main
from rules_engine.ai import Budget, make_player
from rules_engine.ai.arena import ArenaError, parse_spec, play_match, run_arena
from rules_engine.moves import PASS, Move


def check_bookkeeping(result_players: list[str], result: object) -> None:
    from rules_engine.ai.arena import ArenaResult

    assert isinstance(result, ArenaResult)
    n = len(result_players)
    for game_seatings, game_results in zip(result.seatings, result.results, strict=True):
        # Every entry of the list sits at every seat once per game.
        assert len(game_seatings) == n
        for rot, seating in enumerate(game_seatings):
            assert seating == [result_players[(s - rot) % n] for s in range(n)]
        for rounds in game_results:
            assert len(rounds) == result.rounds
            for order in rounds:
                assert sorted(order) == list(range(n))
    total_rounds = result.games * n * result.rounds
    pts = sum(k.points_total for k in result.kinds)
    assert pts == total_rounds * n * (n - 1) // 2
    assert sum(k.firsts for k in result.kinds) == total_rounds
    assert sum(k.lasts for k in result.kinds) == total_rounds
    assert sum(k.seat_rounds for k in result.kinds) == total_rounds * n
    for k in result.kinds:
        lo, hi = k.ci95
        assert lo <= k.mean_points + 1e-9 and k.mean_points <= hi + 1e-9
        assert len(k.per_game) == result.games


def test_tiny_tournament_bookkeeping() -> None:
    players = ["intermediate", "beginner", "beginner"]
    result = run_arena(players, games=3, seed=5, rounds=3)
    check_bookkeeping(players, result)
    assert [k.name for k in result.kinds] == ["intermediate", "beginner"]
    # Three rotations of three rounds per game for the one intermediate seat.
    assert result.kinds[0].seat_rounds == 3 * 3 * 3


def test_four_players_with_advanced_and_exchange() -> None:
    players = ["advanced:p8", "intermediate", "beginner", "intermediate"]
    result = run_arena(players, games=1, seed=2, rounds=3)
    check_bookkeeping(players, result)
    data = result.to_json()
    assert data["games"] == 1
    names = [p["name"] for p in data["players"]]
    assert names == ["advanced:p8", "intermediate", "beginner"]
    for p in data["players"]:
        for key in (
            "mean_points",
            "ci95",
            "first_rate",
            "last_rate",
            "move_ms_p50",
            "move_ms_p95",
            "move_ms_max",
        ):
            assert key in p


def test_duplicate_deals_are_the_same_across_rotations() -> None:
    # Same seed, same deal: the first round's hands do not depend on the seating.
    result = run_arena(["beginner", "beginner"], games=2, seed=9, rounds=1)
    check_bookkeeping(["beginner", "beginner"], result)
    assert result.kinds[0].seat_rounds == 2 * 2 * 2


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "arena",
            "--players",
            "intermediate,beginner",
            "--games",
            "2",
            "--seed",
            "3",
            "--preset",
            "standard",
            "--hand-size",
            "13",
            "--json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    assert {p["name"] for p in data["players"]} == {"intermediate", "beginner"}
    assert data["rules"] == {"preset": "standard", "hand_size": 13}


def test_cli_table() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(
            [
                "arena",
                "--players",
                "advanced,beginner,beginner",
                "--games",
                "1",
                "--rounds",
                "1",
                "--budget-ms",
                "20",
                "--preset",
                "party",
            ]
        )
    assert code == 0
    text = out.getvalue()
    assert "advanced" in text and "mean pts" in text


def test_parse_spec() -> None:
    name, player = parse_spec("advanced:p50")
    assert name == "advanced:p50"
    assert player.budget == Budget(playouts=50)  # type: ignore[attr-defined]
    _, player = parse_spec("advanced", budget_ms=120)
    assert player.budget == Budget(time_ms=120)  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        parse_spec("beginner:100")
    with pytest.raises(ValueError):
        parse_spec("grandmaster")


class Cheater:
    """Passes even when it leads: the arena must refuse it."""

    name = "cheater"

    def choose_move(
        self, obs: Observation, rng: random.Random, budget: Budget | None = None
    ) -> Move:
        return PASS

    def choose_return(self, obs: Observation, rng: random.Random) -> int:
        return 0


def test_illegal_move_is_an_error() -> None:
    rules = RuleSet.preset("basic")
    with pytest.raises(ArenaError):
        play_match(rules, [Cheater(), make_player("beginner")], 1, "s", "r")


def test_cli_reports_a_bad_player_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "grandmaster,beginner", "--games", "1"]) == 1
    assert "unknown level" in capsys.readouterr().err
