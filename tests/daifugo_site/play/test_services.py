"""The one service path: who may act, compare-and-swap writes, replay after a restart."""

from __future__ import annotations

import pytest

from daifugo_site.play import services
from daifugo_site.play.models import Game
from rules_engine import Action, Match

from .conftest import make_game

pytestmark = pytest.mark.django_db

HUMAN_LEADS = 0  # seed: seat 0 holds the diamond 3
COMPUTER_LEADS = 13  # seed: seat 1 leads


def lead_action(game: Game) -> Action:
    _, match = services.current(game.id)  # type: ignore[misc]
    r = match.round
    move = next(m for m in r.legal_moves() if not m.is_pass)
    return Action("play", r.to_act, str(move).split("/")[0], None)


def test_an_accepted_action_is_stored_and_replays_to_the_same_state() -> None:
    game, _ = make_game(seed=HUMAN_LEADS)
    outcome = services.apply_action(game.id, lead_action(game), by_computer=False)
    assert outcome.accepted and outcome.version == 1
    stored = Game.objects.get(pk=game.id)
    assert stored.version == 1 and len(stored.actions) == 1
    # A restart loses the in-process cache: the log alone rebuilds the state.
    _, cached = services.current(game.id)  # type: ignore[misc]
    services._CACHE.clear()
    _, replayed = services.current(game.id)  # type: ignore[misc]
    assert replayed.round == cached.round
    assert replayed.round == Match.from_record(stored.record()).round


def test_a_stale_action_is_dropped_and_changes_nothing() -> None:
    game, _ = make_game(seed=HUMAN_LEADS)
    action = lead_action(game)
    assert services.apply_action(game.id, action, by_computer=False, expected_version=0).accepted
    again = services.apply_action(game.id, action, by_computer=False, expected_version=0)
    assert (again.accepted, again.reason) == (False, "stale")
    assert Game.objects.get(pk=game.id).version == 1


def test_a_write_racing_another_worker_is_refused() -> None:
    game, _ = make_game(seed=HUMAN_LEADS)
    services.current(game.id)  # cache version 0 in this process
    # Another worker appends behind this process's back.
    other = lead_action(game)
    Game.objects.filter(pk=game.id).update(actions=[other.to_json()], version=1)
    # This process still believes version 0: its write must not land on version 1.
    outcome = services.apply_action(game.id, other, by_computer=False, expected_version=0)
    assert (outcome.accepted, outcome.reason, outcome.version) == (False, "stale", 1)
    assert Game.objects.get(pk=game.id).actions == [other.to_json()]


def test_seats_act_only_for_themselves() -> None:
    game, _ = make_game(seed=COMPUTER_LEADS)
    computer_move = lead_action(game)
    assert computer_move.seat == 1
    refused = services.apply_action(game.id, computer_move, by_computer=False)
    assert (refused.accepted, refused.reason) == (False, "not_your_turn")
    human = Action.pass_(0)
    refused = services.apply_action(game.id, human, by_computer=True)
    assert (refused.accepted, refused.reason) == (False, "not_owner")
    refused = services.apply_action(game.id, Action.next_round(), by_computer=True)
    assert (refused.accepted, refused.reason) == (False, "not_owner")
    assert services.apply_action(game.id, computer_move, by_computer=True).accepted


def test_computers_to_act_and_their_moves_are_legal() -> None:
    game, _ = make_game(seed=COMPUTER_LEADS, levels=["beginner", "intermediate", "advanced"])
    for _ in range(12):
        game, match = services.current(game.id)  # type: ignore[misc]
        seats = services.computers_to_act(game, match)
        if not seats:
            break
        action = services.computer_action(game, match, seats[0])
        assert services.apply_action(
            game.id, action, by_computer=True, expected_version=game.version
        ).accepted
    game, match = services.current(game.id)  # type: ignore[misc]
    assert match.round.to_act == 0 or match.round.over


def test_unknown_game() -> None:
    assert services.apply_action("nope", Action.pass_(0), by_computer=False).reason == (
        "no_such_game"
    )
