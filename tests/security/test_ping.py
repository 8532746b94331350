"""The ping socket: bounded size and rate, non-JSON answered, slow readers dropped, and a
flood that does not grow the server's memory (a real daphne on loopback)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from daifugo_site.asgi import application

from .socket_helpers import Daphne, RawSocket, daphne, probe_flood

ORIGIN = [(b"origin", b"http://127.0.0.1")]


async def open_ping(lang: str = "zh-hans") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/ping/{lang}/", headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        ("not json at all", "malformed"),
        ("{", "malformed"),
        ("[1, 2]", "malformed"),
        ("42", "malformed"),
        ('{"data": Infinity}', "malformed"),
        ('{"data": NaN}', "malformed"),
        ('{"data": 1e999}', "malformed"),
        ('{"data": ' + "9" * 5000 + "}", "too_large"),
        ('{"data": ' + "[" * 300 + "]" * 300 + "}", "malformed"),
        ('{"data": "' + "x" * 2000 + '"}', "too_large"),
        ('{"data": "' + "字" * 400 + '"}', "too_large"),  # 1,200 bytes in UTF-8
    ],
)
async def test_unreadable_frames_are_answered_and_the_socket_survives(frame, reason) -> None:
    communicator = await open_ping("ja")
    await communicator.send_to(text_data=frame)
    reply = await communicator.receive_json_from(timeout=2)
    assert reply["type"] == "error" and reply["reason"] == reason
    assert reply["message"] in ("メッセージを読み取れませんでした。", "メッセージが長すぎます。")
    await communicator.send_json_to({"data": "still here"})
    assert (await communicator.receive_json_from(timeout=2))["echo"] == "still here"
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_binary_frame_is_malformed() -> None:
    communicator = await open_ping()
    await communicator.send_to(bytes_data=b"\x00\x01")
    reply = await communicator.receive_json_from(timeout=2)
    assert reply == {"type": "error", "reason": "malformed", "message": "无法读取这条消息。"}
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@override_settings(PING_MESSAGES_PER_SECOND=1.0, PING_MESSAGE_BURST=3)
async def test_a_flood_is_throttled_and_answered_once() -> None:
    communicator = await open_ping()
    for i in range(50):
        await communicator.send_json_to({"data": i})
    replies = []
    while not await communicator.receive_nothing(timeout=0.2):
        replies.append(await communicator.receive_json_from())
    pongs = [r for r in replies if r["type"] == "pong"]
    floods = [r for r in replies if r.get("reason") == "flood"]
    assert [p["echo"] for p in pongs] == [0, 1, 2]
    assert len(floods) == 1 and floods[0]["message"] == "一下子发了太多消息，请慢一点。"
    await communicator.disconnect()


# -- a real daphne: the probe's flood, and a client that never reads ------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[Daphne]:
    # Ping rate limits lifted for this server, so the slow-reader case is about the send
    # queue alone (with the default rate a non-reader could not fill it for hours).
    with daphne({"PING_MESSAGES_PER_SECOND": "1000000", "PING_MESSAGE_BURST": "1000000"}) as s:
        yield s


def test_a_big_message_flood_does_not_grow_memory(server: Daphne) -> None:
    # The probe: messages of 1 MB, never reading (before: 81 -> 1,518 MB after 1,500).
    client = RawSocket(server.port, "/ws/ping/zh-hans/", rcvbuf=4096)
    before = server.rss_mb()
    payload = json.dumps({"data": "x" * 1_000_000})
    for _ in range(150):
        client.send_text(payload)
    time.sleep(1)
    assert server.rss_mb() - before < 40
    client.close()


def test_a_client_that_never_reads_is_dropped(server: Daphne) -> None:
    client = RawSocket(server.port, "/ws/ping/zh-hans/", rcvbuf=4096)
    before = server.rss_mb()
    payload = json.dumps({"data": "x" * 950})  # each answer is about 1 kB
    sent = 0
    with pytest.raises(OSError):  # the server aborts the connection: reset / broken pipe
        for _ in range(200_000):
            client.send_text(payload)
            sent += 1
    # Dropped once the kernel's buffers and LIMIT_SEND_BACKLOG_BYTES were full (a few MB),
    # long before 200,000 answers (200 MB) were queued.
    assert sent < 50_000
    assert server.rss_mb() - before < 40
    client.close()
    # Its cleanup ran and the server still answers others.
    other = RawSocket(server.port, "/ws/ping/ja/")
    other.send_text('{"data": "hi"}')
    assert other.receive_json()["message"] == "接続は正常です。"
    other.close()
    assert "WSDISCONNECT /ws/ping/zh-hans/" in server.log()


def test_daphne_can_refuse_big_frames_before_buffering_them() -> None:
    # What docs/production.md advises: the server closes the connection on a
    # frame over the limit instead of reading a megabyte the consumer will refuse.
    args = ("--websocket-max-message-size", "16384", "--websocket-max-frame-size", "16384")
    with daphne(args=args) as server:
        client = RawSocket(server.port, "/ws/ping/zh-hans/")
        client.send_text('{"data": "small"}')
        assert client.receive_json()["echo"] == "small"
        with pytest.raises(OSError):
            for _ in range(50):
                client.send_text(json.dumps({"data": "x" * 1_000_000}))
            client.receive()  # the close, if the writes got through
            client.receive()
        client.close()


@pytest.mark.parametrize("socket_kind", ["ping", "play"])
@pytest.mark.parametrize(("frames", "size"), [(100_000, 200), (40_000, 15_000)])
def test_a_frame_flood_is_dropped_and_memory_stays_bounded(
    socket_kind: str, frames: int, size: int
) -> None:
    """Issue 45: frames queued in daphne before the consumer's rate limit could drop them
    (15 KB frames: 97 -> 769 MB). Small and medium frames, on the ping socket and on the
    play socket as a cookieless viewer: the client is dropped once its frames outrun the
    consumer by the inbound bound, and RSS stays within a fixed budget."""
    with daphne() as server:
        # Warm the process (first page, first game, first socket) before measuring.
        probe_flood(10, 10, socket_kind=socket_kind, server=server)
        out = probe_flood(frames, size, socket_kind=socket_kind, server=server)
        assert out["server_still_answers"]
        assert int(out["messages_sent"]) < frames  # dropped, not served to the end
        growth = float(out["rss_after_mb"]) - float(out["rss_before_mb"])
        assert growth < 30, out


async def test_a_push_racing_a_closing_page_is_dropped_quietly() -> None:
    """Issue 45: "Attempt to send on a closed protocol" (autobahn's Disconnected) escaped a
    push that raced the page closing. The websocket stack drops such a send; any other
    error still reaches the application."""
    from autobahn.exception import Disconnected

    from daifugo_site.limits import SendBacklog

    sent: list[dict[str, object]] = []

    async def closed_send(message: dict[str, object]) -> None:
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    async def pushes(scope: object, receive: object, send: object) -> None:
        await send({"type": "websocket.send", "text": "a push"})  # type: ignore[operator]
        await send({"type": "websocket.send", "text": "another"})  # type: ignore[operator]

    await SendBacklog(pushes)({"type": "websocket"}, None, closed_send)
    assert [m["text"] for m in sent] == ["a push", "another"]

    async def broken_send(message: dict[str, object]) -> None:
        raise ValueError("a real bug")

    with pytest.raises(ValueError):
        await SendBacklog(pushes)({"type": "websocket"}, None, broken_send)
