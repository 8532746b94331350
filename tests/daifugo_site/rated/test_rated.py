"""The rated 1v1: pairing and its widening window, two sockets paired at once, a whole
game over WebSockets with every frame checked for the other hand and the face-down 27,
timeouts, resignation, the result written once, leaderboard and replays."""

from __future__ import annotations

import asyncio
import datetime
import re
import threading
import time

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone

from daifugo_site.accounts.models import GameResult
from daifugo_site.play import services as play
from daifugo_site.play.models import Game
from daifugo_site.rated import services
from daifugo_site.rated.models import QueueEntry, RatedGame, Rating, RatingChange
from daifugo_site.ratings import rate_1v1
from rules_engine import Match, card_codes

from .conftest import RatedClient, account, queue_socket

pytestmark = pytest.mark.django_db(transaction=True)


# -- pairing ------------------------------------------------------------------------------


def test_window_widens_with_waiting() -> None:
    assert services.window(0) == 100
    assert services.window(20) == 300
    assert services.window(10_000) == 1000


def test_pairing_by_rating_with_widening_window() -> None:
    a, _ = account("a@example.com")
    b, _ = account("b@example.com")
    c, _ = account("c@example.com")
    Rating.objects.create(user=a, mu=1500)
    Rating.objects.create(user=b, mu=1800)
    Rating.objects.create(user=c, mu=1560)
    t0 = timezone.now()
    for user in (a, b):
        services.join_queue(user)
    QueueEntry.objects.update(joined=t0, seen=t0)
    # 300 apart: too far at first ...
    assert services.pair(a, now=t0) is None
    assert services.pair(a, now=t0 + datetime.timedelta(seconds=10)) is None
    # ... but the closer player who arrives is paired at once, not the far one.
    services.join_queue(c)
    QueueEntry.objects.update(seen=t0 + datetime.timedelta(seconds=10))
    game = services.pair(c, now=t0 + datetime.timedelta(seconds=10))
    assert game is not None
    rated = RatedGame.objects.get(pk=game.pk)
    assert {rated.seat0_id, rated.seat1_id} == {a.pk, c.pk}
    assert rated.seat0_id == a.pk  # who waited longer sits first
    # The far one waits on; after 20 s their window (300) reaches anyone 300 away.
    d, _ = account("d@example.com")
    Rating.objects.create(user=d, mu=1500)
    services.join_queue(d)
    QueueEntry.objects.filter(user=d).update(joined=t0 + datetime.timedelta(seconds=20))
    QueueEntry.objects.filter(user=b).update(seen=t0 + datetime.timedelta(seconds=19))
    assert services.pair(d, now=t0 + datetime.timedelta(seconds=20)) == (
        RatedGame.objects.get(seat1=d).game
    )
    # Rules: the standard preset, 13 each, 27 face down, one round.
    match = play.match_of(game)
    assert match.players == 2 and match.rounds == 1
    assert [len(card_codes(h)) for h in match.round.hands] == [13, 13]
    assert len(card_codes(match.round.facedown)) == 27


async def test_two_queue_sockets_are_paired_at_once() -> None:
    (a, key_a), (b, key_b) = await database_sync_to_async(
        lambda: (account("a@example.com"), account("b@example.com"))
    )()
    await database_sync_to_async(services.join_queue)(a)
    await database_sync_to_async(services.join_queue)(b)
    first, second = queue_socket(key_a), queue_socket(key_b, "ja")
    assert (await first.connect())[0] and (await second.connect())[0]
    got_a = await first.receive_from(timeout=5)
    got_b = await second.receive_from(timeout=5)
    url_a = re.search(r'data-game-url="([^"]+)"', got_a).group(1)  # type: ignore[union-attr]
    url_b = re.search(r'data-game-url="([^"]+)"', got_b).group(1)  # type: ignore[union-attr]
    assert url_a.split("/")[-2] == url_b.split("/")[-2]
    assert url_a.startswith("/zh-hans/rated/") and url_b.startswith("/ja/rated/")
    assert 'data-testid="queue-status"' in got_a
    await first.disconnect()
    await second.disconnect()


def test_queue_pages_need_an_account() -> None:
    client = Client()
    assert client.post("/zh-hans/rated/join/").status_code == 302
    page = client.get("/ja/rated/").content.decode()
    assert 'data-action="queue"' not in page
    _, key = account("a@example.com")
    client.cookies["sessionid"] = key
    page = client.get("/ja/rated/").content.decode()
    assert 'data-action="queue"' in page and 'data-testid="rating"' in page
    assert client.post("/ja/rated/join/").status_code == 302
    page = client.get("/ja/rated/").content.decode()
    assert 'data-action="leave-queue"' in page and 'data-testid="queue-status"' in page
    client.post("/ja/rated/leave/")
    assert not QueueEntry.objects.exists()


