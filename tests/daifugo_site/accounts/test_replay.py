"""A finished practice game's replay page: linkable, stepped move by move, every hand for
the browser that played it, none for anyone else; no replay before the end."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from daifugo_site.play import services
from daifugo_site.play.models import Game
from rules_engine import Match, RuleSet, card_codes

from .test_accounts import _finish_practice_game

pytestmark = pytest.mark.django_db


def shown(html: str) -> set[str]:
    return set(re.findall(r'data-card="([A-Z0-9]{2})"', html))


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_practice_replay(client: Client, lang: str) -> None:
    session = client.session
    token = services.player_token(session)
    session.save()
    game = _finish_practice_game(token)
    match = services.match_of(Game.objects.get(pk=game.pk))
    first = Match.new(match.rules, match.players, match.rounds, match.seed).round
    dealt = {c for h in first.hands for c in card_codes(h)}
    url = f"/{lang}/accounts/games/{game.pk}/"
    page = client.get(url).content.decode()
    assert 'data-testid="replay"' in page
    assert 'data-action="replay-next"' in page and 'data-action="replay-prev"' in page
    assert page.count('data-frame="') == len(match.log) + 1
    assert shown(page) == dealt
    assert "Computer" not in page and "Replay" not in page  # translated
    others = Client().get(url).content.decode()
    played = {c for a in match.log if a.kind == "play" for c in (a.cards or "").split()}
    assert shown(others) <= played


def test_no_replay_before_the_end(client: Client) -> None:
    game = services.create_game(
        owner="someone",
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=1,
        levels=["beginner"] * 3,
        delay_ms=0,
    )
    response = client.get(f"/ja/accounts/games/{game.pk}/")
    assert response.status_code == 404 and "data-card" not in response.content.decode()
    assert client.get("/ja/accounts/games/nope/").status_code == 404


def test_a_room_players_replay_shows_the_hands_to_each_seated_person() -> None:
    from tests.daifugo_site.accounts.test_client_stats import play_to_end
    from tests.daifugo_site.rooms.conftest import seated_room

    _room, game, sessions = seated_room(2, players=3, rounds=1)
    assert game is not None
    play_to_end(game.id)
    match = services.match_of(Game.objects.get(pk=game.pk))
    first = Match.new(match.rules, match.players, match.rounds, match.seed).round
    dealt = {c for h in first.hands for c in card_codes(h)}
    url = f"/zh-hans/accounts/games/{game.pk}/"
    for key, _token in sessions:  # the creator and the person who took seat 1
        browser = Client()
        browser.cookies["sessionid"] = key
        assert shown(browser.get(url).content.decode()) == dealt
    played = {c for a in match.log if a.kind == "play" for c in (a.cards or "").split()}
    assert shown(Client().get(url).content.decode()) <= played
