"""``{% lesson_embed section_slug %}``: a lesson's first interactive step inside a rules page."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.utils import translation

from daifugo_site.ui.reasons import reason_text
from tests.html import find_all, find_one
from tests.tutorials.conftest import LESSON
from tests.tutorials.helpers import current, feedback_text, lesson_url
from tutorials.models import Progress

pytestmark = pytest.mark.usefixtures("loaded")
UID = f"tutor-embed-{LESSON}"


def render(
    section: str, path: str = "/zh-hans/rules/following/", client: Client | None = None
) -> str:
    request = RequestFactory().get(path)
    request.session = client.session if client is not None else Client().session
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override("zh-hans"):
        return Template("{% load tutor %}{% lesson_embed section %}").render(
            Context({"request": request, "section": section})
        )


def test_renders_the_first_interactive_step_with_a_continue_link() -> None:
    html = render("tutor-test-section")
    aside = find_one(html, "aside", data_embed=LESSON)
    assert "测试课：压牌" in aside.text
    step = find_one(html, "section", id=f"{UID}-step")
    assert step.get("data-kind") == "play" and step.get("data-step") == "2"
    form = find_one(html, "form", class_="tutor-answer")
    assert form.get("hx-target") == f"#{UID}-step"
    assert {e.get("value") for e in find_all(html, "input", name="embed")} == {"1"}
    assert {e.get("value") for e in find_all(html, "input", name="next")} == {
        "/zh-hans/rules/following/"
    }
    link = find_one(html, "a", data_action="continue")
    assert link.get("href") == f"{lesson_url(LESSON)}?step=2"
    assert not find_all(html, "button", data_action="next")  # no stepping inside the rules page
    assert find_one(html, "div", id=f"{UID}-feedback").get("aria-live") == "polite"
    assert Progress.objects.count() == 0  # reading a rules page writes nothing


def test_assets_are_included_once_per_page() -> None:
    html = render("tutor-test-section")
    assert html.count("tutorials/tutor.js") == 1


def test_unknown_section_renders_nothing() -> None:
    assert render("no-such-section") == ""
    assert render("") == ""


def test_answering_in_place_with_htmx(client: Client) -> None:
    url = f"{lesson_url(LESSON)}act/"
    data = {"action": "answer", "step": "2", "embed": "1", "next": "/zh-hans/rules/following/"}
    html = client.post(url, {**data, "card": "S4"}, HTTP_HX_REQUEST="true").content.decode()
    assert find_one(html, "section", id=f"{UID}-step").get("data-kind") == "play"
    assert find_one(html, "div", id=f"{UID}-feedback").get("hx-swap-oob") == "innerHTML"
    with translation.override("zh-hans"):
        assert reason_text("not_stronger") in feedback_text(html)
    html = client.post(url, {**data, "card": "DK"}, HTTP_HX_REQUEST="true").content.decode()
    assert "♦K 比♥9 大。" in feedback_text(html)
    # Done here: "continue" leads to the step after it.
    assert find_one(html, "a", data_action="continue").get("href") == f"{lesson_url(LESSON)}?step=3"
    # The lesson itself did not move: the embed answers its own step only.
    assert current(client, LESSON).step_index == 0
    assert current(client, LESSON).state["steps"]["2"]["done"]
    # And the rules page now shows the answered step.
    html = render("tutor-test-section", client=client)
    assert find_one(html, "section", id=f"{UID}-step").get("data-done") == "true"


def test_plain_post_comes_back_to_the_rules_page(client: Client) -> None:
    url = f"{lesson_url(LESSON)}act/"
    data = {"action": "pass", "step": "2", "embed": "1", "next": "/zh-hans/rules/following/"}
    response = client.post(url, data)
    assert response.status_code == 303
    assert response["Location"] == f"/zh-hans/rules/following/#{UID}"
    # A foreign "next" is not followed.
    response = client.post(url, {**data, "next": "https://example.com/"})
    assert response["Location"] == f"{lesson_url(LESSON)}#{UID}"
