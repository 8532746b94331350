"""The statistics the players' pages add: reconnects (counted by the server), rendering
failures and device class (a small bounded socket message), browser and OS family (from
the User-Agent); nothing for viewers or a switched-off browser; folded into the game's
anonymous row at the end."""

from __future__ import annotations

import doctest
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from daifugo_site.accounts import client as client_stats
from daifugo_site.accounts import sitestats
from daifugo_site.accounts.models import ClientTally, SiteStat, StatsOptOut
from daifugo_site.asgi import application
from daifugo_site.play import services, thinking
from tests.daifugo_site.play.conftest import ORIGIN, PlayClient, make_game

ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"


@pytest.mark.parametrize(
    ("agent", "browser", "system"),
    [
        (ANDROID_CHROME, "chrome", "android"),
        (WINDOWS_FIREFOX, "firefox", "windows"),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, "
            "like Gecko) Version/18.1 Safari/605.1.15",
            "safari",
            "macos",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
            "chrome",
            "ios",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "edge",
            "windows",
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
            "SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
            "samsung",
            "android",
        ),
        ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) Chrome/131.0.0.0", "chrome", "chromeos"),
        ("", "other", "other"),
        ("x" * 100_000 + "Firefox/1", "other", "other"),  # read to a bound only
    ],
)
def test_browser_and_os_families(agent: str, browser: str, system: str) -> None:
    assert client_stats.browser_family(agent) == browser
    assert client_stats.os_family(agent) == system


def test_doctests() -> None:
    result = doctest.testmod(client_stats)
    assert result.attempted > 5 and result.failed == 0


@pytest.mark.parametrize(
    "report",
    [
        {"action": "client", "phone": "yes"},
        {"action": "client", "memory": True},
        {"action": "client", "memory": 0},
        {"action": "client", "cores": 2.5},
        {"action": "client", "failures": client_stats.MAX_FAILURES_PER_REPORT + 1},
        {"action": "client", "hand": "3S"},  # nothing but the fields described
    ],
)
def test_bad_reports_are_refused(report: dict[str, object]) -> None:
    assert client_stats.parse_report(report) is None


def test_kind_of_each_table() -> None:
    def game(owner: str, *seats: dict[str, object]) -> SimpleNamespace:
        return SimpleNamespace(owner=owner, seats=list(seats))

    human, cpu = {"kind": "human"}, {"kind": "computer", "level": "beginner"}
    assert sitestats.kind_of(game("tok", human, cpu)) == "practice"
    assert sitestats.kind_of(game("rated:x", human, human)) == "rated"
    assert sitestats.kind_of(game("tok", {"kind": "human", "player": "p"}, cpu)) == "room"
    hot = {"kind": "human", "player": "p", "hotseat": True}
    assert sitestats.kind_of(game("tok", hot, hot)) == "hotseat"


class Page(PlayClient):
    """A play page with a User-Agent."""

    def __init__(self, game_id: str, session_key: str | None, agent: str) -> None:
        super().__init__(game_id, session_key)
        headers = [ORIGIN, (b"user-agent", agent.encode())]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.communicator = WebsocketCommunicator(
            application, f"/ws/play/zh-hans/{game_id}/", headers=headers
        )

    async def report(self, **fields: object) -> None:
        await self.send({"action": "client", **fields})
        # Nothing is pushed back for a good report: wait until the server has read it.
        await self.communicator.receive_nothing(timeout=0.3)


def play_to_end(game_id: str) -> None:
    for _ in range(600):
        row, match = services.current(game_id)  # type: ignore[misc]
        if match.over:
            return
        seat = match.round.to_act
        action = thinking.safe_action(match.observe(seat))
        # A computer driver started by the page may move first: then read again.
        # A person's move names their player token (a room table refuses one without).
        computer = row.seats[seat].get("kind") == "computer"
        player = None if computer else row.seats[seat].get("player")
        services.apply_action(game_id, action, by_computer=computer, player=player)
    raise AssertionError("did not finish")


