"""Quick messages at a room's table (daifugo_site/play/phrases.py): a phrase id only,
checked and rate-limited per seat, shown to every player of the table in their own
language, marked as a message in the log; never part of the game, never a card."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from daifugo_site.play import phrases
from daifugo_site.play.models import Game
from tests.daifugo_site.play.conftest import PlayClient, make_game

from .conftest import seated_room
from .test_hotseat import hotseat_game

pytestmark = pytest.mark.django_db(transaction=True)


def said(message: str) -> dict[str, str]:
    mark = re.search(r'<div id="table-said"([^>]*)>', message)
    assert mark is not None, message[:300]
    return dict(re.findall(r'data-([a-z]+)="([^"]*)"', mark.group(1)))


async def _two_people() -> tuple[Game, PlayClient, PlayClient]:
    _room, game, sessions = await database_sync_to_async(seated_room)(2, rounds=1)
    assert game is not None
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    aki = PlayClient(game.id, sessions[0][0])
    other = PlayClient(game.id, sessions[1][0], lang="ja")
    await aki.connect()
    await other.connect()
    await aki.drain()
    await other.drain()
    return game, aki, other


async def _said_push(client: PlayClient) -> str:
    """The next push that carries a quick message (presence panels may come between)."""
    for _ in range(10):
        await client.receive()
        if 'id="table-said"' in client.messages[-1]:
            return client.messages[-1]
    raise AssertionError("no quick message arrived")


async def test_a_phrase_reaches_every_player_in_their_language_as_a_log_message() -> None:
    game, aki, other = await _two_people()
    version = (await database_sync_to_async(Game.objects.get)(pk=game.id)).version
    await aki.send({"action": "say", "phrase": "hello"})
    mine, theirs = await _said_push(aki), await _said_push(other)
    assert said(mine)["seat"] == "0" and " data-mine " in mine
    assert " data-mine " not in theirs
    assert said(theirs) | {"n": ""} == {
        "n": "",
        "seat": "0",
        "phrase": "hello",
        "text": "こんにちは！",
        "line": "Aki：「こんにちは！」",
    }
    assert "你好！" in mine and "你：“你好！”" in mine
    # A line of the log, marked as a message (not a move), appended to the round's log.
    assert 'class="log__item log__item--message"' in theirs
    assert "メッセージ" in theirs
    assert 'data-card="' not in theirs and 'data-card="' not in mine
    # Nothing of the game changed: not a move, not in the action log.
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.version == version
    await aki.close()
    await other.close()


async def test_an_unknown_phrase_is_refused_and_nothing_is_sent() -> None:
    _game, aki, other = await _two_people()
    for bad in ("free text!", 3, None, "x" * 40):
        await aki.send({"action": "say", "phrase": bad})
        table = await aki.receive()
        assert table.error == "no_such_phrase"
        assert "ボタン" not in aki.messages[-1] and "按钮" in aki.messages[-1]
    assert await other.communicator.receive_nothing(timeout=0.3)
    await aki.close()
    await other.close()


@override_settings(PLAY_SAY_GAP_S=3, PLAY_SAY_PER_MINUTE=3)
async def test_each_seat_is_rate_limited_and_told_so(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(phrases.limits.time, "time", lambda: clock[0])
    _game, aki, other = await _two_people()
    await aki.send({"action": "say", "phrase": "hello"})
    await _said_push(other)
    await aki.drain()
    await aki.send({"action": "say", "phrase": "thanks"})
    assert (await aki.receive()).error == "say_too_soon"
    assert "几秒" in aki.messages[-1]
    # The other seat has its own windows.
    await other.send({"action": "say", "phrase": "hello"})
    await _said_push(aki)
    await other.drain()
    for _ in range(2):
        clock[0] += 7
        await aki.send({"action": "say", "phrase": "nice"})
        await _said_push(aki)
    clock[0] += 7
    await aki.send({"action": "say", "phrase": "nice"})
    assert (await aki.receive()).error == "say_per_minute"
    assert "一分钟" in aki.messages[-1]
    await aki.close()
    await other.close()


async def test_no_quick_messages_in_practice_nor_for_a_viewer() -> None:
    game, key = await database_sync_to_async(make_game)()
    practice = PlayClient(game.id, key, lang="ja")
    await practice.connect()
    await practice.send({"action": "say", "phrase": "hello"})
    assert (await practice.receive()).error == "no_quick_messages"
    assert "ほかの人" in practice.messages[-1]
    await practice.close()

    table_game, aki, other = await _two_people()
    viewer = PlayClient(table_game.id, None)
    await viewer.connect()
    await viewer.drain()
    await viewer.send({"action": "say", "phrase": "hello"})
    assert (await viewer.until(lambda t: t.error is not None)).error == "no_quick_messages"
    await viewer.drain()
    await aki.send({"action": "say", "phrase": "moment"})
    await _said_push(other)
    # The messages are between the people playing: a watcher's page gets none.
    await viewer.drain()
    assert not any('id="table-said"' in m for m in viewer.messages)
    for c in (aki, other, viewer):
        await c.close()


async def test_a_hotseat_device_has_no_one_to_message() -> None:
    game_id, key = await database_sync_to_async(hotseat_game)()
    device = PlayClient(game_id, key)
    await device.connect()
    await device.send({"action": "say", "phrase": "hello"})
    for _ in range(5):
        table = await device.receive()
        if table.error:
            break
    assert table.error == "no_quick_messages"
    await device.close()


def test_phrases_offered_only_to_players_at_tables_of_people() -> None:
    game, _key = make_game()
    assert not phrases.offered(game, True)
    _room, table, _sessions = seated_room(2, rounds=1)
    assert table is not None
    assert phrases.offered(table, True) and not phrases.offered(table, False)
    table.seats = [dict(e, hotseat=True) for e in table.seats]
    assert not phrases.offered(table, True)


def _page(session_key: str, lang: str, name: str, *args: object) -> str:
    from django.test import Client
    from django.urls import reverse
    from django.utils import translation

    client = Client()
    client.cookies["sessionid"] = session_key
    with translation.override(lang):
        url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_picker_is_on_a_room_players_page_only_and_the_sound_switch_everywhere() -> None:
    _room, game, sessions = seated_room(2, rounds=1)
    assert game is not None
    page = _page(sessions[1][0], "ja", "play:game", game.id)
    assert 'data-testid="quick-messages"' in page and 'data-testid="sound-switch"' in page
    buttons = re.findall(r'<button[^>]*data-action="say"[^>]*>([^<]+)</button>', page)
    assert buttons == ["こんにちは！", "よろしくお願いします！", "いい手ですね！",
                       "少々お待ちください。", "ありがとうございます！", "すみません！",
                       "対戦ありがとうございました！"]  # fmt: skip
    # The sound files come through the static pipeline (hashed names in production).
    assert re.search(r'data-sound-turn="/static/sounds/turn[.a-z0-9]*wav"', page)

    practice, key = make_game()
    page = _page(key, "zh-hans", "play:game", practice.id)
    assert 'data-testid="sound-switch"' in page and "音效" in page
    assert 'data-testid="quick-messages"' not in page

    game_id, key = hotseat_game()
    page = _page(key, "zh-hans", "play:game", game_id)
    assert 'data-testid="sound-switch"' in page
    assert 'data-testid="quick-messages"' not in page
