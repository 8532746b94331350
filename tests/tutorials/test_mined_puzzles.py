"""Mined puzzles on the site: loading, ratings that move both ways (guests too, adopted on
sign-up), an attempt counted once, the next puzzle near the rating, the daily puzzle
stable, the pages in both languages, and bad input refused."""

from __future__ import annotations

import datetime
import gzip
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from rules_engine import Refusal
from tests.tutorials.helpers import act
from tutorials import engine, mined, puzzle_rating
from tutorials.models import MinedPuzzle, Progress, PuzzleAttempt, PuzzlePlayer

SAMPLE = 12


@pytest.fixture
def sample(db: None, tmp_path: Path) -> list[MinedPuzzle]:
    """A dozen of the shipped puzzles, loaded through the site's loader."""
    records = mined.read_records()[:SAMPLE]
    path = tmp_path / "mined.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    summary = mined.load_mined(path)
    assert f"{SAMPLE} mined puzzles ({SAMPLE} written" in summary
    # Loading again writes nothing.
    assert "(0 written, 0 removed)" in mined.load_mined(path)
    return list(MinedPuzzle.objects.select_related("lesson").order_by("key"))


@pytest.fixture(autouse=True)
def _clear_limits() -> None:
    cache.clear()


def slug_of(p: MinedPuzzle) -> str:
    return p.lesson.slug


def losing_move(p: MinedPuzzle) -> str:
    step = p.lesson.steps.get()
    r = engine.build_table(p.lesson.rules, step.table).round
    oracle = engine.Oracle(p.place)
    for move in r.legal_moves():
        nxt = r.apply(move)
        assert not isinstance(nxt, Refusal)
        if not oracle.wins(nxt):
            return str(move)
    raise AssertionError("every move wins")


def solve_it(client: Client, p: MinedPuzzle, lang: str = "zh-hans") -> str:
    """Play the puzzle through: each time, a winning move of seat 0."""
    step = p.lesson.steps.get()
    oracle = engine.Oracle(p.place)
    html = ""
    for _ in range(20):
        row = Progress.objects.filter(lesson_id=p.lesson_id).first()
        state = row.state.get("steps", {}).get("0", {}) if row is not None else {}
        if state.get("done"):
            return html
        line = state.get("line", [])
        r = engine.build_table(p.lesson.rules, step.table, line).round
        move = str(oracle.winning_moves(r)[0])
        cards, form = engine.split_move(move)
        data: dict = {"card": cards.split()} if move != "pass" else {}
        if form:
            data["form"] = form
        response = act(
            client, slug_of(p), "pass" if move == "pass" else "answer", lang=lang, step=0, **data
        )
        assert response.status_code == 200
        html = response.content.decode()
    raise AssertionError("not solved")


