"""A private resume link: a way back to your game without the cookie."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client

from daifugo_site.play.models import Game, hash_resume_token
from tests.daifugo_site.play.conftest import PlayClient

FORM = {
    "table": "4",
    "preset": "standard",
    "rounds": "3",
    "speed": "700",
    "level_1": "beginner",
    "level_2": "beginner",
    "level_3": "beginner",
}


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


def resume_link(page: str) -> str:
    found = re.search(r'value="http://testserver(/[a-z-]+/play/[^/]+/resume/[^"/]+/)"', page)
    assert found, "no resume link on the page"
    return found.group(1)


def new_game(client: Client) -> Game:
    client.post("/zh-hans/play/", FORM)
    return Game.objects.latest("created")


@pytest.mark.django_db
def test_the_owner_sees_a_private_link_and_a_viewer_does_not(content: None) -> None:
    owner = Client()
    game = new_game(owner)
    page = owner.get(game.get_absolute_url()).content.decode()
    link = resume_link(page)
    token = link.rstrip("/").split("/")[-1]
    assert len(token) >= 32
    assert "回到这局游戏的私人链接" in page
    # Stored hashed: the database holds no working link.
    game.refresh_from_db()
    assert game.resume_hash == hash_resume_token(token) and token not in game.resume_hash
    # The same link on every visit (it can be bookmarked).
    assert resume_link(owner.get(game.get_absolute_url()).content.decode()) == link
    viewer_page = Client().get(game.get_absolute_url()).content.decode()
    assert "/resume/" not in viewer_page and token not in viewer_page
    assert game.resume_hash not in viewer_page
    assert 'data-testid="resume"' not in viewer_page


@pytest.mark.django_db
def test_opening_the_link_asks_then_moves_the_game_to_the_new_browser(content: None) -> None:
    old = Client()
    game = new_game(old)
    link = resume_link(old.get(game.get_absolute_url()).content.decode())
    new = Client()
    asked = new.get(link.replace("/zh-hans/", "/ja/"))
    assert asked.status_code == 200
    assert "このブラウザーで続けますか" in asked.content.decode()
    # Never to another site; "no-referrer" made the button's POST "Origin: null" (a 403).
    assert asked["Referrer-Policy"] == "same-origin"
    assert "no-store" in asked["Cache-Control"]
    # A GET (a link preview, a prefetch) changes nothing.
    assert 'data-testid="resume"' not in new.get(game.get_absolute_url()).content.decode()
    assert new.post(link).status_code == 302
    page = new.get(game.get_absolute_url()).content.decode()
    assert 'data-testid="hand"' in page and "data-card" in page
    assert resume_link(page) == link  # the same link keeps working
    old_page = old.get(game.get_absolute_url()).content.decode()
    assert "你正在旁观这局游戏" in old_page and "/resume/" not in old_page
    # The old browser can come back with the link too.
    assert old.post(link).status_code == 302
    assert 'data-testid="resume"' in old.get(game.get_absolute_url()).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("wrong", ["x" * 32, "", "a" * 200])
def test_a_wrong_token_is_not_found(content: None, wrong: str) -> None:
    owner = Client()
    game = new_game(owner)
    resume_link(owner.get(game.get_absolute_url()).content.decode())
    stranger = Client()
    path = f"/zh-hans/play/{game.id}/resume/{wrong}/" if wrong else f"/zh-hans/play/{game.id}/"
    if wrong:
        assert stranger.get(path).status_code == 404
        assert stranger.post(path).status_code == 404
    game.refresh_from_db()
    assert owner.get(game.get_absolute_url()).content.decode().count('data-testid="hand"') == 1
    assert "data-card" not in stranger.get(game.get_absolute_url()).content.decode()


@pytest.mark.django_db(transaction=True)
async def test_pages_of_the_old_browser_become_viewers_pages(content: None) -> None:
    old = Client()
    game = await database_sync_to_async(new_game)(old)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(delay_ms=60_000)
    response = await database_sync_to_async(old.get)(game.get_absolute_url())
    link = resume_link(response.content.decode())
    page = PlayClient(game.id, old.cookies["sessionid"].value)
    table = await page.connect()
    assert table.hand
    new = Client()
    await database_sync_to_async(new.post)(link)
    rebound = await page.receive()
    assert rebound.hand == [] and rebound.cards_shown == []
    await page.send({"action": "pass", "v": "0"})
    assert (await page.receive()).error == "not_owner"
    await page.close()
