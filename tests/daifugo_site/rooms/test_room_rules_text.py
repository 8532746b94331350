"""Issue 38, items 9 and 10 on the room page: the rules name the preset in the visitor's
language and describe a friends' table as people and computers (it said "you and 3
computers", the practice table's words)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from daifugo_site.rooms.models import Room

from .test_room_views import FORM

pytestmark = pytest.mark.django_db


def rules_of(page: str) -> str:
    rules = page[page.index('data-testid="room-rules"') :]
    return rules[: rules.index("</section>")]


@pytest.mark.parametrize(
    ("lang", "table", "preset", "practice_words"),
    [
        ("zh-hans", "4 个座位：朋友通过链接加入，空着的座位由电脑玩家来打", "标准", "你和"),
        (
            "ja",
            "4 席：友だちがリンクから参加し、空いた席はコンピューターが受け持ちます",
            "スタンダード",
            "あなたと",
        ),
    ],
)
def test_a_friends_table_is_described_as_friends_and_computers(
    lang: str, table: str, preset: str, practice_words: str
) -> None:
    client = Client()
    assert client.post(f"/{lang}/play/room/new/", FORM).status_code == 302
    room = Room.objects.get()
    rules = rules_of(Client().get(f"/{lang}/play/room/{room.token}/").content.decode())
    assert table in rules
    assert f"<dd>{preset}</dd>" in rules
    assert practice_words not in rules and "standard" not in rules


@pytest.mark.parametrize(
    ("lang", "table"),
    [
        ("zh-hans", "4 人：这台设备上的 2 位玩家和 2 个电脑玩家"),
        ("ja", "4 人：この端末で遊ぶ 2 人とコンピューター 2 人"),
    ],
)
def test_a_hotseat_table_counts_its_people_and_computers(lang: str, table: str) -> None:
    client = Client()
    form = {**FORM, "mode": "hotseat", "humans": "2"}
    assert client.post(f"/{lang}/play/room/new/", form).status_code == 302
    room = Room.objects.get()
    page = client.get(f"/{lang}/play/room/{room.token}/", follow=True).content.decode()
    if 'data-testid="room-rules"' not in page:  # a started hotseat table: its room page
        page = Client().get(f"/{lang}/play/room/{room.token}/").content.decode()
    assert table in rules_of(page)


def test_a_visitor_s_seat_form_goes_once_the_game_starts() -> None:
    """Issue 38, item 11: a visitor who opened the room before its start kept the nickname
    form after it started with no seat free. The poll that refreshes the seats now also
    removes the open room's controls (out of band) once the room is no longer open."""
    creator, visitor = Client(), Client()
    assert creator.post("/ja/play/room/new/", FORM).status_code == 302
    room = Room.objects.get()
    page = visitor.get(f"/ja/play/room/{room.token}/").content.decode()
    assert 'id="room-take"' in page and 'id="room-open-controls"' in page
    poll = {"HX-Request": "true"}
    while_open = visitor.get(f"/ja/play/room/{room.token}/?part=seats", headers=poll)
    # While the room is open the poll leaves the form alone (a nickname may be half typed).
    assert 'id="room-open-controls"' not in while_open.content.decode()
    assert creator.post(f"/ja/play/room/{room.token}/start/", {"fill": "1"}).status_code == 302
    started = visitor.get(f"/ja/play/room/{room.token}/?part=seats", headers=poll)
    html = started.content.decode()
    assert 'data-testid="spectator"' in html
    controls = re.search(r'<div id="room-open-controls"([^>]*)>(.*?)</div>', html, re.S)
    assert controls and 'hx-swap-oob="true"' in controls.group(1)
    assert controls.group(2).strip() == ""
    assert 'id="room-take"' not in html
    # The page itself, loaded after the start, has no seat form either.
    assert 'id="room-take"' not in Client().get(f"/ja/play/room/{room.token}/").content.decode()
