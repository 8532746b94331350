"""The home page in a real browser: both languages, the switcher, htmx, CSS, a WebSocket."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, page_problems

SCREENSHOTS = Path(__file__).resolve().parents[2] / ".pytest_cache" / "screenshots"


def test_home_in_both_languages_through_the_switcher(
    daphne_server: DaphneServer, page: Any
) -> None:
    # The browser says zh-CN: the bare address leads to the Chinese home page.
    page.goto(f"{daphne_server.url}/")
    expect(page).to_have_url(f"{daphne_server.url}/zh-hans/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator(".site-name")).to_have_text("大富豪牌社")
    expect(page.locator("h1")).to_have_text("学会大富豪，再来打一局")
    expect(page.locator('[data-card="ST"]')).to_have_attribute("aria-label", "黑桃 10")

    page.get_by_role("link", name="日本語").click()
    expect(page).to_have_url(f"{daphne_server.url}/ja/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".site-name")).to_have_text("大富豪クラブ")
    expect(page.get_by_role("img", name="ジョーカー")).to_be_visible()

    page.get_by_role("link", name="简体中文").click()
    expect(page).to_have_url(f"{daphne_server.url}/zh-hans/")
    assert page_problems(page) == []


def test_htmx_and_its_websocket_extension_load(daphne_server: DaphneServer, page: Any) -> None:
    page.goto(f"{daphne_server.url}/ja/")
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.htmx && window.htmx.version").startswith("2.")
    loaded = page.evaluate(
        "() => performance.getEntriesByType('resource').map((entry) => entry.name)"
    )
    assert any(name.endswith("/static/django_htmx/ext/hx-ws-2.min.js") for name in loaded)
    # Our stylesheet applies (served by whitenoise with DEBUG off): the header is felt green.
    background = page.evaluate(
        "() => getComputedStyle(document.querySelector('.site-header')).backgroundColor"
    )
    assert background == "rgb(11, 93, 75)"
    assert page_problems(page) == []


def test_websocket_ping_from_the_page(daphne_server: DaphneServer, page: Any) -> None:
    page.goto(f"{daphne_server.url}/ja/")
    reply = page.evaluate(
        """(path) => new Promise((resolve, reject) => {
            const socket = new WebSocket(`ws://${location.host}${path}`);
            socket.onopen = () => socket.send(JSON.stringify({data: 42}));
            socket.onmessage = (event) => { resolve(JSON.parse(event.data)); socket.close(); };
            socket.onerror = () => reject(new Error("WebSocket error"));
            setTimeout(() => reject(new Error("no reply")), 5000);
        })""",
        "/ws/ping/ja/",
    )
    assert reply == {"type": "pong", "lang": "ja", "message": "接続は正常です。", "echo": 42}


def test_phone_width_has_no_sideways_scrolling(
    daphne_server: DaphneServer, new_page: Callable[..., Any]
) -> None:
    phone = new_page(locale="ja-JP", viewport={"width": 360, "height": 740})
    phone.goto(f"{daphne_server.url}/")
    expect(phone).to_have_url(f"{daphne_server.url}/ja/")
    overflow = phone.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "home-ja-phone.png"), full_page=True)


def test_keyboard_focus_is_visible(daphne_server: DaphneServer, page: Any) -> None:
    page.goto(f"{daphne_server.url}/zh-hans/")
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "() => [document.activeElement.className,"
        " getComputedStyle(document.activeElement).outlineStyle]"
    )
    assert focused == ["skip-link", "solid"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "home-zh-hans.png"), full_page=True)
