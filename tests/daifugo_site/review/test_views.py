"""The review page, its job in the computer-player pool, hints and puzzles."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from daifugo_site.review import services
from daifugo_site.review.models import Hint, Review
from tutorials.models import Lesson, PlayerPuzzle
from tutorials.spec import lesson_from_model
from tutorials.validation import validate_lesson

from .conftest import PLANTED_INDEX, PLANTED_SEED, owner_client, scripted_game

LANGS = ("zh-hans", "ja")


def costs(html: str) -> list[float]:
    return [float(c) for c in re.findall(r'data-testid="mistake" data-cost="([0-9.]+)"', html)]


@pytest.mark.django_db(transaction=True)
async def test_a_finished_game_is_reviewed_in_the_pool_and_the_planted_mistake_is_flagged() -> None:
    client, token = await sync_to_async(owner_client)()
    game = await sync_to_async(scripted_game)(token)
    page = await sync_to_async(client.get)(f"/zh-hans/review/game/{game.id}/")
    assert page.status_code == 200 and 'data-action="review"' in page.content.decode()
    # Start: a review row with its number of decisions (the job itself is run below, in
    # this loop, awaiting the pool process as a web process would).
    source = await sync_to_async(_source)(game.id, token)
    review = await sync_to_async(services.review_for)(source)
    assert review.status == Review.Status.RUNNING and review.total > 5
    await services.run(review.pk)
    review = await Review.objects.aget(pk=review.pk)
    assert review.status == Review.Status.DONE and len(review.items) == review.total
    planted = next(it for it in review.items if it["i"] == PLANTED_INDEX)
    assert planted["mistake"] and planted["verdict"]["winnable"]
    for lang in LANGS:
        html = (await sync_to_async(client.get)(f"/{lang}/review/game/{game.id}/")).content.decode()
        assert 'data-testid="review"' in html
        found = costs(html)
        assert found and found[0] == max(found) and found[0] >= 1.0
        assert f'data-index="{PLANTED_INDEX}"' in html
        assert "Make this position a puzzle" not in html  # translated
        assert no_english(html), lang


#: The scenario format's own words (keys and values a visitor types into the checker) and
#: card codes: format, not English sentences.
FORMAT_WORDS = {
    *("rules", "hands", "leader", "revolution", "previous", "steps", "play", "pass", "give"),
    *("by", "form", "single", "group", "sequence", "JSON", "preset", "standard", "true"),
    *("false", "JK"),
}
CARD_CODE = re.compile(r"^[SHDC][2-9TJQKA]$")


def no_english(html: str) -> bool:
    """No Latin words on the page outside card codes and keys (the terms test's rule)."""
    from tests.daifugo_site.pages.test_terms import _allowed_latin, _latin_words, _page_texts

    found = [
        w
        for w in _latin_words(_page_texts(html), _allowed_latin() | FORMAT_WORDS)
        if not CARD_CODE.match(w)
    ]
    assert found == [], found
    return True


def _source(game_id: str, token: str):  # type: ignore[no-untyped-def]
    from daifugo_site.play.services import PLAYER_TOKEN_KEY
    from daifugo_site.review.sources import for_viewer

    return for_viewer(game_id, {PLAYER_TOKEN_KEY: token})


@pytest.mark.django_db
def test_only_the_player_may_see_or_start_a_review(owner: tuple[Client, str]) -> None:
    client, token = owner
    game = scripted_game(token)
    stranger = Client()
    assert stranger.get(f"/zh-hans/review/game/{game.id}/").status_code == 404
    assert stranger.post(f"/zh-hans/review/game/{game.id}/").status_code == 404
    assert not Review.objects.exists()


@pytest.mark.django_db
def test_an_unfinished_game_cannot_be_reviewed(owner: tuple[Client, str]) -> None:
    client, token = owner
    game = scripted_game(token, stop=20)
    html = client.get(f"/ja/review/game/{game.id}/").content.decode()
    assert 'data-action="review"' not in html
    assert client.post(f"/ja/review/game/{game.id}/").status_code == 409
    assert not Review.objects.exists()


def _stored_review(game, items):  # type: ignore[no-untyped-def]
    return Review.objects.create(
        game=game, seat=0, total=len(items), items=items, status=Review.Status.DONE, seconds=1
    )


@pytest.mark.django_db
def test_a_settled_position_becomes_a_valid_puzzle_listed_once_approved(
    owner: tuple[Client, str],
) -> None:
    from daifugo_site.review import analysis

    client, token = owner
    game = scripted_game(token)
    found = {d.index: d for d in analysis.decisions(game.record(), 0)}
    d = found[PLANTED_INDEX]
    item = analysis.review_decision(d.obs, d.action, "t", analysis.Budget(worlds=4))
    item.update(i=PLANTED_INDEX, round=0)
    _stored_review(game, [item])
    response = client.post(f"/zh-hans/review/game/{game.id}/puzzle/{PLANTED_INDEX}/")
    assert response.status_code == 302
    puzzle = PlayerPuzzle.objects.get()
    assert response["Location"].endswith(puzzle.lesson.get_absolute_url().split("/", 2)[-1])
    # The tutor's own validation accepts it as stored.
    assert validate_lesson(lesson_from_model(puzzle.lesson)).ok
    # Shared by link at once; listed only once approved.
    assert client.get(puzzle.lesson.get_absolute_url()).status_code == 200
    listing = client.get("/zh-hans/learn/").content.decode()
    assert puzzle.lesson.get_absolute_url() not in listing
    puzzle.approved = True
    puzzle.save()
    for lang in LANGS:
        listing = client.get(f"/{lang}/learn/").content.decode()
        assert f"/{lang}/learn/{puzzle.lesson.slug}/" in listing
    # Asking again returns the same puzzle.
    client.post(f"/zh-hans/review/game/{game.id}/puzzle/{PLANTED_INDEX}/")
    assert (
        PlayerPuzzle.objects.count()
        == 1
        == Lesson.objects.filter(slug__startswith="players-").count()
    )


@pytest.mark.django_db
def test_a_position_the_solver_did_not_settle_is_refused_as_a_puzzle(
    owner: tuple[Client, str],
) -> None:
    client, token = owner
    game = scripted_game(token)
    item = {
        "i": 3,
        "round": 0,
        "made": "pass",
        "best": "pass",
        "mistake": False,
        "cost": 0.0,
        "verdict": None,
    }
    _stored_review(game, [item])
    response = client.post(f"/ja/review/game/{game.id}/puzzle/3/")
    assert response.status_code == 400
    assert "詰め問題" in response.content.decode()
    assert not PlayerPuzzle.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_a_hint_is_given_on_the_players_turn_and_counted_once_per_turn() -> None:
    client, token = await sync_to_async(owner_client)()
    # Stop where seat 0 is to act with a choice.
    from daifugo_site.review import analysis

    game = await sync_to_async(scripted_game)(token, stop=None)
    ds = analysis.decisions(game.record(), 0)
    stop = ds[1].index
    game = await sync_to_async(scripted_game)(token, stop=stop)
    url = f"/ja/review/hint/{game.id}/"
    first = await sync_to_async(client.post)(url)
    html = first.content.decode()
    assert first.status_code == 200 and 'data-testid="hint"' in html
    assert "ヒント" in html and 'data-hints="1"' in html and "hx-swap-oob" in html
    # It says which table version it answers (the page drops it once the table moves on).
    assert f'data-version="{game.version}"' in html
    again = (await sync_to_async(client.post)(url)).content.decode()
    assert 'data-hints="1"' in again
    assert await Hint.objects.filter(game=game).acount() == 1
    # Counted in the game's record: the play page says so.
    page = (await sync_to_async(client.get)(f"/ja/play/{game.id}/")).content.decode()
    assert 'data-action="hint"' in page and 'data-hints="1"' in page
    assert "使ったヒント：1 回。" in page


@pytest.mark.django_db(transaction=True)
async def test_no_hint_for_someone_else_or_off_turn() -> None:
    client, token = await sync_to_async(owner_client)()
    game = await sync_to_async(scripted_game)(token)  # finished
    stranger = Client()
    assert (
        await sync_to_async(stranger.post)(f"/zh-hans/review/hint/{game.id}/")
    ).status_code == 403
    over = (await sync_to_async(client.post)(f"/zh-hans/review/hint/{game.id}/")).content.decode()
    assert 'role="alert"' in over
    assert await Hint.objects.acount() == 0


def test_planted_seed_constants_match() -> None:
    assert PLANTED_SEED == 20


@pytest.mark.django_db
def test_progress_is_polled_until_done_and_a_lost_job_is_asked_again(
    owner: tuple[Client, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, token = owner
    game = scripted_game(token)
    review = Review.objects.create(game=game, seat=0, total=4, items=[], worlds=12)
    asked: list[int] = []
    monkeypatch.setattr(services, "request_review", asked.append)
    html = client.get(f"/ja/review/game/{game.id}/progress/").content.decode()
    assert 'hx-trigger="every 5s"' in html and "<progress" in html and "4 件中 0 件" in html
    assert asked == [review.pk]  # nobody held its lease: the poll restarts the job
    review.status = Review.Status.DONE
    review.save()
    html = client.get(f"/ja/review/game/{game.id}/progress/").content.decode()
    assert "hx-trigger" not in html and 'data-testid="review"' in html


@pytest.mark.django_db
def test_the_pushed_hand_with_the_hint_button_reads_no_database(
    owner: tuple[Client, str],
) -> None:
    """The hand partial is rendered on the event loop from the cache (play/rendering.py):
    the hint button inside it must not query the database."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from daifugo_site.play import services as play_services
    from daifugo_site.play.rendering import render_table
    from daifugo_site.review import analysis

    client, token = owner
    game = scripted_game(token)
    stop = analysis.decisions(game.record(), 0)[0].index
    game = scripted_game(token, stop=stop)
    play_services.match_of(game)  # cached, as after a broadcast
    with CaptureQueriesContext(connection) as queries:
        rendered = render_table(game.id, "zh-hans", True, game.version, None, cache_only=True)
    assert rendered is not None and 'data-action="hint"' in rendered[0]
    assert len(queries) == 0


@pytest.mark.django_db
def test_room_players_review_their_own_seat_and_get_no_hints(owner: tuple[Client, str]) -> None:
    from daifugo_site.play.services import PLAYER_TOKEN_KEY
    from daifugo_site.review.sources import for_viewer

    _client, token = owner
    game = scripted_game(token)
    game.seats = [
        {"kind": "human", "player": "alice-token"},
        {"kind": "human", "player": "bob-token"},
        {"kind": "computer", "level": "intermediate"},
        {"kind": "computer", "level": "intermediate"},
    ]
    game.save()
    bob = for_viewer(game.id, {PLAYER_TOKEN_KEY: "bob-token"})
    assert bob is not None and bob.seat == 1 and not bob.practice and bob.finished
    assert for_viewer(game.id, {PLAYER_TOKEN_KEY: token}) is None  # the creator's token
    assert for_viewer(game.id, {PLAYER_TOKEN_KEY: "carol-token"}) is None
    with pytest.raises(services.HintRefused) as refused:
        import asyncio

        asyncio.run(services.hint(bob))
    assert refused.value.reason == "not_practice"


@pytest.mark.django_db
def test_a_rated_game_is_reviewed_by_its_two_players_only_after_its_end(
    owner: tuple[Client, str],
) -> None:
    from django.contrib.auth import get_user_model

    from daifugo_site.rated.models import RatedGame
    from daifugo_site.review.sources import for_viewer

    _client, token = owner
    game = scripted_game(token)
    users = get_user_model().objects
    one = users.create_user("one", "one@example.com", "pw-123456789")
    two = users.create_user("two", "two@example.com", "pw-123456789")
    other = users.create_user("three", "three@example.com", "pw-123456789")
    rated = RatedGame.objects.create(game=game, seat0=one, seat1=two)
    first = for_viewer(game.id, {}, one)
    second = for_viewer(game.id, {}, two)
    assert first is not None and first.seat == 0 and not first.practice
    assert second is not None and second.seat == 1
    assert not first.finished  # still being played: no review yet
    assert for_viewer(game.id, {}, other) is None
    assert for_viewer(game.id, {"player": token}, None) is None  # the game row's owner
    rated.status = RatedGame.Status.FINISHED
    rated.save()
    again = for_viewer(game.id, {}, two)
    assert again is not None and again.finished


@pytest.mark.django_db(transaction=True)
async def test_a_free_pool_process_takes_a_second_decision_and_items_stay_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from daifugo_site.play import computers
    from daifugo_site.review import analysis

    _client, token = await sync_to_async(owner_client)()
    game = await sync_to_async(scripted_game)(token)
    source = await sync_to_async(_source)(game.id, token)
    review = await sync_to_async(services.review_for)(source)
    running, most = [0], [0]
    lock = threading.Lock()

    def fake(obs, action, seed, budget, pending):  # type: ignore[no-untyped-def]
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1
        return {"made": seed, "best": seed, "cost": 0.0, "mistake": False}

    for size, expected in ((2, 2), (1, 1)):
        pool = computers.FairPool(size, 1, executor=lambda: ThreadPoolExecutor(2))
        monkeypatch.setattr(computers, "pool", lambda pool=pool: pool)
        monkeypatch.setattr(analysis, "review_decision", fake)
        await Review.objects.filter(pk=review.pk).aupdate(items=[], status="running")
        most[0] = 0
        await services.run(review.pk)
        pool.shutdown()
        done = await Review.objects.aget(pk=review.pk)
        assert done.status == Review.Status.DONE and most[0] == expected
        indices = [it["i"] for it in done.items]
        assert indices == sorted(indices) and len(indices) == done.total


@pytest.mark.django_db
def test_a_done_review_is_cached_and_never_searched_again(
    owner: tuple[Client, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, token = owner
    game = scripted_game(token)
    item = {"i": 3, "round": 0, "made": "pass", "best": "pass", "mistake": False, "cost": 0.0}
    item.update(made_mean=1.0, made_se=0.1, best_mean=1.0, best_se=0.1, worlds=24, verdict=None)
    review = _stored_review(game, [item])
    asked: list[int] = []
    monkeypatch.setattr(services, "request_review", asked.append)
    assert client.post(f"/ja/review/game/{game.id}/").status_code == 302
    html = client.get(f"/ja/review/game/{game.id}/").content.decode()
    assert 'data-testid="review"' in html and "ws-connect" not in html
    progress = client.get(f"/ja/review/game/{game.id}/progress/").content.decode()
    assert 'data-testid="review"' in progress
    assert asked == [] and Review.objects.get() == review
    # The job itself finds nothing to do in a done review.
    assert services._load(review.pk) is None


@pytest.mark.django_db
def test_two_hints_are_counted_on_the_play_page_and_in_the_review(
    owner: tuple[Client, str],
) -> None:
    client, token = owner
    game = scripted_game(token)
    Hint.objects.create(game=game, seat=0, version=4, result={"kind": "forced", "best": "pass"})
    Hint.objects.create(game=game, seat=0, version=9, result={"kind": "forced", "best": "pass"})
    Hint.objects.create(game=game, seat=1, version=9, result={})  # not the player's seat
    _stored_review(game, [])
    for lang, text in (("ja", "使ったヒント：2 回。"), ("zh-hans", "已用提示：2 次。")):
        review = client.get(f"/{lang}/review/game/{game.id}/").content.decode()
        assert text in review
        page = client.get(f"/{lang}/play/{game.id}/").content.decode()
        assert 'data-hints="2"' in page and text in page


@pytest.mark.django_db
def test_the_rated_players_open_their_review_page_once_the_game_is_over(
    owner: tuple[Client, str],
) -> None:
    from django.contrib.auth import get_user_model

    from daifugo_site.rated.models import RatedGame

    _client, token = owner
    game = scripted_game(token)
    users = get_user_model().objects
    one = users.create_user("one", "one@example.com", "pw-123456789")
    two = users.create_user("two", "two@example.com", "pw-123456789")
    rated = RatedGame.objects.create(game=game, seat0=one, seat1=two)
    player, stranger = Client(), Client()
    player.force_login(two)
    url = f"/ja/review/game/{game.id}/"
    assert 'data-action="review"' not in player.get(url).content.decode()
    assert player.post(url).status_code == 409  # still being played
    rated.status = RatedGame.Status.FINISHED
    rated.save()
    assert 'data-action="review"' in player.get(url).content.decode()
    assert stranger.get(url).status_code == 404


@pytest.mark.django_db
def test_the_hint_button_is_offered_in_practice_games_only(owner: tuple[Client, str]) -> None:
    from types import SimpleNamespace

    from daifugo_site.ui.jinja import macro

    _client, token = owner
    game = scripted_game(token, stop=20)
    room = scripted_game(token, stop=20)
    room.seats = [{"kind": "human", "player": "a"}, {"kind": "human", "player": "b"}] + [
        {"kind": "computer", "level": "intermediate"}
    ] * 2
    rated = scripted_game(token, stop=20)
    rated.owner = "rated:abc"
    for g, offered in ((game, True), (room, False), (rated, False)):
        view = SimpleNamespace(game=g, is_owner=True, match_over=False, your_turn=True, owe=0)
        html = str(macro("play/table.html", "hint")(view))
        assert ('data-action="hint"' in html) is offered
