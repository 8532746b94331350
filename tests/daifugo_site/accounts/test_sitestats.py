"""Anonymous game statistics: recorded when a game ends, nothing at all when the switch
(play pages, profile) is off; the public page; purged after 30 days."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from daifugo_site.accounts import sitestats
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
    switch = re.search(r'<input[^>]*data-testid="stats-switch"[^>]*>', page)
    assert switch and " checked" not in switch.group(0)
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
    # Each chart, with its preset and kind named in the page's language.
    assert 'data-testid="stats-durations"' in page and 'data-testid="stats-kinds"' in page
    assert re.search(r'data-kind="practice"><th scope="row">[^<]+</th><td>1</td>', page)
    assert 'data-duration="&lt;5m"' in page or 'data-duration="<5m"' in page
    assert ">Standard<" not in page and ">Practice games<" not in page
    assert re.search(r'data-stat="revolution-rate">.*?(\d+)%', page)


def test_the_aggregates_count_what_the_charts_show(client: Client) -> None:
    token = guest_token(client)
    for _ in range(2):
        _finish_practice_game(token)
    SiteStat.objects.filter(pk=SiteStat.objects.first().pk).update(revolutions=0)  # type: ignore[union-attr]
    SiteStat.objects.filter(pk=SiteStat.objects.last().pk).update(revolutions=2)  # type: ignore[union-attr]
    SiteStat.objects.create(
        kind="rated",
        preset="standard",
        players=2,
        rounds=1,
        moves=10,
        revolutions=0,
        first_leader_wins=1,
        duration="5-15m",
    )
    (row,) = sitestats.aggregates()
    assert (row["games"], row["revolution_rate"], row["revolutions"]) == (3, 33, 0.67)
    kinds = {line["key"]: line["games"] for line in sitestats.shares("kind", sitestats.KINDS)}
    assert kinds == {"practice": 2, "room": 0, "hotseat": 0, "rated": 1}
    # Older than 30 days: not shown even before the purge runs.
    SiteStat.objects.update(created=timezone.now() - datetime.timedelta(days=31))
    assert sitestats.aggregates() == []


def test_purge_deletes_statistics_after_30_days(client: Client) -> None:
    _finish_practice_game(guest_token(client))
    SiteStat.objects.update(created=timezone.now() - datetime.timedelta(days=31))
    call_command("purge")
    assert not SiteStat.objects.exists()
