"""Anonymous game statistics: recorded when a game ends, nothing at all when the switch
(play pages, profile) is off; the public page; purged after 30 days."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from daifugo_site.accounts.models import SiteStat
from daifugo_site.play import services

from .test_accounts import _finish_practice_game, sign_up

pytestmark = pytest.mark.django_db


def guest_token(client: Client) -> str:
    session = client.session
    token = services.player_token(session)
    session.save()
    return token


def test_a_guest_game_is_recorded_without_anything_that_names_anyone(client: Client) -> None:
    token = guest_token(client)
    game = _finish_practice_game(token)
    row = SiteStat.objects.get()
    assert (row.kind, row.preset, row.players, row.rounds) == ("practice", "standard", 3, 1)
    assert row.levels == ["beginner", "beginner"] and row.moves > 0
    assert row.duration == "<5m" and 0 <= row.first_leader_wins <= 1
    values = " ".join(str(v) for v in SiteStat.objects.values().get().values())
    assert token not in values and game.pk not in values


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_the_switch_on_the_play_page_turns_recording_off(client: Client, lang: str) -> None:
    token = guest_token(client)
    page = client.get(f"/{lang}/play/").content.decode()
    assert 'data-testid="stats-switch" checked' in page
    response = client.post("/ja/accounts/statistics/switch/", {"next": f"/{lang}/play/"})
    assert response.status_code == 302 and response["Location"] == f"/{lang}/play/"
    page = client.get(f"/{lang}/play/").content.decode()
    assert 'data-testid="stats-switch">' in page
    _finish_practice_game(token)
    assert not SiteStat.objects.exists()
    client.post("/ja/accounts/statistics/switch/", {"statistics": "on"})
    _finish_practice_game(token)
    assert SiteStat.objects.count() == 1


def test_an_account_with_statistics_off_records_nothing(client: Client) -> None:
    sign_up(client, "ja")
    client.post("/ja/accounts/statistics/switch/", {"next": "https://evil.example/"})
    from daifugo_site.accounts.models import Profile

    profile = Profile.objects.get()
    assert not profile.statistics
    _finish_practice_game(profile.player_token)
    assert not SiteStat.objects.exists()


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_public_statistics_page(client: Client, lang: str) -> None:
    assert "site-stats" not in client.get(f"/{lang}/accounts/statistics/").content.decode()
    _finish_practice_game(guest_token(client))
    page = client.get(f"/{lang}/accounts/statistics/").content.decode()
    assert 'data-testid="site-stats"' in page and 'data-preset="standard"' in page
    assert "<svg" in page and "Game statistics" not in page


def test_purge_deletes_statistics_after_30_days(client: Client) -> None:
    _finish_practice_game(guest_token(client))
    SiteStat.objects.update(created=timezone.now() - datetime.timedelta(days=31))
    call_command("purge")
    assert not SiteStat.objects.exists()
