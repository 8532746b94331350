"""The WebSocket ping route, through the real ASGI application (origin check and all)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from daifugo_site.asgi import application

GOOD_ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]

# AuthMiddlewareStack reads the session table (STACK.md trap 2); transaction=True so async
# database access from other threads never leaks rows into later tests (trap 1).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("lang", "message"), [("zh-hans", "连接正常。"), ("ja", "接続は正常です。")]
)
async def test_ping_answers_in_the_language_of_the_url(lang: str, message: str) -> None:
    communicator = WebsocketCommunicator(application, f"/ws/ping/{lang}/", headers=GOOD_ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"data": "hello"})
    reply = await communicator.receive_json_from(timeout=2)
    assert reply == {"type": "pong", "lang": lang, "message": message, "echo": "hello"}
    await communicator.disconnect()


async def test_a_foreign_origin_is_rejected() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/ja/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_a_missing_origin_is_rejected() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/ja/")
    connected, _ = await communicator.connect()
    assert not connected


async def test_an_unknown_language_is_closed_with_a_code() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/fr/", headers=GOOD_ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_output(timeout=2) == {
        "type": "websocket.close",
        "code": 4404,
    }


async def test_text_that_is_not_json_is_answered_not_fatal() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/zh-hans/", headers=GOOD_ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data="hello?")
    assert await communicator.receive_json_from(timeout=2) == {
        "type": "error",
        "reason": "malformed",
        "message": "无法读取这条消息。",
    }
    await communicator.send_json_to({"data": [1, 2]})
    assert (await communicator.receive_json_from(timeout=2))["echo"] == [1, 2]
    await communicator.disconnect()
