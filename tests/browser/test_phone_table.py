"""The phone is the main table (issue 38, section 1): at 390×844 and 360×740 portrait and
844×390 landscape, with touch, in both languages, a round of a practice game is played by
tapping the fanned hand and the bar's buttons, and at every turn

- the hand, the field and the Play button lie inside the screen, which has not scrolled
  and is no wider than the screen;
- nothing is drawn twice in view: no card shown twice, one field, the panel's copies of
  the field, the players and the hand's card buttons out of sight (they stay for screen
  readers and keyboards);
- the bar's buttons and the fanned cards' uncovered strips are at least 44 px across, and
  no key badge is shown on a touch screen.

Between rounds the result comes up with Next inside the screen.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    FIRST_FRAME,
    DaphneServer,
    hand_state,
    page_problems,
    phone_page,
)

ROUND_TIMEOUT = 150.0
SIZES = [(390, 844), (360, 740), (844, 390)]
LANGUAGES = [("zh-hans", "zh-CN", "4"), ("ja", "ja-JP", "1v1")]
MIN_TARGET = 44

# One pass over the page, returning what is wrong (an empty list when all is well).
LAYOUT_PROBLEMS = """(minTarget) => {
  const problems = [];
  // The round ended since the loop last looked: the result is a sheet over the table (it is
  // checked after the loop). Seen once in CI under load as "0 fields in view".
  if (document.querySelector('[data-testid="round-result"]')) { return problems; }
  const vw = window.innerWidth, vh = window.innerHeight;
  const box = (el) => el.getBoundingClientRect();
  const inside = (r) =>
    r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const shown = (el) => {
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) { return false; }
    // Drawn in view: some point of it, inside the screen, is on top there (a visually
    // hidden element is clipped to nothing; a covered one is under something else).
    const r = box(el);
    for (let fy = 0.05; fy < 1; fy += 0.15) {
      for (let fx = 0.05; fx < 1; fx += 0.15) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        if (x < 0 || y < 0 || x >= vw || y >= vh) { continue; }
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) { return true; }
      }
    }
    return false;
  };
  const must = [
    // The fan is empty once you are out.
    ...(document.querySelector('[data-fan-card]') ? [['the hand', '[data-hand-fan]']] : []),
    ['the hand bar', '[data-testid="hand"]'],
    ['the field', '[data-testid="field"]'],
    ['Play', '[data-action="play"]'],
  ];
  for (const [name, selector] of must) {
    const el = document.querySelector(selector);
    if (!el) { problems.push(name + ' missing'); continue; }
    const r = box(el);
    if (!inside(r) || r.width < 1) {
      problems.push(name + ' outside the screen: ' + JSON.stringify(r));
    }
  }
  if (window.scrollY !== 0) { problems.push('the page scrolled to ' + window.scrollY); }
  const sw = document.scrollingElement.scrollWidth;
  if (sw > vw) { problems.push('the page is ' + sw + ' px wide'); }
  // Nothing drawn twice: each card code once among the cards and fanned cards in view.
  const seen = {};
  document.querySelectorAll('[data-card], [data-fan-card]').forEach((el) => {
    if (!shown(el)) { return; }
    const code = el.dataset.card || el.dataset.fanCard;
    seen[code] = (seen[code] || 0) + 1;
  });
  for (const code in seen) {
    if (seen[code] > 1) { problems.push(code + ' drawn ' + seen[code] + ' times'); }
  }
  const fields = [...document.querySelectorAll('[data-testid="field"], .summary__field')]
    .filter(shown);
  if (fields.length !== 1) { problems.push(fields.length + ' fields in view'); }
  if ([...document.querySelectorAll('#summary, .hand__cards')].some(shown)) {
    problems.push("the panel's copy of the table is in view");
  }
  // Touch targets and key badges.
  document.querySelectorAll('[data-testid="hand"] .button, #results .button').forEach((el) => {
    if (!shown(el)) { return; }
    const r = box(el);
    if (r.width < minTarget || r.height < minTarget) {
      const name = el.dataset.action || el.textContent.trim();
      problems.push(name + ' is ' + Math.round(r.width) + '×' + Math.round(r.height));
    }
  });
  document.querySelectorAll('.fan-row').forEach((row) => {
    const lefts = [...row.children].map((c) => box(c.firstElementChild).left);
    for (let i = 1; i < lefts.length; i++) {
      const apart = lefts[i] - lefts[i - 1];
      if (apart < minTarget - 1.5) {
        problems.push('fanned cards ' + apart.toFixed(1) + ' px apart');
        break;
      }
    }
  });
  const rows = [...document.querySelectorAll('.fan-row')].map((r) => box(r).top);
  for (let i = 1; i < rows.length; i++) {
    const apart = rows[i] - rows[i - 1];
    if (apart < minTarget - 1.5) { problems.push('fan rows ' + apart.toFixed(1) + ' px apart'); }
  }
  if ([...document.querySelectorAll('kbd')].some(shown)) {
    problems.push('a key badge on a touch screen');
  }
  return problems;
}"""

# The fanned cards overlap: a point where this card is the one on top.
VISIBLE_POINT = """(card) => {
  const r = card.getBoundingClientRect();
  for (let fy = 0.1; fy < 0.95; fy += 0.1) {
    for (let fx = 0.1; fx < 0.95; fx += 0.1) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('[data-fan-card]') === card) { return {x, y}; }
    }
  }
  return null;
}"""


def tap_card(page: Any, code: str) -> None:
    card = page.locator(f'[data-hand-fan] [data-fan-card="{code}"]')
    point = card.evaluate(VISIBLE_POINT)
    if point is None:  # a card still rising or sinking: once more when it has settled
        page.wait_for_timeout(300)
        point = card.evaluate(VISIBLE_POINT)
    assert point is not None, f"no uncovered part of {code} to tap"
    page.touchscreen.tap(point["x"], point["y"])
    expect(card).to_have_class(re.compile(r"\bis-selected\b"))


def assert_table_fits(page: Any, when: str) -> None:
    problems = page.evaluate(LAYOUT_PROBLEMS, MIN_TARGET)
    assert problems == [], f"{when}: {problems}"


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["390x844", "360x740", "844x390"])
@pytest.mark.parametrize(("lang", "locale", "table"), LANGUAGES, ids=["zh", "ja"])
def test_a_whole_round_on_a_phone_without_scrolling(
    daphne_server: DaphneServer,
    new_page: Any,
    width: int,
    height: int,
    lang: str,
    locale: str,
    table: str,
) -> None:
    page = phone_page(new_page, locale, width, height)
    page.goto(f"{daphne_server.url}/{lang}/play/")
    page.locator('select[name="table"]').select_option(table)
    page.locator('select[name="speed"]').select_option("300")
    page.locator('select[name="rounds"]').select_option("3")
    page.locator('[data-action="start"]').tap()
    page.wait_for_selector("[data-hand-fan] [data-fan-card]")
    page.wait_for_function(FIRST_FRAME)
    page.evaluate("window.scrollTo(0, 0)")

    deadline = time.monotonic() + ROUND_TIMEOUT
    checked: set[str] = set()
    acted_at: str | None = None
    turns = 0
    while time.monotonic() < deadline:
        if page.locator('[data-testid="round-result"]').count():
            break
        version = page.locator("#table-version").get_attribute("data-version") or ""
        if version not in checked:
            checked.add(version)
            assert_table_fits(page, f"version {version}")
        state = hand_state(page)
        if state is not None and state.version != acted_at and state.your_turn:
            legal = state.legal
            if legal:
                for code in legal[0]["cards"]:
                    tap_card(page, code)
                # Selected cards are raised, and the table still fits.
                assert_table_fits(page, f"version {version}, cards selected")
                page.locator('[data-action="play"]').tap()
            else:
                page.locator('[data-action="pass"]').tap()
            acted_at = state.version
            turns += 1
        page.wait_for_timeout(100)
    else:
        pytest.fail("the round did not end in time")
    assert turns >= 2, "the round ended before we played"

    # Between rounds: the result, with Next (or, once the match is over, a new game)
    # inside the screen and in reach.
    expect(page.locator('[data-testid="round-result"]')).to_be_in_viewport()
    end = "next" if page.locator('[data-action="next"]').count() else "again"
    button = page.locator(f'[data-action="{end}"]')
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["height"] >= MIN_TARGET, box
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert page_problems(page) == []
