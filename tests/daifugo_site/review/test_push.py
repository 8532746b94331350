"""The review's progress is pushed over a WebSocket to the player's page, and to nobody else."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from daifugo_site.asgi import application
from daifugo_site.review import services
from daifugo_site.review.models import Review

from .conftest import owner_client, scripted_game

ORIGIN = (b"origin", b"http://127.0.0.1")


def _socket(game_id: str, session_key: str | None, lang: str = "ja") -> WebsocketCommunicator:
    headers = [ORIGIN]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, f"/ws/review/{lang}/{game_id}/", headers=headers)


@pytest.mark.django_db(transaction=True)
async def test_each_stored_decision_is_pushed_and_the_last_push_fetches_the_review() -> None:
    client, token = await database_sync_to_async(owner_client)()
    game = await database_sync_to_async(scripted_game)(token)
    review = await Review.objects.acreate(game=game, seat=0, total=3, items=[], worlds=4)
    page = (await database_sync_to_async(client.get)(f"/ja/review/game/{game.id}/")).content
    assert b'ws-connect="/ws/review/ja/' in page
    key = client.cookies["sessionid"].value
    ws = _socket(game.id, key)
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_from(timeout=10)
    assert 'id="review"' in first and 'hx-swap-oob="true"' in first and "3 件中 0 件" in first
    await services.push(review.pk, 2, 3, False)
    second = await ws.receive_from(timeout=10)
    assert "3 件中 2 件" in second and 'value="66"' in second
    await services.push(review.pk, 3, 3, True)
    last = await ws.receive_from(timeout=10)
    # Done: the page fetches the finished review over HTTP (a frame stays small).
    assert 'hx-trigger="load, every 5s"' in last and 'value="100"' in last and len(last) < 4096
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_stranger_gets_no_progress() -> None:
    _client, token = await database_sync_to_async(owner_client)()
    game = await database_sync_to_async(scripted_game)(token)
    await Review.objects.acreate(game=game, seat=0, total=3, items=[], worlds=4)
    stranger, _ = await database_sync_to_async(owner_client)()
    for key in (None, stranger.cookies["sessionid"].value):
        ws = _socket(game.id, key)
        connected, _ = await ws.connect()
        assert connected  # accepted, then closed with the reason code
        out = await ws.receive_output(timeout=10)
        assert out["type"] == "websocket.close" and out["code"] == 4403
