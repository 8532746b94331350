"""Whatever a client sends to the play socket, it is answered (``malformed`` and the like,
translated), nothing changes, the socket stays open, and leaving always cleans up."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from daifugo_site.play import consumers, services
from daifugo_site.play.models import Game
from tests.daifugo_site.play.conftest import PlayClient, make_game

pytestmark = pytest.mark.django_db(transaction=True)

HUMAN_LEADS = 0  # seed: seat 0 holds the diamond 3


async def open_game(owner: bool = True) -> tuple[Game, PlayClient]:
    game, key = await database_sync_to_async(make_game)(seed=HUMAN_LEADS)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    client = PlayClient(game.id, key if owner else None)
    await client.connect()
    return game, client


async def versions(game_id: str) -> tuple[int, list[object]]:
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    return game.version, game.actions


@pytest.mark.parametrize("owner", [True, False], ids=["owner", "viewer"])
@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        ('{"action": "pass", "v": Infinity}', "malformed"),
        ('{"action": "pass", "v": -Infinity}', "malformed"),
        ('{"action": "pass", "v": NaN}', "malformed"),
        ('{"action": "pass", "v": 1e999}', "malformed"),
        ('{"action": "pass", "v": ' + "9" * 40 + "}", "malformed"),
        ("[" * 2000 + "]" * 2000, "malformed"),
        ('{"a": ' + "[" * 2000 + "]" * 2000 + "}", "malformed"),
        ('{"a": {"b": {"c": {"d": {"e": 1}}}}}', "malformed"),
        ("null", "malformed"),
        ("true", "malformed"),
        ('"pass"', "malformed"),
        ("\ud800", "malformed"),
        ('{"action": "pass", "v": "' + "x" * 5000 + '"}', "too_large"),
    ],
)
async def test_what_parsing_raises_is_answered_before_the_owner_check(
    owner: bool, frame: str, reason: str
) -> None:
    game, client = await open_game(owner)
    before = await versions(game.id)
    await client.send(frame)
    table = await client.receive()
    assert table.error == reason
    assert 'role="alert"' in table.raw
    assert ("无法读取这条消息。" if reason == "malformed" else "这条消息太长了。") in table.raw
    assert await versions(game.id) == before
    # Still open and still answering.
    await client.send({"action": "dance"})
    assert (await client.receive()).error == ("unknown_action" if owner else "not_owner")
    await client.close()


@pytest.mark.parametrize(
    "payload",
    [
        {"action": "pass", "v": True},
        {"action": "pass", "v": [0]},
        {"action": "pass", "v": {"x": 0}},
        {"action": "pass", "v": -1},
        {"action": "pass", "v": 0.5},
        {"action": "pass", "v": "1e3"},
        {"action": "pass", "v": "٣"},  # a digit, but not an ASCII one
        {"action": "play", "cards": "D3", "shape": ["group"], "v": 0},
        {"action": "play", "cards": "D3", "shape": 7, "v": 0},
    ],
)
async def test_wrong_types_are_malformed(payload) -> None:
    game, client = await open_game()
    await client.send(payload)
    assert (await client.receive()).error == "malformed"
    assert (await versions(game.id))[0] == 0
    await client.close()


@pytest.mark.parametrize(
    "payload",
    [{"action": ["play"]}, {"action": {"x": 1}}, {"action": 5}, {"action": None}],
)
async def test_an_action_that_is_not_a_name_is_unknown(payload) -> None:
    game, client = await open_game()
    await client.send(payload)
    assert (await client.receive()).error == "unknown_action"
    await client.close()


async def test_a_binary_frame_is_malformed() -> None:
    game, client = await open_game()
    await client.communicator.send_to(bytes_data=b'{"action": "pass", "v": 0}')
    assert (await client.receive()).error == "malformed"
    await client.close()


def members(game_id: str) -> set[str]:
    layer = get_channel_layer()
    return set(layer.groups.get(services.group_name(game_id), {}))


async def test_a_handler_that_raises_answers_and_keeps_the_socket(monkeypatch) -> None:
    game, client = await open_game()

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "submit", broken)
    await client.send({"action": "pass", "v": 0})
    table = await client.receive()
    assert table.error == "error" and "不能这样做。" in table.raw
    assert len(members(game.id)) == 1
    await client.close()
    assert members(game.id) == set()


async def test_cleanup_runs_even_when_the_consumer_crashes(monkeypatch) -> None:
    game, client = await open_game(owner=False)
    viewer = PlayClient(game.id, None)
    await viewer.connect()
    assert len(members(game.id)) == 2

    async def broken(self, event):
        raise RuntimeError("a bug in a push")

    monkeypatch.setattr(consumers.GameConsumer, "game_update", broken)
    await services.broadcast(game.id, 1)
    # Both consumers died (as a bug in a push would kill them)...
    for page in (client, viewer):
        with pytest.raises(RuntimeError):
            await page.communicator.wait(timeout=2)
    # ...and still left the group and gave their viewer places back.
    assert members(game.id) == set()
    from daifugo_site import limits

    assert limits.gauge("viewers", game.id) == 0
