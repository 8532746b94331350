"""Issue 38, item 2: an account starts in the language of the page it was created on, and
signing in or saving the profile keeps that language."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from daifugo_site.accounts.models import Profile
from tests.daifugo_site.accounts.test_accounts import sign_up

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_the_account_keeps_the_language_it_was_created_in(client: Client, lang: str) -> None:
    sign_up(client, lang)
    user = get_user_model().objects.get(email="kana@example.com")
    profile = Profile.objects.get(user=user)
    assert profile.language == lang
    # Saving the profile as shown (its language field pre-selected) stays in the language.
    page = client.get(f"/{lang}/accounts/profile/").content.decode()
    assert f'<option value="{lang}" selected>' in page
    saved = client.post(
        f"/{lang}/accounts/profile/",
        {"display_name": profile.display_name, "language": lang, "statistics": "on"},
    )
    assert saved.status_code == 302 and saved["Location"].startswith(f"/{lang}/")
    client.post(f"/{lang}/accounts/logout/")
    signed_in = client.post(
        f"/{lang}/accounts/login/",
        {"login": "kana@example.com", "password": "a long pass phrase 7"},
    )
    assert signed_in.status_code == 302
    assert signed_in["Location"].startswith(f"/{lang}/accounts/profile/")
