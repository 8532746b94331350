"""Issue 38, section 3: the statistics switch saves as soon as it is toggled (unticking it
without pressing "Save" was silently lost). With htmx the checkbox posts itself; without
a script the form's Save button still does it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from daifugo_site.accounts.models import GameResult, Profile
from tests.html import find_one

from .test_accounts import sign_up

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_the_profile_switch_saves_when_toggled(client: Client) -> None:
    sign_up(client, "ja", email="switch@example.com")
    user = get_user_model().objects.get(email="switch@example.com")
    GameResult.objects.create(
        user=user, game_id="g1", kind="practice", preset="party", players=4, rounds=1,
        place=1, average_place=1.0, revolutions=0, moves=5,
    )  # fmt: skip
    page = client.get("/ja/accounts/profile/").content.decode()
    switch = find_one(page, "input", data_testid="stats-switch")
    assert switch.get("hx-post") == "/ja/accounts/statistics/switch/"
    assert switch.get("hx-trigger") == "change"
    # What htmx sends when the box is unticked: no "statistics" field at all.
    response = client.post("/ja/accounts/statistics/switch/", {}, headers=HTMX)
    assert response.status_code == 200
    assert "設定を保存しました。" in response.content.decode()
    assert not Profile.objects.get(user=user).statistics
    assert not GameResult.objects.filter(user=user).exists()
    client.post("/ja/accounts/statistics/switch/", {"statistics": "on"}, headers=HTMX)
    assert Profile.objects.get(user=user).statistics


def test_the_play_page_switch_saves_when_toggled(client: Client) -> None:
    page = client.get("/zh-hans/play/").content.decode()
    switch = find_one(page, "input", data_testid="stats-switch")
    assert switch.get("hx-post") == "/zh-hans/accounts/statistics/switch/"
    assert switch.get("hx-trigger") == "change"
    response = client.post("/zh-hans/accounts/statistics/switch/", {}, headers=HTMX)
    assert response.status_code == 200 and "已保存" in response.content.decode()
    page = client.get("/zh-hans/play/").content.decode()
    assert find_one(page, "input", data_testid="stats-switch").get("checked") is None
