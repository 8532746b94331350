"""Housekeeping: reading writes nothing; ``manage.py purge`` deletes exactly what is old.

A crawler (no cookie, ever) used to leave a session row and a progress row behind on every
lesson it read; nothing ever deleted games, sessions or guests' progress.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from daifugo_site.play import services
from daifugo_site.play.models import Game
from rules_engine import RuleSet
from tests.tutorials.conftest import FIXTURES, LESSON
from tutorials.models import Lesson, Progress


@pytest.fixture
def lessons(db: None) -> None:
    from tutorials.loader import load_content

    result = load_content(FIXTURES)
    assert result is not None and not result.refused


def _rows() -> tuple[int, int]:
    return Session.objects.count(), Progress.objects.count()


@pytest.mark.django_db
def test_200_cookieless_gets_write_no_row(lessons: None, content: None) -> None:
    pages = [
        f"/zh-hans/learn/{LESSON}/",
        f"/ja/learn/{LESSON}/?step=1",
        "/zh-hans/learn/",
        "/ja/play/",
        "/zh-hans/",
        "/ja/rules/",
    ]
    for number in range(200):
        client = Client()  # a fresh client each time: no cookie is ever sent back
        response = client.get(pages[number % len(pages)])
        assert response.status_code == 200
        assert "sessionid" not in response.cookies
    assert _rows() == (0, 0)


@pytest.mark.django_db
def test_first_action_creates_the_progress_on_the_step_read(lessons: None) -> None:
    client = Client()
    assert client.get(f"/zh-hans/learn/{LESSON}/?step=1").status_code == 200
    assert _rows() == (0, 0)
    client.post(f"/zh-hans/learn/{LESSON}/act/", {"action": "next", "step": "1"})
    assert Session.objects.count() == 1
    row = Progress.objects.get()
    # The action was taken on step 1 (the one read): without it, at step 0 it is ignored.
    assert row.step_index >= 1 and "1" in row.state["steps"]
    # A visitor with progress still has each visit recorded.
    client.get(f"/zh-hans/learn/{LESSON}/?step=0")
    row.refresh_from_db()
    assert row.step_index == 0


def _age(queryset: object, days: float) -> None:
    queryset.update(updated=timezone.now() - timedelta(days=days))  # type: ignore[attr-defined]


def _game(status: str = Game.Status.PLAYING) -> Game:
    game = services.create_game(
        owner="owner-token",
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=1,
        levels=["beginner"] * 3,
        delay_ms=0,
    )
    Game.objects.filter(pk=game.pk).update(status=status)
    return game


@pytest.mark.django_db
def test_purge_deletes_exactly_what_is_old(lessons: None, settings: object) -> None:
    settings.PURGE_UNFINISHED_GAMES_DAYS = 7  # type: ignore[attr-defined]
    settings.PURGE_FINISHED_GAMES_DAYS = 30  # type: ignore[attr-defined]
    settings.PURGE_GUEST_PROGRESS_DAYS = 30  # type: ignore[attr-defined]
    settings.PURGE_BATCH_SIZE = 2  # type: ignore[attr-defined]  (several batches)
    now = timezone.now()
    Session.objects.create(session_key="a" * 32, session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="b" * 32, session_data="", expire_date=now + timedelta(1))

    old_playing = [_game() for _ in range(5)]
    fresh_playing = _game()
    old_finished = _game(Game.Status.FINISHED)
    recent_finished = _game(Game.Status.FINISHED)  # older than 7 days, younger than 30
    for game in old_playing:
        _age(Game.objects.filter(pk=game.pk), 7.1)
    _age(Game.objects.filter(pk=fresh_playing.pk), 6.9)
    _age(Game.objects.filter(pk=old_finished.pk), 31)
    _age(Game.objects.filter(pk=recent_finished.pk), 20)

    lesson = Lesson.objects.get(slug=LESSON)
    user = get_user_model().objects.create_user("reader", password="x" * 12)
    old_guest = Progress.objects.create(lesson=lesson, session_token="old")
    new_guest = Progress.objects.create(lesson=lesson, session_token="new")
    old_user = Progress.objects.create(lesson=lesson, user=user, session_token="u")
    _age(Progress.objects.filter(pk__in=[old_guest.pk, old_user.pk]), 400)
    _age(Progress.objects.filter(pk=new_guest.pk), 29)

    dry = StringIO()
    call_command("purge", "--dry-run", stdout=dry)
    assert "unfinished games: 5 would be deleted" in dry.getvalue()
    assert Game.objects.count() == 8 and Session.objects.count() == 2

    out = StringIO()
    call_command("purge", stdout=out)
    report = out.getvalue()
    assert "expired sessions: 1 deleted" in report
    assert "unfinished games: 5 deleted" in report
    assert "finished games: 1 deleted" in report
    assert "guest lesson progress: 1 deleted" in report
    assert list(Session.objects.values_list("session_key", flat=True)) == ["b" * 32]
    assert set(Game.objects.values_list("pk", flat=True)) == {
        fresh_playing.pk,
        recent_finished.pk,
    }
    assert set(Progress.objects.values_list("pk", flat=True)) == {new_guest.pk, old_user.pk}

    again = StringIO()
    call_command("purge", stdout=again)
    assert "unfinished games: 0 deleted" in again.getvalue()


@pytest.mark.django_db
def test_zero_keeps_forever(settings: object) -> None:
    settings.PURGE_UNFINISHED_GAMES_DAYS = 0  # type: ignore[attr-defined]
    game = _game()
    _age(Game.objects.filter(pk=game.pk), 10_000)
    call_command("purge", stdout=StringIO())
    assert Game.objects.filter(pk=game.pk).exists()