def test_a_player_paired_while_their_waiting_page_loads_goes_to_the_game() -> None:
    """Two people join at nearly the same moment: the second one's waiting page pairs them
    before the first one's lobby is drawn. The first one must land in the game, not on
    the lobby with a link to it (CI saw it under load: the clock was already running)."""
    (_, key_a), (b, key_b) = account("a@example.com"), account("b@example.com")
    first, second = Client(), Client()
    first.cookies["sessionid"], second.cookies["sessionid"] = key_a, key_b
    joined = first.post("/ja/rated/join/")
    assert joined.status_code == 302
    second.post("/ja/rated/join/")
    game = services.pair(b)  # the second player's waiting page, first to ask
    assert game is not None
    # The first player's browser now follows the redirect of its join.
    landed = first.get(joined["Location"])
    assert landed.status_code == 302
    assert landed["Location"] == f"/ja/rated/{game.id}/"
    # The lobby opened any other way stays the lobby, with its link to the game.
    lobby = first.get("/ja/rated/")
    assert lobby.status_code == 200
    assert f"/ja/rated/{game.id}/" in lobby.content.decode()


# -- the game -----------------------------------------------------------------------------


def new_rated_game() -> tuple[RatedGame, str, str]:
    (a, key_a), (b, key_b) = account("a@example.com"), account("b@example.com")
    return services.create_rated_game(a, b), key_a, key_b


def forbidden_by_version(match: Match, seat: int) -> list[set[str]]:
    """Per version: what ``seat`` may not be shown: the other's hand then, and the 27."""
    replay = Match.new(match.rules, match.players, match.rounds, match.seed)
    facedown = set(card_codes(replay.round.facedown))
    out = [set(card_codes(replay.round.hands[1 - seat])) | facedown]
    for action in match.log:
        replay = replay.apply(action)  # type: ignore[assignment]
        out.append(set(card_codes(replay.round.hands[1 - seat])) | facedown)
    return out


def shown_codes(message: str) -> set[str]:
    return set(re.findall(r'data-card="([A-Z0-9]{2})"', message))


def first_play(table: object) -> dict[str, str]:
    legal = table.legal  # type: ignore[attr-defined]
    version = str(table.version)  # type: ignore[attr-defined]
    if legal:
        move = legal[0]
        data = {"action": "play", "cards": " ".join(move["cards"]), "v": version}
        if move["ambiguous"]:
            data["shape"] = move["form"]
        return data
    return {"action": "pass", "v": version}


async def test_rated_game_end_to_end_hidden_cards_and_rating_once() -> None:
    rated, key_a, key_b = await database_sync_to_async(new_rated_game)()
    game_id = rated.game_id
    clients = [RatedClient(game_id, key_a), RatedClient(game_id, key_b, "ja")]
    tables = [await c.connect() for c in clients]
    for table in tables:
        assert len(table.hand) == 13
        assert 'data-testid="clock"' in table.raw_message
        assert 'data-action="resign"' in table.raw_message
    for _ in range(200):
        game, match = await database_sync_to_async(play.current)(game_id)  # type: ignore[misc]
        if match.over:
            break
        seat = match.round.to_act
        assert tables[seat].version == game.version and tables[seat].your_turn
        await clients[seat].send(first_play(tables[seat]))
        old = game.version
        for i, c in enumerate(clients):
            tables[i] = await c.until(lambda t, old=old: t.version is not None and t.version > old)
    else:
        raise AssertionError("the game did not end")
    for c in clients:
        await c.drain()
    final = await database_sync_to_async(lambda: RatedGame.objects.get(pk=game_id))()
    assert final.status == "finished" and final.end == "out"
    assert final.winner == match.winner
    # Every frame either page received: never the other's hand, never a face-down card.
    for seat, c in enumerate(clients):
        forbidden = forbidden_by_version(match, seat)
        for message in c.messages:
            found = re.search(r'data-version="(\d+)"', message)
            # A message without a version (an error) may show no card at all.
            hidden = forbidden[int(found.group(1))] if found else forbidden[0] | forbidden[-1]
            assert not shown_codes(message) & hidden, (seat, shown_codes(message) & hidden)
        assert 'data-testid="rated-result"' in "".join(c.messages[-3:]) or any(
            "rated-result" in m for m in c.messages
        )
    # Ratings: changed once, by exactly the model's amounts from the start ratings.
    changes = await database_sync_to_async(lambda: list(RatingChange.objects.all()))()
    assert len(changes) == 2
    (wm, _), (lm, _) = rate_1v1((1500, 350), (1500, 350))
    by_user = {c.user_id: c for c in changes}
    winner_id = final.user_id_at(final.winner)  # type: ignore[arg-type]
    loser_id = final.user_id_at(1 - final.winner)  # type: ignore[operator]
    assert by_user[winner_id].mu_after == pytest.approx(wm)
    assert by_user[loser_id].mu_after == pytest.approx(lm)
    ratings = await database_sync_to_async(lambda: {r.user_id: r for r in Rating.objects.all()})()
    assert ratings[winner_id].games == 1 and ratings[winner_id].wins == 1
    assert ratings[loser_id].mu == pytest.approx(lm)
    assert await database_sync_to_async(GameResult.objects.filter(game_id=game_id).count)() == 2
    # A move after the end changes nothing.
    await clients[0].send({"action": "pass", "v": str(game.version + 1)})
    refused = await clients[0].until(lambda t: t.error is not None)
    assert refused.error in ("game_over", "stale")
    for c in clients:
        await c.close()


