"""A mined puzzle on a phone (issue 41, like the phone table of issue 38): at 390×844 with
touch, in both languages, the puzzle is solved by tapping, and before and after the cards
are chosen

- the goal, the field, your hand, Play and Hint (and Pass, when the field is not empty) lie
  inside the screen, which has not scrolled and is no wider than the screen; every card
  of your hand is on top where it is drawn (nothing covers it, not the bar);
- the bar's buttons and the hand's cards are at least 44 px across and down, and no key
  badge is shown on a touch screen.

A losing move's reason shows without scrolling (over the position, folded when the next
cards are chosen). The hub and the results page are no wider
than the screen, and the hub's links are a fingertip high. One phone size per language,
so the test stays quick (docs/phone-table.md has the other sizes, checked by hand).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import page_problems
from tests.browser.test_puzzles_browser import _pick

MIN_TARGET = 44

PROBLEMS = """(minTarget) => {
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const inside = (r) =>
    r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const must = [
    ['the goal', '#tutor .tutor-goal'],
    ['the field', '#tutor [data-testid="field"]'],
    ['the hand', '#tutor .tutor-cards-buttons'],
    ['Play', '#tutor [data-action="play"]'],
  ];
  // Pass is there when the field is not empty (a lead cannot pass).
  if (document.querySelector('#tutor .field__who')) {
    must.push(['Pass', '#tutor [data-action="pass"]']);
  }
  if (document.querySelector('#tutor [data-action="hint"]')) {
    must.push(['Hint', '#tutor [data-action="hint"]']);
  }
  for (const [name, selector] of must) {
    const el = document.querySelector(selector);
    if (!el) { problems.push(name + ' missing'); continue; }
    const r = el.getBoundingClientRect();
    if (!inside(r) || r.width < 1) { problems.push(name + ' outside: ' + JSON.stringify(r)); }
  }
  if (window.scrollY !== 0) { problems.push('the page scrolled to ' + window.scrollY); }
  const sw = document.scrollingElement.scrollWidth;
  if (sw > vw) { problems.push('the page is ' + sw + ' px wide'); }
  document.querySelectorAll('#tutor .tutor-cards-buttons button[data-card]').forEach((b) => {
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !b.contains(hit)) { problems.push(b.dataset.card + ' is covered'); }
    if (r.width < minTarget || r.height < minTarget) {
      problems.push(b.dataset.card + ' is ' + Math.round(r.width) + '×' + Math.round(r.height));
    }
  });
  document.querySelectorAll('#tutor .hand__actions .button, #tutor [data-action="hint"]')
    .forEach((b) => {
    const r = b.getBoundingClientRect();
    if (r.width < minTarget || r.height < minTarget) {
      problems.push(b.dataset.action + ' is ' + Math.round(r.width) + '×' + Math.round(r.height));
    }
  });
  if ([...document.querySelectorAll('kbd')].some((k) => k.checkVisibility())) {
    problems.push('a key badge on a touch screen');
  }
  return problems;
}"""

NO_WIDER = "() => document.scrollingElement.scrollWidth <= window.innerWidth"

# Links shorter than a fingertip, on the hub.
SMALL_LINKS = """(minTarget) => [...document.querySelectorAll('.puzzle-modes a, .puzzle-themes a')]
  .filter((a) => a.getBoundingClientRect().height < minTarget).map((a) => a.textContent)"""

# The tutor's answer to a move, in view without scrolling.
FEEDBACK_IN_VIEW = """() => {
  const r = document.querySelector('#tutor-feedback').getBoundingClientRect();
  return window.scrollY === 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
}"""


def tap_move(page: Any, move: str) -> None:
    for card in move.split():
        page.locator(f'#tutor .tutor-cards-buttons button[data-card="{card}"]').tap()


@pytest.mark.parametrize(("lang", "locale"), [("zh-hans", "zh-CN"), ("ja", "ja-JP")])
def test_a_puzzle_solved_on_a_phone_without_scrolling(
    daphne_server: Any, new_page: Any, lang: str, locale: str
) -> None:
    good, bad, losing = _pick()
    page = new_page(
        locale=locale, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page.goto(f"{daphne_server.url}/{lang}/learn/puzzles/")
    assert page.evaluate(NO_WIDER)
    assert page.evaluate(SMALL_LINKS, MIN_TARGET) == []

    # A losing move: the reason is shown where it can be read, without scrolling.
    page.goto(f"{daphne_server.url}/{lang}/learn/mined-{bad['id'].lower()}/")
    page.wait_for_selector('#tutor section[data-step="0"] .tutor-cards-buttons')
    tap_move(page, losing)
    page.locator('#tutor [data-action="play"]').tap()
    page.wait_for_selector('#tutor-feedback [data-feedback="wrong"]')
    page.wait_for_function(FEEDBACK_IN_VIEW)
    # Choosing the next cards folds it to one line, so the other hands show again.
    page.locator("#tutor .tutor-cards-buttons button[data-card]").first.tap()
    folded = page.locator("#tutor-feedback").bounding_box()
    assert folded is not None and folded["height"] <= MIN_TARGET + 1, folded

    page.goto(f"{daphne_server.url}/{lang}/learn/mined-{good['id'].lower()}/")
    page.wait_for_selector('#tutor section[data-step="0"] .tutor-cards-buttons')
    assert page.evaluate(PROBLEMS, MIN_TARGET) == []
    tap_move(page, good["solution"])
    assert page.evaluate(PROBLEMS, MIN_TARGET) == [], "with the cards chosen"
    page.locator('#tutor [data-action="play"]').tap()
    page.wait_for_selector('[data-testid="puzzle-result"][data-solved="true"]')
    assert page.evaluate(NO_WIDER)

    page.goto(f"{daphne_server.url}/{lang}/learn/puzzles/dashboard/")
    assert good["id"] in page.inner_text('[data-testid="puzzle-history"]')
    assert page.evaluate(NO_WIDER)
    assert page_problems(page) == []
