"""A move appends its action to the stored log in the database (models.Appended): the row
then holds exactly the log the move was checked against plus that action."""

from __future__ import annotations

import pytest
from django.db import connection

from daifugo_site.play import computers, services
from daifugo_site.play.models import Appended, Game
from rules_engine import Match, RuleSet

pytestmark = pytest.mark.django_db


def test_moves_append_to_the_stored_log_and_the_row_replays() -> None:
    game = services.create_game(
        owner="o", rules=RuleSet.preset("standard"), players=4, rounds=1,
        levels=["beginner"] * 3, delay_ms=0, seed=11,
    )  # fmt: skip
    match = services.match_of(game)
    for _ in range(30):
        r = match.round
        seat = next((s for s in range(4) if r.owed[s]), r.to_act)
        by_computer = seat != game.human_seat
        action = computers.computer_action(game, match, seat)
        outcome = services.apply_action(
            game.id, action, by_computer=by_computer, expected_version=game.version,
            player=None if by_computer else game.owner,
        )  # fmt: skip
        assert outcome.accepted, outcome
        game, match = services.current(game.id, outcome.version)  # type: ignore[misc]
    stored = Game.objects.get(pk=game.id)
    assert stored.version == 30
    assert stored.actions == game.actions
    assert len(stored.actions) == 30
    assert Match.from_record(stored.record()).round == match.round


def test_an_item_with_text_beyond_ascii_is_stored_as_given() -> None:
    game = services.create_game(
        owner="o", rules=RuleSet.preset("standard"), players=4, rounds=1,
        levels=["beginner"] * 3, delay_ms=0,
    )  # fmt: skip
    item = {"note": '大富豪 / 大貧民 "quoted" \\ back'}
    Game.objects.filter(pk=game.id).update(actions=Appended("actions", item, [item]))
    Game.objects.filter(pk=game.id).update(actions=Appended("actions", [1, 2], [item, [1, 2]]))
    assert Game.objects.get(pk=game.id).actions == [item, [1, 2]]


def test_another_database_writes_the_whole_array(monkeypatch: pytest.MonkeyPatch) -> None:
    game = services.create_game(
        owner="o", rules=RuleSet.preset("standard"), players=4, rounds=1,
        levels=["beginner"] * 3, delay_ms=0,
    )  # fmt: skip
    monkeypatch.setattr(connection, "vendor", "another")
    Game.objects.filter(pk=game.id).update(actions=Appended("actions", {"a": 1}, [{"b": 2}]))
    monkeypatch.undo()
    assert Game.objects.get(pk=game.id).actions == [{"b": 2}]


@pytest.mark.parametrize("vendor", ["this", "another"])
def test_the_moves_write_is_a_compare_and_swap_on_version_and_status(
    vendor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # models.write_move: the statement built once per database kind (or the ORM's, for
    # another database) writes every field of the move, and nothing at all for a version
    # that is not the row's or a game no longer playing.
    from datetime import timedelta

    from daifugo_site.play.models import write_move

    game = services.create_game(
        owner="o", rules=RuleSet.preset("standard"), players=4, rounds=1,
        levels=["beginner"] * 3, delay_ms=0, seed=5,
    )  # fmt: skip
    if vendor == "another":
        monkeypatch.setattr(connection, "vendor", "another")
    item = {"kind": "pass", "seat": 1, "note": "大貧民"}
    new = Game.objects.get(pk=game.id)
    new.actions = [item]
    new.version, new.scores, new.status = 1, [1, 2, 3, 4], Game.Status.FINISHED
    new.updated = new.updated + timedelta(minutes=5)
    seats = [{**seat, "absent": True} for seat in game.seats]
    stale = Game.objects.get(pk=game.id)
    stale.version = 7
    assert write_move(stale, new, item, seats) is False
    assert write_move(game, new, item, seats) is True
    # The row is at version 1 and finished now: the same move again is refused twice over.
    assert write_move(game, new, item, None) is False
    monkeypatch.undo()
    stored = Game.objects.get(pk=game.id)
    assert stored.actions == [item]
    assert (stored.version, stored.scores, stored.status) == (1, [1, 2, 3, 4], "finished")
    assert stored.seats == seats
    assert abs((stored.updated - new.updated).total_seconds()) < 1e-3