def open_puzzle(client: Client, p: MinedPuzzle, lang: str = "zh-hans") -> str:
    response = client.get(f"/{lang}/learn/{slug_of(p)}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_shows_position_turn_and_goal_in_both_languages(client: Client, sample) -> None:
    p = sample[0]
    zh = open_puzzle(client, p, "zh-hans")
    ja = open_puzzle(client, p, "ja")
    assert 'data-testid="puzzle-goal"' in zh and "data-card" in zh
    assert "残局题" in zh and "詰め問題" in ja
    assert "你" in zh and "あなた" in ja


def test_solving_raises_the_player_and_lowers_the_puzzle(client: Client, sample) -> None:
    p = sample[0]
    open_puzzle(client, p)
    before = p.rating
    answered = solve_it(client, p)
    attempt = PuzzleAttempt.objects.get()
    # The rating change is told in the feedback region (aria-live) of the answer itself.
    assert 'data-testid="puzzle-rating-change"' in answered and "→" in answered
    assert attempt.solved and attempt.rating_after > 1500
    p.refresh_from_db()
    assert p.rating < before and p.attempts == 1 and p.solves == 1
    html = open_puzzle(client, p)
    assert 'data-solved="true"' in html and 'data-testid="puzzle-line"' in html


def test_failing_lowers_the_player_and_raises_the_puzzle_once(client: Client, sample) -> None:
    p = sample[1]
    open_puzzle(client, p)
    before = p.rating
    move = losing_move(p)
    data = {"card": move.split("/")[0].split()} if move != "pass" else {}
    act(client, slug_of(p), "pass" if move == "pass" else "answer", step=0, **data)
    attempt = PuzzleAttempt.objects.get()
    assert not attempt.solved and attempt.rating_after < 1500
    p.refresh_from_db()
    assert p.rating > before
    # Retrying and solving it now changes nothing: an attempt counts once.
    act(client, slug_of(p), "retry", step=0)
    solve_it(client, p)
    assert PuzzleAttempt.objects.count() == 1
    p.refresh_from_db()
    assert p.attempts == 1


def test_a_replayed_answer_is_refused(client: Client, sample) -> None:
    p = sample[2]
    open_puzzle(client, p)
    solve_it(client, p)
    response = act(
        client, slug_of(p), "answer", step=0, card=p.solution.split("/")[0].split(), htmx=False
    )
    assert response.status_code == 409
    assert "已经" in response.content.decode()


def test_a_move_on_a_puzzle_not_served_is_refused(client: Client, sample) -> None:
    p = sample[3]
    response = act(
        client,
        slug_of(p),
        "answer",
        step=0,
        lang="ja",
        card=p.solution.split("/")[0].split(),
        htmx=False,
    )
    assert response.status_code == 403
    assert "詰め問題" in response.content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_a_refusal_reaches_the_page_with_scripts_on(client: Client, sample) -> None:
    """htmx does not swap a 4xx answer: the puzzle page's own request gets the refusal in
    its feedback region (200, nothing else swapped) instead of a page nobody sees."""
    p = sample[3]
    response = act(
        client,
        slug_of(p),
        "answer",
        step=0,
        lang="zh-hans",
        card=p.solution.split("/")[0].split(),
    )
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert 'id="tutor-feedback" hx-swap-oob="innerHTML"' in html
    assert 'data-testid="puzzle-refused"' in html and "残局题" in html
    assert not PuzzleAttempt.objects.exists()


def test_a_flood_of_attempts_is_rate_limited(client: Client, sample, settings) -> None:
    p = sample[4]
    open_puzzle(client, p)
    answers = [act(client, slug_of(p), "hint", step=0) for _ in range(60)]
    refused = ['data-testid="puzzle-refused"' in a.content.decode() for a in answers]
    # The page's own (htmx) requests: the refusal in the feedback region once over the limit.
    assert refused[-1] and not refused[0]
    # Without scripts the same limit answers 429.
    assert act(client, slug_of(p), "hint", step=0, htmx=False).status_code == 429


def test_next_puzzle_is_near_the_rating_and_not_seen(client: Client, sample) -> None:
    player = PuzzlePlayer.objects.create(session_token="t", rating=1500)
    near = min(sample, key=lambda p: abs(p.rating - 1500))
    puzzle_rating.record(player, near, True)
    player.refresh_from_db()
    assert player.rating > 1500
    chosen = {puzzle_rating.next_puzzle(player).key for _ in range(20)}
    assert near.key not in chosen
    # Within the narrowest window around the rating that holds an unseen puzzle.
    closest = min(abs(p.rating - player.rating) for p in sample if p.key != near.key)
    window = next(w for w in puzzle_rating.WINDOWS if w >= closest)
    for key in chosen:
        got = MinedPuzzle.objects.get(key=key)
        assert abs(got.rating - player.rating) <= window


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_day(sample) -> None:
    day = datetime.date(2026, 12, 6)
    assert puzzle_rating.daily(day) == puzzle_rating.daily(day)
    days = {puzzle_rating.daily(day + datetime.timedelta(days=i)).key for i in range(10)}
    assert len(days) > 1
    # A pure function of the date and the set of puzzles, not of a process: the same index.
    import hashlib

    index = int(hashlib.sha256(b"daifugo-daily-2026-12-06").hexdigest(), 16) % SAMPLE
    assert puzzle_rating.daily(day).key == sorted(p.key for p in sample)[index]


def test_daily_hub_theme_streak_and_dashboard_pages(client: Client, sample) -> None:
    for lang in ("zh-hans", "ja"):
        assert client.get(f"/{lang}/learn/puzzles/").status_code == 200
        assert client.get(f"/{lang}/learn/puzzles/dashboard/").status_code == 200
    response = client.get("/zh-hans/learn/puzzles/daily/")
    assert response.status_code == 302
    theme = sample[0].theme_list[0]
    response = client.get(f"/zh-hans/learn/puzzles/next/?theme={theme}")
    assert response.status_code == 302
    assert client.get("/zh-hans/learn/puzzles/next/?theme=nope").status_code == 404
    response = client.get("/zh-hans/learn/puzzles/next/?mode=streak&start=1")
    key = next(iter(reversed(client.session["puzzles_served"])))
    assert client.session["puzzles_served"][key] == "streak"
    p = MinedPuzzle.objects.get(key=key)
    open_puzzle(client, p)
    solve_it(client, p)
    player = PuzzlePlayer.objects.get()
    assert player.streak == 1 and player.best_streak == 1
    html = client.get("/ja/learn/puzzles/dashboard/").content.decode()
    assert 'data-testid="puzzle-history"' in html and p.key in html


def test_home_page_links_the_daily_puzzle(client: Client, db: None) -> None:
    html = client.get("/zh-hans/").content.decode()
    assert "/zh-hans/learn/puzzles/daily/" in html


def test_a_guest_rating_is_adopted_on_sign_up(client: Client, sample) -> None:
    p = sample[5]
    open_puzzle(client, p)
    solve_it(client, p)
    guest = PuzzlePlayer.objects.get()
    user = User.objects.create_user("puzzler", password="pw-long-enough-1")
    from django.test import RequestFactory

    from daifugo_site.accounts.signals import adopt_guest

    request = RequestFactory().get("/")
    request.session = client.session
    adopt_guest(request, user)
    guest.refresh_from_db()
    assert guest.user == user and guest.attempts.count() == 1
