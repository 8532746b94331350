"""The one service path: who may act, compare-and-swap writes, replay after a restart."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from daifugo_site.play import computers, services, thinking
from daifugo_site.play.models import Game
from rules_engine import Action, Match, Refusal

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
        action = computers.computer_action(game, match, seats[0])
        assert services.apply_action(
            game.id, action, by_computer=True, expected_version=game.version
        ).accepted
    game, match = services.current(game.id)  # type: ignore[misc]
    assert match.round.to_act == 0 or match.round.over


def test_unknown_game() -> None:
    assert services.apply_action("nope", Action.pass_(0), by_computer=False).reason == (
        "no_such_game"
    )


# -- computer seats: failure, leases, the sweep (daifugo_site/play/computers.py) -----------


def _computer_turns(game_id: str) -> int:
    return sum(1 for a in Game.objects.get(pk=game_id).actions if a.get("seat") != 0)


@pytest.mark.django_db(transaction=True)
async def test_a_computer_that_raises_plays_a_safe_move_and_the_game_goes_on(
    thread_pool: computers.FairPool,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game, _ = await database_sync_to_async(make_game)(seed=COMPUTER_LEADS)

    def broken(*args: object) -> Action:
        raise RuntimeError("a bug in a player")

    monkeypatch.setattr(thinking, "think", broken)
    await computers.drive(game.id)
    game, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert game.version >= 1 and match.round.to_act == 0  # the computers played up to the human
    assert "a bug in a player" in caplog.text and "playing safe" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_a_refused_computer_move_is_replaced_by_a_safe_one(
    thread_pool: computers.FairPool,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game, _ = await database_sync_to_async(make_game)(seed=COMPUTER_LEADS)
    # A pass while leading is refused by the engine.
    monkeypatch.setattr(thinking, "think", lambda obs, *a: Action.pass_(obs.seat))
    await computers.drive(game.id)
    game, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert "play" in game.actions[0] and game.actions[0]["seat"] == 1
    assert match.round.to_act == 0 and "refused" in caplog.text


def test_the_safe_action_is_legal_in_play_and_in_the_exchange() -> None:
    from rules_engine import Round, RuleSet, observe
    from rules_engine.match import apply_to_round

    r = Round.deal(RuleSet.preset("standard"), 4, seed=3)
    for _ in range(40):
        if r.over:
            break
        seat = r.to_act
        action = thinking.safe_action(observe(r, seat))
        assert action.seat == seat
        nxt = apply_to_round(r, action)
        assert not isinstance(nxt, Refusal)
        r = nxt


def test_the_safe_action_never_searches() -> None:
    """Under the rules where the intermediate level searches (UECda's), the fallback is
    its choice without the search: the learned policy's best move, whatever the seed."""
    from rules_engine import Round, RuleSet, observe
    from rules_engine.ai.policy import observation_move
    from rules_engine.state import PLAY

    r = Round.deal(RuleSet.preset("uecda"), 5, seed=4)
    seen = 0
    while r.phase == PLAY and seen < 30:
        obs = observe(r, r.to_act)
        move = observation_move(obs)
        assert thinking.safe_action(obs) == thinking._action(obs.seat, move)
        nxt = r.apply(move)
        assert not isinstance(nxt, Refusal)
        r = nxt
        seen += 1
    assert seen >= 20


@pytest.mark.django_db(transaction=True)
async def test_two_drivers_of_one_game_compute_each_turn_once(
    thread_pool: computers.FairPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _ = await database_sync_to_async(make_game)(seed=COMPUTER_LEADS)
    calls: list[tuple[int, int]] = []
    real = thinking.think

    def counted(obs: object, level: str, seed: str, budget: object) -> Action:
        calls.append((obs.seat, int(seed.split(":")[1])))  # type: ignore[attr-defined]
        return real(obs, level, seed, budget)  # type: ignore[arg-type]

    monkeypatch.setattr(thinking, "think", counted)
    # Two processes receiving the same turn: one holds the lease, the other leaves.
    await asyncio.gather(computers.drive(game.id), computers.drive(game.id))
    turns = await database_sync_to_async(_computer_turns)(game.id)
    assert turns >= 1 and len(calls) == turns == len(set(calls))


@pytest.mark.django_db(transaction=True)
async def test_the_sweep_resumes_a_game_nobody_drives(thread_pool: computers.FairPool) -> None:
    from datetime import timedelta

    from django.utils import timezone

    game, _ = await database_sync_to_async(make_game)(seed=COMPUTER_LEADS)
    # As after a restart (or a worker killed mid-think): the computer is to act, nothing runs.
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(
        updated=timezone.now() - timedelta(seconds=10)
    )
    assert await computers.sweep_once() == 1
    await asyncio.gather(*computers._DRIVERS.values())
    _, match = await database_sync_to_async(services.current)(game.id)  # type: ignore[misc]
    assert match.round.to_act == 0
    # Waiting on the human now: the next sweep leaves it alone.
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(
        updated=timezone.now() - timedelta(seconds=10)
    )
    assert await computers.sweep_once() == 0


@pytest.mark.django_db(transaction=True)
async def test_a_held_lease_keeps_the_sweep_away(thread_pool: computers.FairPool) -> None:
    from datetime import timedelta

    from django.utils import timezone

    game, _ = await database_sync_to_async(make_game)(seed=COMPUTER_LEADS)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(
        updated=timezone.now() - timedelta(seconds=10)
    )
    assert await computers.leases().claim(game.id, "another-worker")
    assert await computers.sweep_once() == 0
    await computers.leases().release(game.id, "another-worker")
    assert await computers.sweep_once() == 1
    await asyncio.gather(*computers._DRIVERS.values())


def test_a_cached_copy_never_answers_a_read_without_a_version() -> None:
    game, _ = make_game(seed=HUMAN_LEADS)
    services.current(game.id)  # cached at version 0 here
    other = lead_action(game)
    Game.objects.filter(pk=game.id).update(actions=[other.to_json()], version=1)
    # Another worker's write is seen by every read that does not name a version...
    assert services.current(game.id)[0].version == 1  # type: ignore[index]
    # ...and a named older version is served from the cache only as that version's state.
    assert services.cached(game.id, 2) is None


def test_a_broadcast_brings_another_process_copy_to_the_stored_row() -> None:
    """learn(): another process's copy, one version behind, advanced by the broadcast's
    news, equals the row and match read back from the database."""
    game, _ = make_game(seed=HUMAN_LEADS)
    before = services.current(game.id)
    assert before is not None
    outcome = services.apply_action(game.id, lead_action(game), by_computer=False)
    news = services.news_of(game.id, outcome.version)
    assert news is not None and news["action"] == Game.objects.get(pk=game.id).actions[-1]
    # The other process: it still holds version 0.
    services._CACHE.clear()
    services._remember(*before)
    services.learn(game.id, outcome.version, news)
    learned = services.cached(game.id, outcome.version)
    assert learned is not None
    stored = Game.objects.get(pk=game.id)
    for name in ("actions", "version", "scores", "status", "updated", "owner", "seats"):
        assert getattr(learned[0], name) == getattr(stored, name), name
    assert learned[1].round == Match.from_record(stored.record()).round


def test_news_from_elsewhere_than_the_version_before_is_ignored() -> None:
    game, _ = make_game(seed=HUMAN_LEADS)
    services.current(game.id)
    outcome = services.apply_action(game.id, lead_action(game), by_computer=False)
    news = services.news_of(game.id, outcome.version)
    assert news is not None
    services._CACHE.clear()
    services.learn(game.id, outcome.version, news)  # nothing cached: nothing learned
    assert services.cached(game.id, 0) is None
    services.current(game.id)  # version 1 now cached
    services.learn(game.id, 5, news)  # a gap: ignored
    unreadable = {"action": {"kind": "bogus"}, "updated": "x", "seats": news["seats"]}
    services.learn(game.id, 2, unreadable)
    services.learn(game.id, 2, {k: news[k] for k in ("action", "updated")})  # no seats
    services.learn(game.id, 2, news)
    found = services.cached(game.id, 0)
    # Replaying the lead again is refused by the engine: the copy stays at version 1.
    assert found is not None and found[0].version == 1
