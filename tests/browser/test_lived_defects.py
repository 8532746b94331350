"""Issue 38 ("Lived in"), defects only a browser shows."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, page_problems
from tests.browser.test_play_browser import play_round_by_keyboard, start_practice_game

pytestmark = pytest.mark.browser


def wait_for_my_turn(page: Any) -> list[dict[str, Any]]:
    """The legal moves once it is this page's turn (None-free: a turn with a play)."""
    deadline = time.monotonic() + 60
    hand = page.locator('[data-testid="hand"]')
    while time.monotonic() < deadline:
        if hand.get_attribute("data-your-turn") == "true":
            legal = json.loads(hand.get_attribute("data-legal") or "[]")
            if legal:
                return legal  # type: ignore[no-any-return]
        page.wait_for_timeout(100)
    pytest.fail("never my turn with a play")


@pytest.mark.parametrize(("lang", "locale"), [("ja", "ja-JP"), ("zh-hans", "zh-CN")])
def test_mouse_then_enter_plays_and_play_again_starts_a_new_game(
    daphne_server: DaphneServer, new_page: Any, lang: str, locale: str
) -> None:
    """Item 5: cards chosen with the mouse, then Enter, play them (Enter used to toggle the
    card the mouse had focused). Item 1: the "new game with these rules" form, pushed at the
    end of the game, starts a new game (it had no CSRF token: a raw 403)."""
    page = new_page(locale=locale, viewport={"width": 1280, "height": 800})
    start_practice_game(page, daphne_server.url, lang, "1v1")
    expect(page.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    legal = wait_for_my_turn(page)
    move = max(legal, key=lambda m: len(m["cards"]))
    version = page.locator("#table-version").get_attribute("data-version")
    for code in move["cards"]:
        page.locator(f'#hand button[data-card="{code}"]').click()
    page.keyboard.press("Enter")
    expect(page.locator("#table-version")).not_to_have_attribute("data-version", version or "")
    for code in move["cards"]:
        expect(page.locator(f'#hand button[data-card="{code}"]')).to_have_count(0)
    play_round_by_keyboard(page)
    first_game = page.url
    again = page.locator('[data-action="again"]')
    expect(again).to_be_visible(timeout=30_000)
    again.click()
    page.wait_for_url(
        lambda url: url != first_game and re.search(r"/play/[^/]+/$", url) is not None
    )
    expect(page.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    assert page_problems(page) == []
