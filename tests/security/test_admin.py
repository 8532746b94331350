"""Admin login throttling (django-axes) and the admin's path from settings."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

PASSWORD = "right-password-for-tests"


@pytest.fixture(autouse=True)
def _axes_on(settings: pytest.FixtureRequest) -> None:
    settings.AXES_ENABLED = True  # type: ignore[attr-defined]  (off in test settings)


@pytest.fixture
def admin_user(db: None) -> object:
    return get_user_model().objects.create_superuser("boss", "boss@example.com", PASSWORD)


def _login(client: Client, username: str, password: str, ip: str = "203.0.113.5") -> object:
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password, "next": reverse("admin:index")},
        REMOTE_ADDR=ip,
        HTTP_ACCEPT_LANGUAGE="ja",
    )


def test_axes_is_on_everywhere_but_in_other_tests() -> None:
    from daifugo_site.settings import base, test

    assert base.AXES_FAILURE_LIMIT == 10 and not hasattr(base, "AXES_ENABLED")  # default on
    assert test.AXES_ENABLED is False


def test_the_admin_lives_at_the_configured_path(admin_user: object) -> None:
    from django.conf import settings

    assert reverse("admin:index") == f"/{settings.ADMIN_PATH}"


def test_twenty_failed_logins_are_locked_out(admin_user: object) -> None:
    client = Client()
    statuses = [_login(client, "boss", f"wrong-{n}").status_code for n in range(20)]  # type: ignore[attr-defined]
    # The first failures are the usual form again (200); then the lockout (429).
    assert statuses[:9] == [200] * 9
    assert set(statuses[10:]) == {429}
    # Locked means locked: the right password is refused too, with a translated page.
    response = _login(client, "boss", PASSWORD)
    assert response.status_code == 429  # type: ignore[attr-defined]
    html = response.content.decode()  # type: ignore[attr-defined]
    assert "ログインを一時停止しています" in html
    assert "Account locked" not in html and "too many" not in html.lower()
    assert "_auth_user_id" not in client.session


def test_spraying_user_names_from_one_address_is_locked_out(admin_user: object) -> None:
    client = Client()
    for n in range(12):
        _login(client, f"guess-{n}", "wrong")
    assert _login(client, "boss", PASSWORD).status_code == 429  # type: ignore[attr-defined]


def test_another_address_can_still_sign_in(admin_user: object) -> None:
    attacker = Client()
    for n in range(15):
        _login(attacker, "boss", f"wrong-{n}")
    owner = Client()
    response = _login(owner, "boss", PASSWORD, ip="198.51.100.7")
    assert response.status_code == 302  # type: ignore[attr-defined]
    assert owner.get(reverse("admin:index")).status_code == 200


def test_a_success_resets_the_count(admin_user: object) -> None:
    client = Client()
    for n in range(8):
        _login(client, "boss", f"wrong-{n}")
    assert _login(client, "boss", PASSWORD).status_code == 302  # type: ignore[attr-defined]
    client.logout()
    for n in range(8):
        assert _login(client, "boss", f"wrong-{n}").status_code == 200  # type: ignore[attr-defined]
