"""The rules reference in a real browser: read a section, switch language, same section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, page_problems

SCREENSHOTS = Path(__file__).resolve().parents[2] / ".pytest_cache" / "screenshots"


def test_read_a_section_then_switch_language_and_land_on_the_same_section(
    daphne_server: DaphneServer, page: Any
) -> None:
    # From the rules index (Chinese) to one section through its table of contents.
    page.goto(f"{daphne_server.url}/zh-hans/rules/")
    expect(page.locator("h1")).to_have_text("大富豪规则")
    page.locator(".rules-toc").get_by_role("link", name="锁花色").click()
    expect(page).to_have_url(f"{daphne_server.url}/zh-hans/rules/#suit-lock")
    page.locator('[data-section="suit-lock"] h2 a').click()

    expect(page).to_have_url(f"{daphne_server.url}/zh-hans/rules/suit-lock/")
    section = page.locator('article[data-section="suit-lock"]')
    expect(section.locator("h1")).to_have_text("锁花色")
    # An example hand: caption, seats, the engine's lock note, cards with Chinese names.
    example = section.locator('[data-example="suit-lock-single"]')
    expect(example).to_contain_text("黑桃被锁")
    expect(example).to_contain_text("1号玩家")
    expect(example.locator('[data-card="HQ"]').first).to_have_attribute("aria-label", "红心 Q")

    page.get_by_role("link", name="日本語").click()
    expect(page).to_have_url(f"{daphne_server.url}/ja/rules/suit-lock/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    section = page.locator('article[data-section="suit-lock"]')
    expect(section.locator("h1")).to_have_text("縛り")
    example = section.locator('[data-example="suit-lock-single"]')
    expect(example).to_contain_text("スペード縛り")
    expect(example).to_contain_text("プレイヤー1")
    expect(example.locator('[data-card="HQ"]').first).to_have_attribute("aria-label", "ハートのQ")
    assert page_problems(page) == []


def test_presets_link_to_the_option_description(daphne_server: DaphneServer, page: Any) -> None:
    page.goto(f"{daphne_server.url}/ja/rules/presets/")
    expect(page.locator('tr[data-option="jokers"] td[data-preset="party"]')).to_have_text("2")
    page.locator('tr[data-option="eight_cut"] th a').click()
    expect(page).to_have_url(f"{daphne_server.url}/ja/rules/eight-cut/#option-eight_cut")
    expect(page.locator("#option-eight_cut")).to_be_in_viewport()
    assert page_problems(page) == []


def test_rules_read_on_a_phone_and_print_without_navigation(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    page = new_page(locale="ja-JP", viewport={"width": 360, "height": 740})
    page.goto(f"{daphne_server.url}/ja/rules/")
    # Nothing wider than the phone's screen: tables scroll inside their own box.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator('[data-section="suit-lock"]').screenshot(path=SCREENSHOTS / "rules-ja-phone.png")
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator('[data-section="revolution"]')).to_be_visible()
    assert page_problems(page) == []
