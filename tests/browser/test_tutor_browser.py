"""The tutor in a real browser, by keyboard only: a whole lesson and a puzzle, in zh-hans
and in ja. The lesson and puzzle are the tutor's own test fixtures (tests/tutorials/content),
loaded into the browser test server's database."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import page_problems

LESSON = "tutor-test-basics"
PUZZLE = "tutor-test-puzzle"
#: The test puzzle's answers: a play that does not force the win, and the winning line
#: (9, the others answer; 2, everyone passes; then the pair of 5s).
PUZZLE_REFUSED = "H2"
PUZZLE_LINE = (("S9",), ("H2",), ("D5", "C5"))
FOCUSED = "(selector) => !!document.activeElement && document.activeElement.matches(selector)"


def tab_to(page: Any, selector: str, limit: int = 150) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate(FOCUSED, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def press_on(page: Any, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    page.keyboard.press(key)


SETTLED = "() => !!document.activeElement && !!document.activeElement.closest('#tutor')"


def settled(page: Any) -> None:
    """After a swap, wait until the tutor has put focus back inside it."""
    page.wait_for_function(SETTLED, timeout=5_000)


def wait_for(page: Any, selector: str) -> None:
    page.wait_for_selector(selector)
    settled(page)


def wait_step(page: Any, step: str, swapped: bool = True) -> None:
    selector = f'#tutor section[data-step="{step}"]'
    if swapped:
        wait_for(page, selector)
    else:  # a page load: focus starts at the top of the page
        page.wait_for_selector(selector)


def wait_done(page: Any) -> None:
    wait_for(page, '#tutor section[data-done="true"]')


def focused_is(page: Any, selector: str) -> bool:
    """Whether focus lands on ``selector`` (the tutor moves it just after each swap)."""
    page.wait_for_function(FOCUSED, arg=selector, timeout=5_000)
    return True


@pytest.mark.parametrize(("lang", "locale"), [("zh-hans", "zh-CN"), ("ja", "ja-JP")])
def test_a_lesson_by_keyboard(tutor_server: Any, new_page: Any, lang: str, locale: str) -> None:
    page = new_page(locale=locale)
    page.goto(f"{tutor_server.url}/{lang}/learn/")
    press_on(page, f'a[data-lesson="{LESSON}"]')
    wait_step(page, "0", swapped=False)

    # 1 explain: read, then Next.
    press_on(page, 'button[data-action="next"]')
    wait_step(page, "1")
    assert focused_is(page, "#tutor-heading")

    # 2 watch: two plays, one at a time; focus stays on the button.
    press_on(page, 'button[data-action="advance"]')
    wait_for(page, ".tutor-captions li")
    assert focused_is(page, 'button[data-action="advance"]')
    page.keyboard.press("Enter")
    wait_done(page)
    assert focused_is(page, 'button[data-action="next"]')
    page.keyboard.press("Enter")
    wait_step(page, "2")

    # 3 play: a wrong move first (pass), then select the king with the keyboard and play it.
    press_on(page, 'button[data-action="pass"]')
    wait_for(page, '#tutor-feedback [data-feedback="wrong"]')
    press_on(page, 'button[data-card="DK"]', " ")
    assert page.get_attribute('button[data-card="DK"]', "aria-pressed") == "true"
    press_on(page, 'button[data-action="play"]')
    wait_done(page)
    page.wait_for_selector('#tutor-feedback [data-feedback="right"]')
    assert focused_is(page, 'button[data-action="next"]')
    page.keyboard.press("Enter")
    wait_step(page, "3")

    # 4 choose: arrow keys move between the radio buttons.
    tab_to(page, 'input[name="choice"]')
    page.keyboard.press("ArrowDown")
    assert page.is_checked('input[name="choice"][value="1"]')
    press_on(page, 'button[data-action="check"]')
    wait_done(page)
    assert focused_is(page, 'button[data-action="next"]')
    page.keyboard.press("Enter")
    wait_step(page, "4")

    # 5 legal quiz: tick pass and the pair of nines.
    press_on(page, 'input[name="moves"][value="pass"]', " ")
    press_on(page, 'input[name="moves"][value="S9 H9"]', " ")
    press_on(page, 'button[data-action="check"]')
    wait_done(page)
    assert focused_is(page, 'button[data-action="next"]')
    page.keyboard.press("Enter")
    wait_step(page, "end")

    link = page.get_attribute('a[data-action="play-these-rules"]', "href")
    assert link == f"/{lang}/play/?preset=basic"
    assert page.get_attribute("#tutor .stars", "data-stars") == "3"
    assert page_problems(page) == []


@pytest.mark.parametrize(("lang", "locale"), [("zh-hans", "zh-CN"), ("ja", "ja-JP")])
def test_a_puzzle_by_keyboard(tutor_server: Any, new_page: Any, lang: str, locale: str) -> None:
    page = new_page(locale=locale)
    page.goto(f"{tutor_server.url}/{lang}/learn/")
    press_on(page, f'a[data-puzzle="{PUZZLE}"]')
    wait_step(page, "0", swapped=False)

    # A move that does not force the win is refused, with the line that beats it.
    press_on(page, f'button[data-card="{PUZZLE_REFUSED}"]', " ")
    press_on(page, 'button[data-action="play"]')
    wait_for(page, '#tutor-feedback [data-feedback="wrong"] .tutor-feedback__details li')
    assert page.locator("#tutor .tutor-line").count() == 0  # nothing was played

    for cards in PUZZLE_LINE:
        for card in cards:
            press_on(page, f'button[data-card="{card}"]', " ")
        press_on(page, 'button[data-action="play"]')
        move = f'.tutor-feedback__move [data-card="{cards[0]}"]'
        wait_for(page, f'#tutor-feedback [data-feedback="right"] {move}')
    wait_done(page)
    assert focused_is(page, 'button[data-action="next"]')
    page.keyboard.press("Enter")
    wait_step(page, "end")
    assert page_problems(page) == []


def test_answering_without_javascript(tutor_server: Any, new_page: Any) -> None:
    page = new_page(locale="ja-JP", java_script_enabled=False)
    page.goto(f"{tutor_server.url}/ja/learn/{LESSON}/?step=2")
    # No JavaScript: the cards are checkboxes and the forms post to the server.
    assert not page.is_visible('button[data-card="DK"]')
    page.check('input[name="card"][value="DK"]')
    page.click('button[data-action="play"]')
    page.wait_for_selector('#tutor-feedback [data-feedback="right"]')
    assert "♦Kは♥9より強い。" in page.inner_text("#tutor-feedback")
    page.click('button[data-action="next"]')
    wait_step(page, "3", swapped=False)
    assert page_problems(page) == []
