"""Issue 38, items 3 and 4: after a resignation both profiles count the game (a win and a
place for the winner, not "None"), and no page still marks the resigner as the one to move."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from daifugo_site.accounts.models import GameResult
from daifugo_site.play import services as play
from daifugo_site.play.models import Game
from daifugo_site.play.presenter import table_view
from daifugo_site.rated import services
from daifugo_site.rated.models import RatedGame
from tests.html import find_one

from .test_rated import new_rated_game

pytestmark = pytest.mark.django_db(transaction=True)


def resigned_game() -> tuple[RatedGame, str, str, int]:
    """A rated game the player to move resigned at once: (game, key of seat 0, key of
    seat 1, the resigner's seat)."""
    rated, key_a, key_b = new_rated_game()
    game = Game.objects.get(pk=rated.game_id)
    to_act = play.match_of(game).round.to_act
    assert services.resign(rated.game_id, [rated.seat0, rated.seat1][to_act])
    return RatedGame.objects.get(pk=rated.pk), key_a, key_b, to_act


def test_both_profiles_count_a_resigned_game() -> None:
    rated, key_a, key_b, resigner = resigned_game()
    winner = 1 - resigner
    results = {r.user_id: r for r in GameResult.objects.filter(game_id=rated.game_id)}
    assert results[rated.user_id_at(winner)].place == 1
    assert results[rated.user_id_at(resigner)].place == 2
    for seat, key in enumerate((key_a, key_b)):
        client = Client()
        client.cookies["sessionid"] = key
        page = client.get("/ja/accounts/profile/").content.decode()
        assert 'data-stat="games">1<' in page
        wins, place = (1, "1") if seat == winner else (0, "2")
        assert f'data-stat="wins">{wins}<' in page
        assert f'data-stat="average-place">{place}<' in page
        assert "None" not in page


def test_no_seat_is_to_move_after_a_resignation() -> None:
    rated, key_a, key_b, _resigner = resigned_game()
    game = Game.objects.get(pk=rated.game_id)
    match = play.match_of(game)
    for seat in (0, 1):
        view = table_view(game, match, is_owner=True, seat=seat)
        assert not any(s.is_turn for s in view.seats)
        assert not view.your_turn and not view.legal
        assert all(s.state_text != "手番" for s in view.seats)


def test_resigning_asks_for_a_confirmation_first() -> None:
    """The first control only opens a second step (a <details>: keyboard and screen readers
    use it as they are, no script); only its confirm button sends the resignation."""
    rated, key_a, _key_b = new_rated_game()
    client = Client()
    client.cookies["sessionid"] = key_a
    page = client.get(f"/ja/rated/{rated.game_id}/").content.decode()
    found = re.search(r'<details[^>]*data-testid="resign".*?</details>', page, re.S)
    assert found, "a resign step"
    step = found.group(0)
    assert find_one(step, "details").get("open") is None, "closed until asked for"
    opener = find_one(step, "summary")
    assert opener.get("data-action") == "resign" and opener.text.strip() == "投了する"
    assert "ws-send" in find_one(step, "form").attrs
    confirm = find_one(step, "button", data_action="resign-confirm")
    assert confirm.text.strip() and not confirm.text.strip().isascii()
    assert 'value="resign"' in step
    # Nothing outside the step sends a resignation.
    assert 'value="resign"' not in page.replace(step, "")
