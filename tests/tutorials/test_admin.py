"""Saving in the admin runs the engine: an invalid lesson does not save, and the message
names the step."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tutorials.models import Lesson, Step

pytestmark = pytest.mark.usefixtures("loaded")


class _FormReader(HTMLParser):
    """The fields a browser would submit from the admin's change form."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: list[tuple[str, str]] = []
        self.in_form = False
        self.textarea: str | None = None
        self.select: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method") == "post":
            self.in_form = True
        if not self.in_form:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data.append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button", "file"):
                self.data.append((a["name"], a.get("value", "")))
        elif tag == "textarea" and a.get("name"):
            self.textarea, self.text = a["name"], ""
        elif tag == "select" and a.get("name"):
            self.select = a["name"]
        elif tag == "option" and self.select and "selected" in a:
            self.data.append((self.select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self.textarea:
            self.data.append((self.textarea, self.text.lstrip("\n")))
            self.textarea = None
        elif tag == "select":
            self.select = None
        elif tag == "form":
            self.in_form = False

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.text += data


def form_data(html: str) -> dict[str, Any]:
    reader = _FormReader()
    reader.feed(html)
    data: dict[str, Any] = {}
    for name, value in reader.data:
        data.setdefault(name, value)
    return data


@pytest.fixture
def admin_client(client: Client) -> Client:
    user = User.objects.create_superuser("admin", "admin@example.com", "pw-for-tests-only")
    client.force_login(user)
    return client


def play_step() -> Step:
    return Step.objects.get(lesson__slug="tutor-test-basics", kind="play")


def test_step_with_an_illegal_accepted_move_does_not_save(admin_client: Client) -> None:
    step = play_step()
    url = f"/admin/tutorials/step/{step.pk}/change/"
    data = form_data(admin_client.get(url).content.decode())
    data["data"] = json.dumps({"accept": ["S4"]})
    response = admin_client.post(url, data)
    assert response.status_code == 200
    text = response.content.decode()
    assert "tutor-test-basics step 3 (play): accepted move &#x27;S4&#x27; is not legal here" in text
    assert play_step().data == {"accept": ["DK"]}


def test_tempting_wrong_move_that_is_accepted_does_not_save(admin_client: Client) -> None:
    step = play_step()
    url = f"/admin/tutorials/step/{step.pk}/change/"
    data = form_data(admin_client.get(url).content.decode())
    data["wrong_moves-0-move"] = "DK"
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "wrong move &#x27;DK&#x27; is also accepted" in response.content.decode()
    assert play_step().wrong_moves.get().move == "pass"


def test_valid_step_saves(admin_client: Client) -> None:
    step = play_step()
    url = f"/admin/tutorials/step/{step.pk}/change/"
    data = form_data(admin_client.get(url).content.decode())
    data["hint1_ja"] = "もっと強い1枚を。"
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert play_step().hint1_ja == "もっと強い1枚を。"


def test_lesson_page_validates_its_steps(admin_client: Client) -> None:
    lesson = Lesson.objects.get(slug="tutor-test-basics")
    url = f"/admin/tutorials/lesson/{lesson.pk}/change/"
    data = form_data(admin_client.get(url).content.decode())
    index = next(i for i in range(10) if data.get(f"steps-{i}-kind") == "legal")
    data[f"steps-{index}-data"] = json.dumps({"answer": ["pass"]})
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "tutor-test-basics step 5 (legal): answer differs from the engine" in (
        response.content.decode()
    )
    # Rules that break a table: the lesson's own fields are checked too.
    data = form_data(admin_client.get(url).content.decode())
    data["rules"] = json.dumps({"preset": "basic", "jokers": 0, "revolution": "yes"})
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "rules:" in response.content.decode()
    data = form_data(admin_client.get(url).content.decode())
    data["title_ja"] = "テスト：改題"
    assert admin_client.post(url, data).status_code == 302
    assert Lesson.objects.get(slug="tutor-test-basics").title_ja == "テスト：改題"
