"""Issue 38, item 1: no visitor meets Django's debug page or a bare, unstyled error answer.
A refused form (CSRF), a forbidden action, a wrong method and a server error all answer the
site's own page, styled, in the page's language."""

from __future__ import annotations

import re

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from tests.daifugo_site.play.conftest import make_game
from tests.html import find_one

pytestmark = pytest.mark.django_db

LANGS = [("zh-hans", "zh-Hans"), ("ja", "ja")]


def assert_site_page(html: str, lang_attr: str) -> None:
    assert find_one(html, "html").get("lang") == lang_attr
    assert "css/site.css" in html, "styled with the site's stylesheet"
    heading = find_one(html, "h1").text.strip()
    assert heading and not heading.isascii(), heading
    text = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
    for word in ("CSRF", "DEBUG", "Forbidden", "Django", "Not Allowed"):
        assert word not in text, word


@pytest.mark.parametrize(("lang", "lang_attr"), LANGS)
def test_a_form_without_its_token_gets_the_sites_403_page(lang: str, lang_attr: str) -> None:
    game, _key = make_game(players=4, rounds=1)
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/{lang}/play/{game.pk}/again/")
    assert response.status_code == 403
    assert_site_page(response.content.decode(), lang_attr)


@pytest.mark.parametrize(("lang", "lang_attr"), LANGS)
def test_someone_elses_game_and_a_wrong_method_get_pages(lang: str, lang_attr: str) -> None:
    game, _key = make_game(players=4, rounds=1)
    client = Client()
    forbidden = client.post(f"/{lang}/play/{game.pk}/again/")
    assert forbidden.status_code == 403
    assert_site_page(forbidden.content.decode(), lang_attr)
    wrong_method = client.get(f"/{lang}/play/{game.pk}/again/")
    assert wrong_method.status_code == 405 and wrong_method["Allow"] == "POST"
    assert_site_page(wrong_method.content.decode(), lang_attr)


def test_htmx_requests_keep_their_own_error_bodies() -> None:
    game, _key = make_game(players=4, rounds=1)
    response = Client().post(f"/ja/play/{game.pk}/again/", headers={"HX-Request": "true"})
    assert response.status_code == 403 and response.content == b""


@pytest.mark.parametrize(("lang", "lang_attr"), LANGS)
def test_the_server_error_page_is_styled(lang: str, lang_attr: str) -> None:
    request = RequestFactory().get(f"/{lang}/")
    with translation.override(lang):
        response = server_error(request)
    assert response.status_code == 500
    assert_site_page(response.content.decode(), lang_attr)


def test_a_bad_host_gets_the_plain_400_page() -> None:
    """The 400 page does not build links from the refused host (it would fail again)."""
    response = Client().get("/ja/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "css/site.css" in response.content.decode()
