"""Sign-in throttling for site accounts: django-axes counts allauth's failed logins the
same way as the admin's (one mechanism; allauth's own login_failed limit is off)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from daifugo_site.accounts.auth import axes_username

PASSWORD = "a long pass phrase 7"


@pytest.fixture(autouse=True)
def _axes_on(settings: pytest.FixtureRequest) -> None:
    settings.AXES_ENABLED = True  # type: ignore[attr-defined]  (off in test settings)


def _login(client: Client, login: str, password: str, ip: str = "203.0.113.9") -> object:
    return client.post(
        "/ja/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=ip
    )


def test_one_failed_login_counter() -> None:
    from allauth.account import app_settings

    assert app_settings.RATE_LIMITS["login_failed"] is None
    assert settings.AXES_FAILURE_LIMIT == 10


def test_user_name_for_axes() -> None:
    assert axes_username(None, {"email": " Kana@Example.com "}) == "kana@example.com"
    assert axes_username(None, {"username": "boss"}) == "boss"
    assert axes_username(None, {}) is None


@pytest.mark.django_db
def test_failed_sign_ins_lock_the_account_then_refuse_the_right_password() -> None:
    get_user_model().objects.create_user("kana", "kana@example.com", PASSWORD)
    client = Client()
    statuses = [
        _login(
            client, "KANA@example.com" if n % 2 else "kana@example.com", f"wrong {n}"
        ).status_code  # type: ignore[attr-defined]
        for n in range(12)
    ]
    assert statuses[:9] == [200] * 9  # the form again, with its error
    assert set(statuses[10:]) == {429}
    response = _login(client, "kana@example.com", PASSWORD)
    assert response.status_code == 429  # type: ignore[attr-defined]
    assert "ログインを一時停止しています" in response.content.decode()  # type: ignore[attr-defined]
    assert "_auth_user_id" not in client.session
    # Another address is not locked out of the account (only this one address is).
    assert _login(Client(), "kana@example.com", PASSWORD, ip="198.51.100.7").status_code == 302  # type: ignore[attr-defined]
