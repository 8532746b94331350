"""Viewer sockets: a cap per game, and one rendering per game version shared by all."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import override_settings

from daifugo_site import limits
from daifugo_site.play import rendering
from daifugo_site.play.models import Game
from tests.daifugo_site.play.conftest import PlayClient, make_game

pytestmark = pytest.mark.django_db(transaction=True)

HUMAN_LEADS = 0


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    rendering._RENDERED.clear()
    yield
    cache.clear()


async def quiet_game() -> tuple[Game, str]:
    game, key = await database_sync_to_async(make_game)(seed=HUMAN_LEADS)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    return game, key


@override_settings(PLAY_MAX_VIEWERS_PER_GAME=2)
async def test_viewers_are_capped_per_game_and_the_owner_always_gets_in() -> None:
    game, key = await quiet_game()
    first, second = PlayClient(game.id, None), PlayClient(game.id, None)
    await first.connect()
    await second.connect()
    third = PlayClient(game.id, None, lang="ja")
    table = await third.connect()
    assert table.error == "viewers_full"
    assert "観戦できる人数がいっぱいです" in table.raw
    assert (await third.communicator.receive_output(timeout=2)) == {
        "type": "websocket.close",
        "code": limits.CLOSE_TOO_MANY,
    }
    owner = PlayClient(game.id, key)
    assert (await owner.connect()).error is None
    # A place freed is a place taken again; another game has its own places.
    await first.close()
    assert limits.gauge("viewers", game.id) == 1
    again = PlayClient(game.id, None)
    assert (await again.connect()).error is None
    other, _ = await quiet_game()
    elsewhere = PlayClient(other.id, None)
    assert (await elsewhere.connect()).error is None
    for page in (second, owner, again, elsewhere):
        await page.close()
    assert limits.gauge("viewers", game.id) == 0


async def test_one_rendering_per_version_for_all_viewers(monkeypatch) -> None:
    calls: list[tuple[int, bool]] = []
    real = rendering.table_view

    def counting(game, match, *, is_owner):
        calls.append((game.version, is_owner))
        return real(game, match, is_owner=is_owner)

    monkeypatch.setattr(rendering, "table_view", counting)
    game, key = await quiet_game()
    viewers = [PlayClient(game.id, None) for _ in range(10)]
    for page in viewers:
        await page.connect()
    owner = PlayClient(game.id, key)
    table = await owner.connect()
    assert calls == [(0, False), (0, True)]
    await owner.send({"action": "play", "cards": " ".join(table.legal[0]["cards"]), "v": "0"})
    await owner.until(lambda t: t.version == 1)
    for page in viewers:
        seen = await page.until(lambda t: t.version == 1)
        assert seen.hand == []
    # One rendering of version 1 for ten viewers (and one for the owner, with the hand).
    assert sorted(c for c in calls if c[0] == 1) == [(1, False), (1, True)]
    # Every viewer got the same frame; the owner's is another (it holds the hand).
    frames = {page.messages[-1] for page in viewers}
    assert len(frames) == 1 and owner.messages[-1] not in frames
    for page in [*viewers, owner]:
        await page.close()


async def test_renderings_are_kept_apart_by_language_and_role() -> None:
    game, key = await quiet_game()
    zh, ja = PlayClient(game.id, None), PlayClient(game.id, None, lang="ja")
    owner = PlayClient(game.id, key)
    tables = [await page.connect() for page in (zh, ja, owner)]
    assert "旁观者看不到手牌" in tables[0].raw and "観戦中は手札が見えません" in tables[1].raw
    assert tables[0].hand == tables[1].hand == [] and len(tables[2].hand) >= 13
    for page in (zh, ja, owner):
        await page.close()


def test_the_rendering_cache_is_bounded() -> None:
    game, _key = make_game(seed=HUMAN_LEADS)
    for i in range(rendering._RENDERED.size + 50):
        rendering._remember(("x", i), ("", {}, 0))
    assert len(rendering._RENDERED) == rendering._RENDERED.size
    assert rendering.render_table(game.id, "zh-hans", False) is not None
    assert len(rendering._RENDERED) == rendering._RENDERED.size