@pytest.mark.django_db(transaction=True)
async def test_reconnects_failures_and_device_reach_the_games_statistics() -> None:
    game, key = await database_sync_to_async(make_game)(players=3, rounds=1, seed=5)
    first = Page(game.id, key, ANDROID_CHROME)
    await first.connect()
    await first.report(phone=True, memory=4, cores=8, failures=0)
    await first.close()
    again = Page(game.id, key, ANDROID_CHROME)  # the same page, reconnected
    await again.connect()
    await again.report(failures=3)
    await again.report(failures=9)  # too soon after the last: ignored
    await again.send({"action": "client", "memory": "lots"})
    table = await again.receive()
    assert table.error is not None and 'data-reason="malformed"' in table.raw_message
    # A viewer's page counts for nothing.
    viewer = Page(game.id, None, WINDOWS_FIREFOX)
    await viewer.connect()
    await viewer.report(phone=False, failures=7)
    await viewer.close()
    await again.close()
    tally = await database_sync_to_async(ClientTally.objects.get)()
    assert (tally.seat, tally.connects, tally.failures) == (0, 2, 3)
    await database_sync_to_async(play_to_end)(game.id)
    row = await database_sync_to_async(SiteStat.objects.get)()
    assert (row.reconnects, row.render_failures) == (1, 3)
    assert row.devices == [
        {"phone": True, "memory": "4", "cores": "5-8", "browser": "chrome", "os": "android"}
    ]
    assert not await database_sync_to_async(ClientTally.objects.exists)()


@pytest.mark.django_db(transaction=True)
async def test_a_switched_off_browser_sends_and_records_nothing() -> None:
    game, key = await database_sync_to_async(make_game)(players=3, rounds=1, seed=5)
    await database_sync_to_async(StatsOptOut.objects.create)(
        token_hash=sitestats.token_hash(game.owner)
    )
    page = Page(game.id, key, ANDROID_CHROME)
    await page.connect()
    await page.report(phone=True, failures=2)
    await page.close()
    assert not await database_sync_to_async(ClientTally.objects.exists)()
    await database_sync_to_async(play_to_end)(game.id)
    assert not await database_sync_to_async(SiteStat.objects.exists)()


# -- the switch on every play page --------------------------------------------------------


def switch_in(page: str) -> bool:
    return 'type="checkbox" id="stats-switch" name="statistics" data-testid="stats-switch"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_the_switch_is_on_every_play_page(lang: str) -> None:
    from django.test import Client

    from tests.daifugo_site.rated.conftest import account
    from tests.daifugo_site.rooms.conftest import seated_room
    from tests.daifugo_site.rooms.test_hotseat import hotseat_game

    def page(key: str, path: str) -> str:
        browser = Client()
        browser.cookies["sessionid"] = key
        response = browser.get(path)
        assert response.status_code == 200, path
        return response.content.decode()

    game, key = make_game(players=3, rounds=1)
    assert switch_in(page(key, f"/{lang}/play/{game.id}/"))  # practice
    _room, room_game, sessions = seated_room(2, players=3, rounds=1)
    assert room_game is not None
    assert switch_in(page(sessions[1][0], f"/{lang}/play/{room_game.id}/"))  # room
    hot_id, hot_key = hotseat_game()
    assert switch_in(page(hot_key, f"/{lang}/play/{hot_id}/"))  # hotseat
    from daifugo_site.rated.services import create_rated_game

    (a, key_a), (b, _) = account("a@example.com"), account("b@example.com")
    rated = create_rated_game(a, b)
    assert switch_in(page(key_a, f"/{lang}/rated/{rated.game_id}/"))  # rated
    profile = page(key_a, f"/{lang}/accounts/profile/")
    assert 'data-testid="stats-switch"' in profile


@pytest.mark.django_db
@pytest.mark.parametrize("off", [False, True])
def test_one_room_player_switched_off_keeps_the_room_game_out(off: bool) -> None:
    from tests.daifugo_site.rooms.conftest import seated_room

    _room, game, sessions = seated_room(2, players=3, rounds=1)
    assert game is not None
    if off:
        StatsOptOut.objects.create(token_hash=sitestats.token_hash(sessions[1][1]))
    play_to_end(game.id)
    kinds = list(SiteStat.objects.values_list("kind", flat=True))
    assert kinds == ([] if off else ["room"])


@pytest.mark.django_db
def test_a_rated_player_switched_off_keeps_the_rated_game_out() -> None:
    from daifugo_site.accounts.models import Profile
    from daifugo_site.accounts.signals import profile_for
    from daifugo_site.rated import services as rated_services
    from tests.daifugo_site.rated.conftest import account

    (a, _), (b, _) = account("a@example.com"), account("b@example.com")
    profile_for(b)
    Profile.objects.filter(user=b).update(statistics=False)
    rated = rated_services.create_rated_game(a, b)
    assert rated_services.resign(rated.game_id, a)
    assert not SiteStat.objects.exists()
