"""Bad input over the WebSocket gets a clear error and changes nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from daifugo_site.play.models import Game

from .conftest import PlayClient, make_game

pytestmark = pytest.mark.django_db(transaction=True)

HUMAN_LEADS = 0  # seed: seat 0 holds the diamond 3
COMPUTER_LEADS = 13  # seed: seat 1 leads


async def stored(game_id: str) -> Game:
    return await database_sync_to_async(Game.objects.get)(pk=game_id)


async def open_game(seed: int, **kwargs) -> tuple[Game, PlayClient, object]:
    # A long pause keeps the computers from moving while the test pokes at the table.
    game, key = await database_sync_to_async(make_game)(seed=seed, **kwargs)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    client = PlayClient(game.id, key)
    table = await client.connect()
    return game, client, table


async def expect_error(client: PlayClient, data, reason: str, game_id: str) -> None:
    before = await stored(game_id)
    await client.send(data)
    table = await client.receive()
    assert table.error == reason
    assert 'role="alert"' in table.raw
    after = await stored(game_id)
    assert (after.version, after.actions) == (before.version, before.actions)


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("{not json", "malformed"),
        ("[1, 2, 3]", "malformed"),
        ('"play"', "malformed"),
        ({"action": "dance"}, "unknown_action"),
        ({"cards": "S3"}, "unknown_action"),
        ({"action": "play", "cards": "X9 S3", "v": "0"}, "unknown_card"),
        ({"action": "play", "cards": "S3 S3", "v": "0"}, "unknown_card"),
        ({"action": "play", "cards": "", "v": "0"}, "not_a_combination"),
        ({"action": "play", "cards": 42, "v": "0"}, "not_a_combination"),
        ({"action": "play", "cards": "D3", "shape": "triangle", "v": "0"}, "malformed"),
        ({"action": "play", "cards": "D3", "v": "zero"}, "malformed"),
        ({"action": "give", "cards": "D3", "v": "0"}, "wrong_phase"),
        ({"action": "next", "v": "0"}, "wrong_phase"),
    ],
)
async def test_unreadable_or_impossible_messages(payload, reason) -> None:
    game, client, _ = await open_game(HUMAN_LEADS)
    await expect_error(client, payload, reason, game.id)
    await client.close()


async def test_cards_not_held_and_non_combinations_use_the_engine_reason() -> None:
    game, client, table = await open_game(HUMAN_LEADS)
    assert table.your_turn
    theirs = next(c for c in ("S2", "H2", "D2", "C2", "SA") if c not in table.hand)
    await expect_error(
        client, {"action": "play", "cards": theirs, "v": "0"}, "not_in_hand", game.id
    )
    pair = [c for c in table.hand if c != "JK"][:2]
    if pair[0][1] != pair[1][1]:
        await expect_error(
            client,
            {"action": "play", "cards": " ".join(pair), "v": "0"},
            "not_a_combination",
            game.id,
        )
    await expect_error(client, {"action": "pass", "v": "0"}, "leader_cannot_pass", game.id)
    await client.close()


async def test_out_of_turn() -> None:
    game, client, table = await open_game(COMPUTER_LEADS)
    assert not table.your_turn
    await expect_error(
        client, {"action": "play", "cards": table.hand[0], "v": "0"}, "not_your_turn", game.id
    )
    await expect_error(client, {"action": "pass", "v": "0"}, "not_your_turn", game.id)
    await client.close()


async def test_a_repeated_message_is_refused_as_stale() -> None:
    game, client, table = await open_game(HUMAN_LEADS)
    play = {"action": "play", "cards": " ".join(table.legal[0]["cards"]), "v": "0"}
    await client.send(play)
    moved = await client.until(lambda t: t.version is not None and t.version >= 1)
    assert moved.error is None
    await expect_error(client, play, "stale", game.id)
    await client.close()


@override_settings(PLAY_MESSAGES_PER_SECOND=1.0, PLAY_MESSAGE_BURST=3)
async def test_a_flood_is_refused_and_the_connection_survives() -> None:
    game, client, _ = await open_game(COMPUTER_LEADS)
    for _ in range(20):
        await client.send({"action": "pass", "v": "0"})
    reasons = []
    while not await client.communicator.receive_nothing(timeout=0.2):
        reasons.append((await client.receive()).error)
    assert "flood" in reasons
    assert len(reasons) < 20, "flooded messages are dropped, not answered one by one"
    assert (await stored(game.id)).version == 0
    await client.close()


async def test_a_viewer_cannot_act_and_sees_no_hand() -> None:
    game, _key = await database_sync_to_async(make_game)(seed=HUMAN_LEADS)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    viewer = PlayClient(game.id, None)
    table = await viewer.connect()
    assert table.hand == [] and table.legal == []
    assert table.cards_shown == []
    await expect_error(viewer, {"action": "play", "cards": "D3", "v": "0"}, "not_owner", game.id)
    await viewer.close()


async def test_unknown_game_and_language_are_closed() -> None:
    client = PlayClient("nosuchgame", None)
    connected, _ = await client.communicator.connect()
    assert connected
    assert (await client.communicator.receive_output(timeout=2))["code"] == 4004
    game, key = await database_sync_to_async(make_game)(seed=HUMAN_LEADS)
    client = PlayClient(game.id, key, lang="fr")
    await client.communicator.connect()
    assert (await client.communicator.receive_output(timeout=2))["code"] == 4404
