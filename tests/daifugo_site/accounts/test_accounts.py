"""Accounts (django-allauth) in both languages: sign up, sign in, sign out, password reset;
the guest's games and lesson progress moving to the account; the profile and its
statistics switch."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from daifugo_site.accounts.models import GameResult, Profile
from daifugo_site.play import services, thinking
from daifugo_site.play.models import Game
from rules_engine import RuleSet

pytestmark = pytest.mark.django_db

LANGS = ("zh-hans", "ja")
# Words of allauth's English pages that must never show on a zh/ja page.
ENGLISH = re.compile(
    r"\b(Sign In|Sign Up|Sign Out|Password|Forgot|E-?mail address|Remember Me|Menu)\b"
)


def visible_text(html: str) -> str:
    html = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return html


def sign_up(client: Client, lang: str, email: str = "kana@example.com") -> None:
    response = client.post(
        f"/{lang}/accounts/signup/",
        {"email": email, "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["login/", "signup/", "password/reset/", "logout/"])
def test_account_pages_have_no_english(client: Client, lang: str, path: str) -> None:
    if path == "logout/":
        sign_up(client, lang)
    response = client.get(f"/{lang}/accounts/{path}")
    assert response.status_code == 200
    text = visible_text(response.content.decode())
    assert not ENGLISH.search(text), ENGLISH.search(text)
    assert 'lang="' + ("zh-Hans" if lang == "zh-hans" else "ja") in response.content.decode()


@pytest.mark.parametrize("lang", LANGS)
def test_sign_up_in_out(client: Client, lang: str) -> None:
    sign_up(client, lang)
    user = get_user_model().objects.get(email="kana@example.com")
    assert Profile.objects.get(user=user).display_name == "kana"
    page = client.get(f"/{lang}/accounts/profile/")
    assert page.status_code == 200 and 'data-testid="rating"' in page.content.decode()
    assert not ENGLISH.search(visible_text(page.content.decode()))
    client.post(f"/{lang}/accounts/logout/")
    assert client.get(f"/{lang}/accounts/profile/").status_code == 302
    response = client.post(
        f"/{lang}/accounts/login/",
        {"login": "kana@example.com", "password": "a long pass phrase 7"},
    )
    assert response.status_code == 302
    # The profile's language, which is the one it was created in.
    assert response["Location"].startswith(f"/{lang}/accounts/profile/")


@pytest.mark.parametrize("lang", LANGS)
def test_password_reset_mail(client: Client, lang: str) -> None:
    sign_up(client, lang)
    client.post(f"/{lang}/accounts/logout/")
    mail.outbox.clear()
    response = client.post(f"/{lang}/accounts/password/reset/", {"email": "kana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/\S+/password/reset/key/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    assert not ENGLISH.search(mail.outbox[0].subject + mail.outbox[0].body)
    page = client.get(link.group(1), follow=True)
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link.group(1)
    done = client.post(
        form_url, {"password1": "another pass phrase 8", "password2": "another pass phrase 8"}
    )
    assert done.status_code == 302
    assert client.login(email="kana@example.com", password="another pass phrase 8")


def test_guest_games_and_progress_move_to_the_account(client: Client) -> None:
    from tutorials.models import Lesson, Progress
    from tutorials.progress import TOKEN_KEY

    session = client.session
    token = services.player_token(session)
    session[TOKEN_KEY] = "tutor-guest-token"
    session.save()
    game = services.create_game(
        owner=token,
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=1,
        levels=["beginner"] * 3,
        delay_ms=0,
    )
    lesson = Lesson.objects.first()
    if lesson is not None:
        Progress.objects.create(lesson=lesson, session_token="tutor-guest-token", step_index=2)
    sign_up(client, "ja")
    user = get_user_model().objects.get(email="kana@example.com")
    profile = Profile.objects.get(user=user)
    assert profile.player_token == token
    assert Game.objects.get(pk=game.pk).owner == profile.player_token
    if lesson is not None:
        assert Progress.objects.get(lesson=lesson, user=user).step_index == 2
    # Signing in from another browser that played as a guest too: its games move as well.
    other = Client()
    other_session = other.session
    other_token = services.player_token(other_session)
    other_session.save()
    game2 = services.create_game(
        owner=other_token,
        rules=RuleSet.preset("standard"),
        players=4,
        rounds=1,
        levels=["beginner"] * 3,
        delay_ms=0,
    )
    other.post(
        "/ja/accounts/login/", {"login": "kana@example.com", "password": "a long pass phrase 7"}
    )
    assert Game.objects.get(pk=game2.pk).owner == profile.player_token
    assert other.session[services.PLAYER_TOKEN_KEY] == profile.player_token


def _finish_practice_game(owner: str) -> Game:
    """A one-round practice game played to the end by the engine's first moves."""
    game = services.create_game(
        owner=owner,
        rules=RuleSet.preset("standard"),
        players=3,
        rounds=1,
        levels=["beginner"] * 2,
        delay_ms=0,
        seed=5,
    )
    for _ in range(400):
        row, match = services.current(game.pk)  # type: ignore[misc]
        if match.over:
            return row
        seat = match.round.to_act
        action = thinking.safe_action(match.observe(seat))
        out = services.apply_action(
            game.pk, action, by_computer=row.seats[seat].get("kind") == "computer"
        )
        assert out.accepted, out
    raise AssertionError("did not finish")


def test_statistics_recorded_and_opt_out(client: Client) -> None:
    sign_up(client, "zh-hans")
    user = get_user_model().objects.get(email="kana@example.com")
    profile = Profile.objects.get(user=user)
    _finish_practice_game(profile.player_token)
    assert GameResult.objects.filter(user=user).count() == 1
    page = client.get("/zh-hans/accounts/profile/").content.decode()
    assert 'data-stat="games">1<' in page
    assert 'data-testid="stats-switch"' in page
    # Off: what was recorded is deleted, and a new finished game records nothing.
    response = client.post("/zh-hans/accounts/profile/", {"display_name": "Kana", "language": "ja"})
    assert response.status_code == 302 and response["Location"].startswith("/ja/")
    assert not Profile.objects.get(user=user).statistics
    assert GameResult.objects.filter(user=user).count() == 0
    _finish_practice_game(profile.player_token)
    assert GameResult.objects.filter(user=user).count() == 0
    page = client.get("/ja/accounts/profile/").content.decode()
    assert 'data-stat="games"' not in page
