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


CODE = re.compile(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4})\s*$", re.M)


def mailed_code(email: str) -> str:
    """The confirmation code of the newest mail to ``email``."""
    for message in reversed(mail.outbox):
        if email in message.to:
            found = CODE.search(message.body)
            assert found, message.body
            return found.group(1)
    raise AssertionError(f"no mail to {email}")


def sign_up(client: Client, lang: str, email: str = "kana@example.com") -> None:
    """Sign up as a person does: the form, then the code from the mail on the next page
    (the account is signed in once its address is confirmed)."""
    response = client.post(
        f"/{lang}/accounts/signup/",
        {"email": email, "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    code_page = response["Location"]
    page = client.get(code_page)
    assert "/accounts/" in code_page and page.status_code == 200
    assert 'name="code"' in page.content.decode()
    assert not ENGLISH.search(visible_text(page.content.decode())), ENGLISH.search(
        visible_text(page.content.decode())
    )
    confirmed = client.post(code_page, {"code": mailed_code(email)})
    assert confirmed.status_code == 302, confirmed.content.decode()[:2000]


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
    # A generated name in the page's language: nothing of the e-mail address (issue 45).
    name = Profile.objects.get(user=user).display_name
    assert "kana" not in name
    assert re.fullmatch(("牌友" if lang == "zh-hans" else "プレイヤー") + r"\d{4}", name), name
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


ROOM_FORM = {
    "table": "4",
    "preset": "standard",
    "rounds": "3",
    "speed": "300",
    "level_1": "beginner",
    "level_2": "beginner",
    "level_3": "beginner",
    "mode": "link",
    "drop_timeout": "30",
    "clock": "0",
    "standin_level": "intermediate",
}


@pytest.mark.parametrize("typed", ["", "Momo"])
def test_a_room_shows_the_typed_nickname_or_the_display_name_never_the_address(
    client: Client, typed: str
) -> None:
    """Issue 45: room pages showed the user name (the address before the @) even after the
    person set a display name, and ignored the nickname typed for a signed-in creator."""
    from daifugo_site.rooms.models import Room, RoomSeat

    sign_up(client, "zh-hans", email="kana.secret@example.com")
    client.post("/zh-hans/accounts/profile/", {"display_name": "Aki", "language": "zh-hans"})
    made = client.post("/zh-hans/play/room/new/", {**ROOM_FORM, "name": typed})
    assert made.status_code == 302
    room = Room.objects.get()
    assert RoomSeat.objects.get(room=room, seat=0).name == (typed or "Aki")
    page = Client().get(made["Location"]).content.decode()
    assert "kana" not in page and (typed or "Aki") in page


def test_names_taken_from_addresses_are_replaced_once() -> None:
    """The migration: a display name equal to its address's local part is replaced by a
    generated one; a name the person chose stays."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("daifugo_site.accounts.migrations.0003_no_name_from_email")
    users = get_user_model().objects
    a = users.create_user(username="kana", email="kana@example.com", password="x" * 12)
    b = users.create_user(username="momo", email="momo@example.com", password="x" * 12)
    Profile.objects.create(user=a, display_name="kana", language="ja")
    Profile.objects.create(user=b, display_name="Momo the Great")
    migration.forwards(apps, None)
    assert re.fullmatch(r"プレイヤー\d{4}", Profile.objects.get(user=a).display_name)
    assert Profile.objects.get(user=b).display_name == "Momo the Great"


@pytest.mark.parametrize("lang", LANGS)
def test_sign_up_and_reset_answer_alike_for_known_and_unknown_addresses(
    client: Client, lang: str
) -> None:
    """Issue 45: signing up with a registered address answered "已被其他用户注册" while a new
    one redirected, and the password reset mailed an "unknown account" notice to any
    address. Now both answer the same way whether or not the address has an account; the
    known address's owner is told by mail, and an unknown address gets no mail at all."""
    from django.core.cache import cache

    sign_up(client, lang, "known@example.com")
    client.post(f"/{lang}/accounts/logout/")
    cache.clear()  # allauth's per-address mail limits are not what is compared here
    mail.outbox.clear()
    answers = {}
    for email in ("known@example.com", "nobody@example.com"):
        other = Client()
        response = other.post(
            f"/{lang}/accounts/signup/",
            {
                "email": email,
                "password1": "a long pass phrase 7",
                "password2": "a long pass phrase 7",
            },
        )
        page = other.get(response["Location"])
        answers[email] = (response.status_code, response["Location"], page.status_code)
    assert answers["known@example.com"] == answers["nobody@example.com"], answers
    assert get_user_model().objects.filter(email="known@example.com").count() == 1
    assert sorted(m.to[0] for m in mail.outbox) == ["known@example.com", "nobody@example.com"]
    cache.clear()
    mail.outbox.clear()
    resets = [
        client.post(f"/{lang}/accounts/password/reset/", {"email": email})
        for email in ("known@example.com", "stranger@example.com")
    ]
    assert [(r.status_code, r["Location"]) for r in resets] == [
        (resets[0].status_code, resets[0]["Location"])
    ] * 2
    assert [m.to[0] for m in mail.outbox] == ["known@example.com"]


@pytest.mark.parametrize(
    ("lang", "words"), [("zh-hans", "请求过于频繁"), ("ja", "リクエストが多すぎます")]
)
def test_too_many_requests_is_the_sites_own_translated_page(
    client: Client, lang: str, words: str
) -> None:
    """allauth's limits answered with an unstyled English "429 Too Many Requests"."""
    data = {"email": "same@example.com", "password1": "a long pass phrase 7"}
    data["password2"] = data["password1"]
    assert Client().post(f"/{lang}/accounts/signup/", data).status_code == 302
    refused = Client().post(f"/{lang}/accounts/signup/", data)  # a second code within minutes
    html = refused.content.decode()
    assert refused.status_code == 429
    assert words in html and 'class="site-footer"' in html
    assert not ENGLISH.search(visible_text(html)), ENGLISH.search(visible_text(html))


def announcer_text(html: str) -> str:
    found = re.search(r'<div id="announcer"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no announcer on the page"
    return " ".join(found.group(1).split())


@pytest.mark.parametrize("lang", LANGS)
def test_sign_in_messages_are_said_on_the_profile_by_display_name(
    client: Client, lang: str
) -> None:
    """The journeys (tests/browser/test_journeys.py) found allauth's messages left for the
    next sign-in page, read out there all at once, naming the person by their e-mail's
    local part, and in Chinese with the Latin word "Email"."""
    sign_up(client, lang, "kana@example.com")
    said = announcer_text(client.get(f"/{lang}/accounts/profile/").content.decode())
    name = Profile.objects.get(user__email="kana@example.com").display_name
    assert name in said, said
    assert "kana@example.com" in said  # the address the person confirmed, to them only
    assert not re.search(r"[A-Za-z]", said.replace("kana@example.com", "")), said
    client.post(f"/{lang}/accounts/logout/")
    # Said once, where they happened: the sign-in page has only the sign-out's message.
    said = announcer_text(client.get(f"/{lang}/accounts/login/").content.decode())
    assert name not in said and "kana" not in said, said
