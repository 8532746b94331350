"""The hotseat curtain over the card table, in a real browser, on the oblique (3D) view
and on the flat one: while it is down it covers the whole stage and panel (also where the
3D table's plates stand up towards the viewer), no card of any hand is in the page (not in
the panel, not in the fan drawn on the table), and the keyboard cannot reach the table
behind it: Tab and Shift+Tab stay in the curtain, the rest of the page is inert."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, page_problems

CURTAINS_CHECKED = 2
CARD_TIMEOUT = 60_000

# Every point of a grid over the element's part inside the viewport hits the curtain.
COVERED = """(selector) => {
  const el = document.querySelector(selector);
  el.scrollIntoView({block: "center"});
  const curtain = document.querySelector('[data-testid="curtain"]').getBoundingClientRect();
  const r = el.getBoundingClientRect();
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  const misses = [];
  if (right <= left || bottom <= top) { return ["not in the viewport"]; }
  if (left < curtain.left || right > curtain.right
      || top < curtain.top || bottom > curtain.bottom) {
    misses.push("outside the curtain's box");
  }
  for (let fy = 0.02; fy < 1; fy += 0.12) {
    for (let fx = 0.02; fx < 1; fx += 0.12) {
      const x = left + (right - left) * fx, y = top + (bottom - top) * fy;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !hit.closest('[data-testid="curtain"]')) {
        misses.push(`${Math.round(x)},${Math.round(y)}: ${hit ? hit.className : "nothing"}`);
      }
    }
  }
  return misses;
}"""
ACTIVE_IN_CURTAIN = (
    "() => !!document.activeElement && "
    "!!document.activeElement.closest('[data-testid=\"curtain\"]')"
)


def start_hotseat(page: Any, base: str, lang: str, view: str) -> None:
    page.goto(f"{base}/{lang}/play/")
    page.evaluate("(view) => localStorage.setItem('daifugo.table.view', view)", view)
    page.locator('select[name="table"]').select_option("3")
    page.locator('select[name="preset"]').select_option("basic")
    page.locator('select[name="speed"]').select_option("300")
    page.locator('select[name="mode"]').select_option("hotseat")
    page.locator('select[name="humans"]').select_option("2")
    page.locator('[data-action="create-room"]').click()
    expect(page.locator(f'[data-table-stage][data-table-view="{view}"]')).to_be_attached()


def check_curtain(page: Any) -> None:
    curtain = page.locator('[data-testid="curtain"]')
    expect(curtain).to_be_visible()
    # In one evaluation: a computer's move may push a new panel (and curtain) at any time.
    box = page.evaluate(
        "() => { const r = document.querySelector('[data-testid=\"curtain\"]')"
        ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }"
    )
    viewport = page.viewport_size
    assert box == [0, 0, viewport["width"], viewport["height"]]
    # No card of any hand: not in the panel's hand, not in the fan on the table. The only
    # cards in the page are the field's, which everyone sees.
    assert page.locator("#hand [data-card], [data-hand-fan] > *").count() == 0
    stray = page.locator("[data-card]").evaluate_all(
        "cs => cs.filter(c => !c.closest('#field, #summary, #log')).map(c => c.dataset.card)"
    )
    assert stray == []
    for selector in ("[data-table-stage]", "[data-table-felt]", "[data-table-panel]"):
        assert page.evaluate(COVERED, selector) == [], selector
    # The table behind cannot be reached: it is inert, and Tab stays in the curtain.
    for selector in ("[data-table-stage]", "[data-table-panel]", ".site-header"):
        assert page.locator(selector).evaluate("e => !!e.closest('[inert]')"), selector
    expect(page.locator('[data-action="reveal"]')).to_be_focused()
    for key in ("Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"):
        page.keyboard.press(key)
        assert page.evaluate(ACTIVE_IN_CURTAIN), f"{key} left the curtain"
    # Shortcut keys do nothing behind it.
    version = page.locator("#table-version").get_attribute("data-version")
    for key in ("p", "1", "n", "g"):
        page.keyboard.press(key)
    expect(curtain).to_be_visible()
    assert page.locator("#table-version").get_attribute("data-version") == version


def lift_and_move(page: Any) -> None:
    """Show the hand (Enter on the focused button), check the table is back, then play
    the first legal move (or pass) with the keyboard."""
    page.keyboard.press("Enter")
    first = page.locator("#hand button[data-card]").first
    expect(first).to_be_visible(timeout=CARD_TIMEOUT)
    expect(page.locator('[data-testid="curtain"]')).to_have_count(0)
    assert page.locator("[inert]").count() == 0
    expect(page.locator("[data-hand-fan] [data-fan-card]").first).to_be_attached()
    expect(first).to_be_focused()
    hand = page.locator("#hand")
    if int(hand.get_attribute("data-owe") or "0"):
        return
    expect(hand).to_have_attribute("data-your-turn", "true")
    legal = json.loads(hand.get_attribute("data-legal") or "[]")
    if not legal:
        page.keyboard.press("p")
        return
    keys = page.locator("#hand .cards__item").evaluate_all(
        "items => Object.fromEntries(items.map(i =>"
        " [i.querySelector('button[data-card]').dataset.card, i.dataset.key]))"
    )
    page.locator("main").focus()
    for code in legal[0]["cards"]:
        page.keyboard.press(keys[code])
    page.keyboard.press("Enter")


@pytest.mark.parametrize(
    ("lang", "locale", "view", "width", "height"),
    [
        ("ja", "ja-JP", "oblique", 1280, 800),
        ("zh-hans", "zh-CN", "oblique", 390, 844),
        ("zh-hans", "zh-CN", "flat", 1280, 800),
        ("ja", "ja-JP", "flat", 390, 844),
    ],
    ids=["oblique-laptop-ja", "oblique-phone-zh", "flat-laptop-zh", "flat-phone-ja"],
)
def test_the_hotseat_curtain_covers_the_table(
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    view: str,
    width: int,
    height: int,
) -> None:
    page = new_page(locale=locale, viewport={"width": width, "height": height})
    start_hotseat(page, daphne_server.url, lang, view)
    for _ in range(CURTAINS_CHECKED):
        expect(page.locator('[data-testid="curtain"]')).to_be_visible(timeout=CARD_TIMEOUT)
        check_curtain(page)
        lift_and_move(page)
    assert page_problems(page) == []
