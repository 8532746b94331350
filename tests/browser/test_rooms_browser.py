"""Rooms in real browsers: two people (two browser contexts, own cookies) play a room to
the end through its link, in zh-hans and ja; a hotseat game on one page where no hand is
in the DOM while the curtain is down."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, hand_state, page_problems
from tests.browser.test_play_browser import press, select_with_keyboard

MATCH_TIMEOUT = 180.0


def act(page: Any, acted: dict[int, str | None], key: int) -> None:
    """One move on ``page`` when it is that page's turn (play the first legal, else pass),
    the next round, or the exchange."""
    version = page.locator("#table-version").get_attribute("data-version")
    if version == acted.get(key):
        return
    if page.locator('#results [data-action="next"], #room-panel [data-action="next"]').count():
        page.locator(
            '#results [data-action="next"], #room-panel [data-action="next"]'
        ).first.click()
        acted[key] = version
        return
    state = hand_state(page)
    if state is None or state.version == acted.get(key):
        return
    if state.owe:
        select_with_keyboard(page, state.cards[: state.owe])
        press(page, '[data-action="give"]')
        acted[key] = state.version
    elif state.your_turn:
        if state.legal:
            select_with_keyboard(page, state.legal[0]["cards"])
            press(page, '[data-action="play"]')
        else:
            press(page, '[data-action="pass"]')
        acted[key] = state.version


def hand_cards(page: Any) -> set[str]:
    # In one call: the hand may be swapped by a push between two reads.
    codes = page.eval_on_selector_all(
        "#hand [data-card]", "els => els.map(e => e.getAttribute('data-card'))"
    )
    return set(codes)


def room_with_a_guest(
    server: DaphneServer, new_page: Any, lang: str, locale: str, table: str
) -> tuple[Any, Any]:
    """Aki makes a room at the fastest pace and Bo, in a browser of their own, takes seat 1
    through its link: the two pages, the guest's still on the room page."""
    host = new_page(locale=locale)
    host.goto(f"{server.url}/{lang}/play/")
    host.locator('select[name="table"]').select_option(table)
    host.locator('select[name="speed"]').select_option("300")
    host.locator("#room-nickname").fill("Aki")
    host.locator('[data-action="create-room"]').click()
    link = host.locator('[data-testid="room-link"]')
    expect(link).to_be_visible()
    url = link.get_attribute("href")
    assert url and f"/{lang}/play/room/" in url

    guest = new_page(locale=locale)
    guest.goto(url)
    guest.locator("#room-name").fill("Bo")
    guest.locator('[data-testid="room-seats"] [data-action="take-seat"][data-seat="1"]').click()
    expect(guest.locator('[data-testid="room-seats"] [data-seat="1"]')).to_contain_text("Bo")
    return host, guest


@pytest.mark.parametrize(
    ("lang", "locale", "table", "over"),
    [("zh-hans", "zh-CN", "1v1", "比赛结束"), ("ja", "ja-JP", "1v1", "対戦終了")],
)
def test_two_people_play_a_room_through_its_link(
    daphne_server: DaphneServer, new_page: Any, lang: str, locale: str, table: str, over: str
) -> None:
    host, guest = room_with_a_guest(daphne_server, new_page, lang, locale, table)
    host.reload()
    expect(host.locator('[data-testid="room-seats"]')).to_contain_text("Bo")
    host.locator('[data-action="start-room"]').click()
    expect(host.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    # The guest's room page follows the start by itself (its poll), to its own seat.
    guest.wait_for_url("**/play/*/", timeout=15000)
    expect(guest.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    assert not hand_cards(host) & hand_cards(guest)

    acted: dict[int, str | None] = {}
    deadline = time.monotonic() + MATCH_TIMEOUT
    while time.monotonic() < deadline:
        if (
            host.locator('[data-testid="match-over"]').count()
            and guest.locator('[data-testid="match-over"]').count()
        ):
            break
        for key, page in enumerate((host, guest)):
            act(page, acted, key)
            assert not hand_cards(host) & hand_cards(guest)
        host.wait_for_timeout(150)
    else:
        pytest.fail("the room's match did not end in time")
    expect(guest.locator('[data-testid="match-over"]')).to_contain_text(over)
    assert page_problems(host) == [] and page_problems(guest) == []


def test_hotseat_hides_every_hand_behind_the_curtain(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    page = new_page(locale="ja-JP")
    page.goto(f"{daphne_server.url}/ja/play/")
    page.locator('select[name="table"]').select_option("1v1")
    page.locator('select[name="speed"]').select_option("300")
    page.locator('select[name="mode"]').select_option("hotseat")
    page.locator('select[name="humans"]').select_option("2")
    page.locator('[data-action="create-room"]').click()
    curtains = 0
    acted: dict[int, str | None] = {}
    deadline = time.monotonic() + MATCH_TIMEOUT
    while time.monotonic() < deadline:
        if page.locator('[data-testid="match-over"]').count():
            break
        curtain = page.locator('[data-testid="curtain"]')
        if curtain.count():
            # Curtain down: not one card of a hand in the DOM.
            assert page.locator("#hand [data-card]").count() == 0
            assert "data-card" not in page.locator("#hand").inner_html()
            curtains += 1
            page.locator('[data-action="reveal"]').click()
            expect(page.locator("#hand button[data-card]").first).to_be_visible()
            continue
        act(page, acted, 0)
        page.wait_for_timeout(100)
    else:
        pytest.fail("the hotseat match did not end in time")
    assert curtains >= 4
    assert page_problems(page) == []


def test_the_room_page_goes_to_the_table_once(daphne_server: DaphneServer, new_page: Any) -> None:
    """The room page polls every 3 s; once a poll's answer sends it to the table, it polls
    no more. On a slow connection the table took longer than a poll to load, the next
    poll's answer started the navigation again and cancelled the first (CI under load saw
    the table's request and a poll fail). Here the table's request is held for 7 s."""
    host, guest = room_with_a_guest(daphne_server, new_page, "ja", "ja-JP", "1v1")

    held: list[Any] = []
    polls: list[str] = []
    released: list[bool] = []

    def hold(route: Any) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    guest.route(re.compile(r"/play/(?!room/)[^/?]+/$"), hold)
    guest.on("request", lambda r: polls.append(r.url) if "part=seats" in r.url else None)
    host.reload()
    host.locator('[data-action="start-room"]').click()
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the guest's page never went to the table"
        guest.wait_for_timeout(100)
    polled = len(polls)
    guest.wait_for_timeout(7000)  # more than two polls' time
    assert len(polls) == polled, "the page kept polling on its way to the table"
    assert len(held) == 1, "the table's request was started again"
    released.append(True)
    for route in held:
        route.continue_()
    expect(guest.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    assert page_problems(guest) == []
