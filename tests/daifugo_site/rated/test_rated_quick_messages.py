"""Quick messages in the rated 1v1 (daifugo_site/play/phrases.py): the same phrases as at
a room's table, each player for their own seat, shown to both in their own language; the
rated page offers the picker and the sound switch."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from daifugo_site.play.models import Game

from .conftest import RatedClient
from .test_rated import new_rated_game

pytestmark = pytest.mark.django_db(transaction=True)


def reverse_in(lang: str, name: str, *args: object) -> str:
    with translation.override(lang):
        return reverse(name, args=args)


async def test_both_players_see_a_phrase_and_a_move_still_applies() -> None:
    await database_sync_to_async(cache.clear)()  # the say windows of an earlier test
    rated, key_a, key_b = await database_sync_to_async(new_rated_game)()
    clients = [RatedClient(rated.game_id, key_a), RatedClient(rated.game_id, key_b, "ja")]
    for c in clients:
        await c.connect()
        await c.drain()
    await clients[1].send({"action": "say", "phrase": "good_luck"})
    for c, line in zip(
        clients, ("“祝你好运！”", "あなた：「よろしくお願いします！」"), strict=True
    ):
        pushed = await c.until(lambda t: 'id="table-said"' in t.raw_message)
        assert line in pushed.raw_message
        assert 'data-seat="1"' in pushed.raw_message
    await clients[0].send({"action": "say", "phrase": "free text"})
    assert (await clients[0].until(lambda t: t.error is not None)).error == "no_such_phrase"
    game = await database_sync_to_async(Game.objects.get)(pk=rated.game_id)
    assert game.version == 0
    for c in clients:
        await c.close()


def test_the_rated_page_offers_the_picker_and_the_sound_switch() -> None:
    rated, key_a, _key_b = new_rated_game()
    client = Client()
    client.cookies["sessionid"] = key_a
    page = client.get(reverse_in("ja", "rated:game", rated.game_id)).content.decode()
    assert 'data-testid="sound-switch"' in page
    assert 'data-testid="quick-messages"' in page
    assert len(re.findall(r'data-action="say"', page)) == 7
    assert "対戦ありがとうございました！" in page
