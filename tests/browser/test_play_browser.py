"""A full round against the computer, played with the keyboard only, in both languages."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, hand_state, page_problems

ROUND_TIMEOUT = 120.0


def select_with_keyboard(page: Any, codes: list[str]) -> None:
    """Walk the hand with the arrow keys and press Space on each wanted card."""
    buttons = page.locator("#hand button[data-card]")
    # One read of the whole hand: a push may swap the hand's fragment (same cards) between a
    # count and an nth(i), and the i-th button of a count taken before it may be gone.
    hand = buttons.evaluate_all("(cards) => cards.map((card) => card.dataset.card)")
    wanted = list(codes)
    buttons.first.focus()
    for index, code in enumerate(hand):
        if index:
            page.keyboard.press("ArrowRight")
        if code in wanted:
            page.keyboard.press("Space")
            wanted.remove(code)
    assert not wanted, f"cards {wanted} not in hand {hand}"


def press(page: Any, selector: str) -> None:
    """Focus a control and activate it with Enter, as a keyboard user does."""
    control = page.locator(selector)
    expect(control).to_be_enabled()
    control.focus()
    page.keyboard.press("Enter")


def start_practice_game(
    page: Any, base: str, lang: str, table: str, rounds: str | None = None
) -> None:
    """Start a practice game from the play page at the fastest computer speed (pointer,
    not keyboard: the keyboard start is what test_a_full_round_by_keyboard tests)."""
    page.goto(f"{base}/{lang}/play/")
    page.locator('select[name="table"]').select_option(table)
    page.locator('select[name="speed"]').select_option("300")
    if rounds is not None:
        page.locator('select[name="rounds"]').select_option(rounds)
    page.locator('[data-action="start"]').click()


def play_round_by_keyboard(page: Any) -> None:
    deadline = time.monotonic() + ROUND_TIMEOUT
    acted_at: str | None = None
    while time.monotonic() < deadline:
        if page.locator('[data-testid="round-result"]').count():
            return
        state = hand_state(page)
        if state is None or state.version == acted_at:
            pass
        elif state.owe:
            select_with_keyboard(page, state.cards[: state.owe])
            press(page, '[data-action="give"]')
            acted_at = state.version
        elif state.your_turn:
            if state.legal:
                select_with_keyboard(page, state.legal[0]["cards"])
                press(page, '[data-action="play"]')
            else:
                press(page, '[data-action="pass"]')
            acted_at = state.version
        page.wait_for_timeout(100)
    pytest.fail("the round did not end in time")


@pytest.mark.parametrize(
    ("lang", "locale", "table", "start", "result_heading"),
    [
        ("zh-hans", "zh-CN", "4", "开始游戏", "本局结束"),
        ("ja", "ja-JP", "1v1", "ゲームを始める", "この回の結果"),
    ],
)
def test_a_full_round_by_keyboard(
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    table: str,
    start: str,
    result_heading: str,
) -> None:
    page = new_page(locale=locale)
    page.goto(f"{daphne_server.url}/{lang}/play/")
    page.locator('select[name="table"]').select_option(table)
    page.locator('select[name="speed"]').select_option("300")
    page.locator('select[name="rounds"]').select_option("3")
    start_button = page.get_by_role("button", name=start)
    start_button.focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    # The live region announces what happens at the table.
    expect(page.locator("#announcer")).to_have_attribute("aria-live", "polite")
    play_round_by_keyboard(page)
    result = page.locator('[data-testid="round-result"]')
    expect(result).to_contain_text(result_heading)
    expect(page.locator("#announcer")).not_to_be_empty()
    assert page.locator('[data-testid="log"] li').count() > 5
    assert page_problems(page) == []