async def test_resignation_ends_the_game_for_both() -> None:
    rated, key_a, key_b = await database_sync_to_async(new_rated_game)()
    clients = [RatedClient(rated.game_id, key_a), RatedClient(rated.game_id, key_b)]
    for c in clients:
        await c.connect()
    await clients[1].send({"action": "resign"})
    for c, text in zip(clients, ("你赢了", "你输了"), strict=True):
        result = await c.until(
            lambda t: "rated-result" in t.raw_message and "replay" in t.raw_message
        )
        assert text in result.raw_message
    final = await database_sync_to_async(lambda: RatedGame.objects.get(pk=rated.pk))()
    assert (final.status, final.winner, final.end) == ("finished", 0, "resigned")
    assert await database_sync_to_async(RatingChange.objects.count)() == 2
    # A second resignation (the other player, or a repeat) writes nothing more.
    await clients[0].send({"action": "resign"})
    refused = await clients[0].until(lambda t: t.error is not None)
    assert refused.error == "game_over"
    assert await database_sync_to_async(RatingChange.objects.count)() == 2
    # A clock that runs out after the resignation plays nothing: the game takes no moves.
    await database_sync_to_async(
        lambda: Game.objects.filter(pk=rated.game_id).update(
            updated=timezone.now() - datetime.timedelta(seconds=31)
        )
    )()
    play.ensure_driver(rated.game_id)
    await asyncio.sleep(1.5)
    row = await database_sync_to_async(lambda: Game.objects.get(pk=rated.game_id))()
    assert row.version == 0 and row.status == "finished"
    for c in clients:
        await c.close()


async def test_timeout_the_computer_plays_the_turn() -> None:
    rated, key_a, key_b = await database_sync_to_async(new_rated_game)()
    clients = [RatedClient(rated.game_id, key_a), RatedClient(rated.game_id, key_b)]
    for c in clients:
        await c.connect()
    game, match = await database_sync_to_async(play.current)(rated.game_id)  # type: ignore[misc]
    to_act = match.round.to_act
    # The move's 30 s ran out: the reserve runs, and the computer does not play yet.
    late = timezone.now() - datetime.timedelta(seconds=31)
    await database_sync_to_async(
        lambda: Game.objects.filter(pk=rated.game_id).update(updated=late)
    )()
    play._CACHE.pop(rated.game_id, None)
    loaded = await database_sync_to_async(play.current)(rated.game_id)
    assert loaded is not None and play.computers_to_act(*loaded) == []
    # Both ran out: the deadline is the last write plus RATED_MOVE_SECONDS and the reserve.
    await database_sync_to_async(
        lambda: Game.objects.filter(pk=rated.game_id).update(
            updated=timezone.now() - datetime.timedelta(seconds=30 + 60 + 1)
        )
    )()
    play._CACHE.pop(rated.game_id, None)
    play.ensure_driver(rated.game_id)
    moved = await clients[1 - to_act].until(lambda t: t.version == 1, timeout=15)
    assert moved.version == 1
    after = await database_sync_to_async(play.current)(rated.game_id)
    assert after is not None and after[1].log[0].seat == to_act
    still = await database_sync_to_async(lambda: RatedGame.objects.get(pk=rated.pk))()
    assert still.status == "playing"
    # The reserve is spent for the seat that timed out, and both pages show it.
    stored = await database_sync_to_async(lambda: Game.objects.get(pk=rated.game_id))()
    assert stored.seats[to_act]["reserve_used_s"] == 60.0
    assert "reserve_used_s" not in stored.seats[1 - to_act]
    for c in clients:
        await c.close()


