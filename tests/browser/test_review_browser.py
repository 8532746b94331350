"""A hint during a practice game, then "review my game" with its progress, in a browser."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import COUNT_FRAMES, FIRST_FRAME, DaphneServer, page_problems
from tests.browser.test_play_browser import play_round_by_keyboard, press


@pytest.mark.parametrize(("lang", "locale", "start"), [("ja", "ja-JP", "ゲームを始める")])
def test_hint_then_review_my_game(
    daphne_server: DaphneServer, new_page: Any, lang: str, locale: str, start: str
) -> None:
    page = new_page(locale=locale)
    # The hint is asked for once the socket's first frame has come: before it, under CI's
    # load, that frame replaced the hand the hint's button sat in between focus and key.
    page.add_init_script(COUNT_FRAMES)
    page.goto(f"{daphne_server.url}/{lang}/play/")
    page.locator('select[name="table"]').select_option("1v1")
    page.locator('select[name="speed"]').select_option("300")
    page.get_by_role("button", name=start).click()
    hand = page.locator('[data-testid="hand"]')
    expect(hand.locator("button[data-card]").first).to_be_visible()
    expect(hand).to_have_attribute("data-your-turn", "true", timeout=20_000)
    page.wait_for_function(FIRST_FRAME)
    press(page, '[data-action="hint"]')
    hint = page.locator('[data-testid="hint"]')
    # The hint searches in the pool shared with the computers; on a CI machine running two
    # browser workers beside their servers it once took longer than 20 s.
    expect(hint.locator(".hint-box__suggestion")).not_to_be_empty(timeout=45_000)
    expect(page.locator("#hints-used")).to_have_attribute("data-hints", "1")
    play_round_by_keyboard(page)
    expect(page.locator('[data-testid="match-over"]')).to_be_visible()
    page.locator('a[data-action="review"]').click()
    # The progress is pushed over the review's socket (one frame a decision, the last one
    # at 100 %), then the finished review is fetched. (A short match reviewed by the
    # compiled engine may be done before the page asks: then nothing is pushed; the
    # socket's frames are tested in tests/daifugo_site/review/test_push.py.)
    pushed: list[str] = []

    def watch(ws: Any) -> None:
        if "/ws/review/" in ws.url:
            ws.on("framereceived", lambda payload: pushed.append(str(payload)))

    page.on("websocket", watch)
    press(page, 'button[data-action="review"]')
    review = page.locator('[data-testid="review"]')
    expect(review).to_be_visible(timeout=60_000)
    assert all('id="review"' in frame for frame in pushed)
    if pushed:
        assert 'value="100"' in pushed[-1]
    expect(review).to_contain_text("使ったヒント：1 回。")
    for cost in review.locator('[data-testid="mistake"]').evaluate_all(
        "els => els.map(e => e.dataset.cost)"
    ):
        assert float(cost) > 0
    assert page_problems(page) == []


def test_a_hint_answered_after_a_push_still_shows_and_goes_when_the_table_moves_on(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    """Every pushed frame replaces the hand the hint box sits in. A hint request still on
    its way when a frame arrives (typically the first frame after the socket connects)
    must still show its answer; a later version clears it. The socket is routed through
    the test so that a frame can be pushed again while the hint's answer is held back."""
    page = new_page(locale="zh-CN")
    frames: list[str | bytes] = []
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)

        def down(message: str | bytes) -> None:
            frames.append(message)
            ws.send(message)

        server.on_message(down)

    page.route_web_socket("**/ws/play/**", relay)
    held: list[Any] = []
    page.route("**/review/hint/**", lambda route: held.append(route))
    page.goto(f"{daphne_server.url}/zh-hans/play/")
    page.locator('select[name="table"]').select_option("1v1")
    page.locator('select[name="speed"]').select_option("300")
    page.locator('[data-action="start"]').click()
    hand = page.locator('[data-testid="hand"]')
    expect(hand).to_have_attribute("data-your-turn", "true", timeout=20_000)
    deadline = time.monotonic() + 10
    while not frames and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert frames, "no frame came over the socket"
    press(page, '[data-action="hint"]')
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the hint request was not sent"
    # The latest frame again (same version), while the answer is on its way.
    page.evaluate("() => { window.__handBefore = document.getElementById('hand'); }")
    sockets[0].send(frames[-1])
    page.wait_for_function("() => document.getElementById('hand') !== window.__handBefore")
    held[0].continue_()
    hint = page.locator('[data-testid="hint"]')
    expect(hint.locator(".hint-box__suggestion")).not_to_be_empty(timeout=20_000)
    expect(page.locator("#hints-used")).to_have_attribute("data-hints", "1")
    # Another push of the same version keeps it.
    sockets[0].send(frames[-1])
    page.wait_for_timeout(300)
    expect(hint.locator(".hint-box__suggestion")).not_to_be_empty()
    # The player moves: the table's version changes and the hint no longer applies.
    # data-legal lists the plays only: on a field the player cannot beat it is empty and
    # passing is the move (the deal decides which, so both must be handled).
    legal = json.loads(hand.get_attribute("data-legal") or "[]")
    version = page.locator("#table-version").get_attribute("data-version")
    if page.locator('[data-action="pass"]').is_enabled():
        press(page, '[data-action="pass"]')
    else:
        assert legal, "the player's turn offers neither a play nor a pass"
        for code in legal[0]["cards"]:
            hand.locator(f'button[data-card="{code}"]').click()
        press(page, '[data-action="play"]')
    expect(page.locator("#table-version")).not_to_have_attribute("data-version", version or "")
    expect(hint.locator(".hint-box__suggestion")).to_have_count(0)
    # The kept button follows the pushed state: enabled exactly on the player's decisions.
    page.wait_for_function(
        """() => { const h = document.getElementById('hand');
          const b = document.querySelector('#hint-area [data-action="hint"]');
          const mine = h.dataset.yourTurn === 'true' || Number(h.dataset.owe) > 0;
          return b && b.disabled === !mine; }"""
    )
    assert page_problems(page) == []