def test_a_closed_waiting_page_is_not_paired() -> None:
    a, _ = account("a@example.com")
    b, _ = account("b@example.com")
    t0 = timezone.now()
    services.join_queue(a)
    services.join_queue(b)
    QueueEntry.objects.filter(user=a).update(seen=t0 - datetime.timedelta(seconds=11))
    assert services.pair(b, now=t0) is None
    assert services.pair(a, now=t0) is not None  # a's page asks again: paired


def test_absent_player_loses() -> None:
    rated, _, _ = new_rated_game()
    services.set_present(rated.game_id, 0, True)
    services.set_present(rated.game_id, 1, False)
    assert services.tick(rated.game_id) is None  # just left: a reload is allowed
    later = timezone.now() + datetime.timedelta(seconds=91)
    assert services.tick(rated.game_id, now=later) == "abandoned"
    final = RatedGame.objects.get(pk=rated.pk)
    assert (final.winner, final.end) == (0, "abandoned")


def test_a_player_who_never_opens_the_game_loses() -> None:
    rated, _, _ = new_rated_game()
    services.set_present(rated.game_id, 1, True)
    later = timezone.now() + datetime.timedelta(seconds=91)
    assert services.tick(rated.game_id, now=later) == "abandoned"
    assert RatedGame.objects.get(pk=rated.pk).winner == 1


def test_result_written_once_under_a_race() -> None:
    rated, _, _ = new_rated_game()
    results: list[bool] = []
    barrier = threading.Barrier(4)

    def end(winner: int, how: str) -> None:
        # The test database is SQLite in memory, whose shared cache refuses a second writer
        # at once instead of queueing it (the real settings queue them, IMMEDIATE mode):
        # retry, as a queued writer would wait.
        try:
            barrier.wait()
            for _ in range(200):
                try:
                    results.append(services.finish(rated.game_id, winner, how))
                    return
                except OperationalError:
                    time.sleep(0.01)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=end, args=(i % 2, ("resigned", "out", "abandoned", "out")[i]))
        for i in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, False, False, True]
    assert RatingChange.objects.count() == 2
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]


def test_outsiders_cannot_open_a_game_in_progress() -> None:
    rated, _, _ = new_rated_game()
    _, key = account("c@example.com")
    client = Client()
    client.cookies["sessionid"] = key
    response = client.get(f"/zh-hans/rated/{rated.game_id}/")
    assert response.status_code == 403 and "data-card" not in response.content.decode()
    assert client.get(f"/zh-hans/accounts/games/{rated.game_id}/").status_code == 404


async def test_outsider_socket_is_refused() -> None:
    rated, _, _ = await database_sync_to_async(new_rated_game)()
    _, key = await database_sync_to_async(account)("c@example.com")
    outsider = RatedClient(rated.game_id, key)
    connected, _ = await outsider.communicator.connect()
    assert connected  # accepted, then closed with a reason code
    closed = await outsider.communicator.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == 4403


# -- replays and the leaderboard ----------------------------------------------------------


def finished_rated_game() -> tuple[RatedGame, str, str]:
    rated, key_a, key_b = new_rated_game()
    from daifugo_site.play import thinking

    for _ in range(300):
        game, match = play.current(rated.game_id)  # type: ignore[misc]
        if match.over:
            break
        seat = match.round.to_act
        out = play.apply_action(
            rated.game_id, thinking.safe_action(match.observe(seat)), by_computer=False
        )
        assert out.accepted
    return RatedGame.objects.get(pk=rated.pk), key_a, key_b


def test_replay_pages_show_hands_only_to_the_players() -> None:
    rated, key_a, _ = finished_rated_game()
    assert rated.status == "finished" and RatingChange.objects.count() == 2
    match = play.match_of(Game.objects.get(pk=rated.game_id))
    first = Match.new(match.rules, 2, 1, match.seed).round
    dealt = set(card_codes(first.hands[0])) | set(card_codes(first.hands[1]))
    facedown = set(card_codes(first.facedown))
    played = {c for a in match.log if a.kind == "play" for c in card_codes_of(a.cards)}
    url = f"/ja/accounts/games/{rated.game_id}/"
    player = Client()
    player.cookies["sessionid"] = key_a
    page = player.get(url).content.decode()
    assert 'data-testid="replay"' in page and 'data-action="replay-next"' in page
    assert 'data-action="replay-prev"' in page
    assert shown_codes(page) == dealt  # both hands, once over, to a player
    assert page.count('data-frame="') == len(match.log) + 1
    _, key_c = account("c@example.com")
    outsider = Client()
    outsider.cookies["sessionid"] = key_c
    other = outsider.get(url).content.decode()
    assert shown_codes(other) <= played  # only what was played in public
    assert not shown_codes(other) & (dealt - played)
    for html in (page, other, Client().get(url).content.decode()):
        assert not shown_codes(html) & facedown
    # The game page of a finished game sends others to the replay.
    assert outsider.get(f"/ja/rated/{rated.game_id}/")["Location"] == url


def card_codes_of(text: str | None) -> list[str]:
    return (text or "").split()


def test_profile_and_leaderboard_after_a_rated_game(settings: object) -> None:
    rated, key_a, _ = finished_rated_game()
    settings.RATED_PROVISIONAL_GAMES = 1  # type: ignore[attr-defined]
    client = Client()
    client.cookies["sessionid"] = key_a
    profile = client.get("/zh-hans/accounts/profile/").content.decode()
    assert "<svg" in profile and "<polyline" in profile
    assert f"/accounts/games/{rated.game_id}/" in profile
    mine = Rating.objects.get(user_id=rated.seat0_id)
    assert re.search(rf'data-testid="rating"[^>]*>[^<]*{mine.shown}', profile)
    board = client.get("/ja/rated/leaderboard/").content.decode()
    assert 'data-testid="leaderboard"' in board and board.count("<tr") == 3


def test_each_players_page_shows_only_their_own_hand() -> None:
    rated, key_a, key_b = new_rated_game()
    match = play.match_of(Game.objects.get(pk=rated.game_id))
    for seat, key in enumerate((key_a, key_b)):
        client = Client()
        client.cookies["sessionid"] = key
        page = client.get(f"/ja/rated/{rated.game_id}/").content.decode()
        assert shown_codes(page) == set(card_codes(match.round.hands[seat]))
        assert 'data-testid="clock"' in page and 'data-action="resign"' in page
        assert not shown_codes(page) & set(card_codes(match.round.facedown))


def test_the_clock_and_both_reserves_are_on_both_pages(settings: object) -> None:
    rated, key_a, key_b = new_rated_game()
    game = Game.objects.get(pk=rated.game_id)
    to_act = play.match_of(game).round.to_act
    # The player to act is 40 s into the move: 10 s of the reserve spent already.
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - datetime.timedelta(seconds=40))
    play._CACHE.pop(game.pk, None)
    for seat, key in enumerate((key_a, key_b)):
        client = Client()
        client.cookies["sessionid"] = key
        page = client.get(f"/zh-hans/rated/{rated.game_id}/").content.decode()
        clock_html = page[page.index('data-testid="clock"') :]
        clock_html = clock_html[: clock_html.index("</div>")]
        assert "data-deadline" in clock_html and "data-move-deadline" in clock_html
        assert re.search(r"data-seconds>0<", clock_html)
        mine = re.search(r'data-reserve="mine".*?data-reserve-seconds>(\d+)<', clock_html, re.S)
        theirs = re.search(r'data-reserve="theirs".*?data-reserve-seconds>(\d+)<', clock_html, re.S)
        assert mine and theirs
        running, still = (mine, theirs) if seat == to_act else (theirs, mine)
        assert 48 <= int(running.group(1)) <= 50 and int(still.group(1)) == 60


async def test_the_play_socket_and_page_agree_with_the_rated_page() -> None:
    """Issue 45: a rated game's page answered 403 to non-players while the play socket
    (``/ws/play/…``) let anyone in as a viewer, and ``/play/<id>/`` drew its table. The
    policy is the rated page's: a game in progress is its two players' (others get its
    replay once it is over). The play socket closes as for no game; the play page sends
    to the rated page."""
    from tests.daifugo_site.play.conftest import PlayClient

    rated, key_a, _ = await database_sync_to_async(new_rated_game)()
    _, key_c = await database_sync_to_async(account)("c@example.com")
    for key in (None, key_c, key_a):
        page = PlayClient(rated.game_id, key)
        connected, _ = await page.communicator.connect()
        assert connected  # accepted, then closed with the no-game code, nothing sent
        closed = await page.communicator.receive_output(timeout=5)
        assert closed["type"] == "websocket.close" and closed["code"] == 4004

    def http() -> None:
        client = Client()
        client.cookies["sessionid"] = key_c
        response = client.get(f"/zh-hans/play/{rated.game_id}/")
        assert response.status_code == 302
        assert response["Location"] == f"/zh-hans/rated/{rated.game_id}/"
        assert client.get(response["Location"]).status_code == 403

    await database_sync_to_async(http)()
