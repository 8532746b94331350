"""Issue 38 ("Lived in"), defects only a browser shows."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SETTLED, DaphneServer, hand_state, page_problems
from tests.browser.test_play_browser import play_round_by_keyboard, start_practice_game

pytestmark = pytest.mark.browser


# Cells of the round's results whose text runs over more than one line (CJK text breaks
# between any two characters: 大富/豪, 合/計).
WRAPPED_CELLS = """() => Array.from(document.querySelectorAll(
    '[data-testid="round-result"] th, [data-testid="round-result"] td'))
  .filter((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
    return tops.size > 1;
  })
  .map((cell) => cell.textContent.trim())"""


def wait_for_my_turn(page: Any) -> list[dict[str, Any]]:
    """The legal moves once it is this page's turn with a play. A turn with nothing to play
    (the computer led higher than anything in the hand) is passed, as a player would, and
    the wait goes on: without that the test waited on a turn that could never change."""
    deadline = time.monotonic() + 60
    passed_at: str | None = None
    while time.monotonic() < deadline:
        state = hand_state(page)
        if state is not None and state.your_turn:
            if state.legal:
                return state.legal
            if state.version != passed_at:
                page.locator('[data-action="pass"]').click()
                passed_at = state.version
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
    # Item 13: at 1280 px the results table wrapped mid-word in Japanese.
    page.evaluate(SETTLED)
    assert page.evaluate(WRAPPED_CELLS) == []
    fits = page.locator('[data-testid="round-result"]').evaluate(
        "(box) => box.scrollWidth <= box.clientWidth"
    )
    assert fits, "the results table fits the panel at 1280 px"
    first_game = page.url
    again = page.locator('[data-action="again"]')
    expect(again).to_be_visible(timeout=30_000)
    again.click()
    page.wait_for_url(
        lambda url: url != first_game and re.search(r"/play/[^/]+/$", url) is not None
    )
    expect(page.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    assert page_problems(page) == []


@pytest.mark.parametrize(
    ("lang", "locale", "said"), [("ja", "ja-JP", "プリセット"), ("zh-hans", "zh-CN", "预设")]
)
def test_the_set_up_form_offers_only_what_the_preset_allows(
    daphne_server: DaphneServer, new_page: Any, lang: str, locale: str, said: str
) -> None:
    """Item 7: a table the preset is not played at used to be refused only on submit."""
    page = new_page(locale=locale)
    page.goto(f"{daphne_server.url}/{lang}/play/")
    table, preset = page.locator('select[name="table"]'), page.locator('select[name="preset"]')
    note = page.locator("[data-table-note]")
    expect(preset).to_have_value("standard")
    table.select_option("6")  # standard is for 4 (or one on one): the preset moves
    expect(preset).to_have_value("classic")
    expect(note).to_contain_text(said)
    preset.select_option("standard")  # and back: the table moves to one standard is for
    expect(table).to_have_value("4")
    preset.select_option("party")
    expect(table).to_have_value("4")
    table.select_option("1v1")
    expect(preset).to_have_value("standard")
    page.locator('[data-action="start"]').click()
    page.wait_for_url(re.compile(r"/play/[^/]+/$"))
    assert page_problems(page) == []


ROOM_FORM_LINK = "[data-testid=room-link]"


def create_room(page: Any, base: str, lang: str) -> str:
    """A friends' room made from the play page, as its creator does; its URL."""
    page.goto(f"{base}/{lang}/play/")
    page.locator('[data-action="create-room"]').click()
    page.wait_for_url(re.compile(r"/play/room/[^/]+/$"))
    return str(page.url)


@pytest.mark.parametrize(("lang", "locale"), [("ja", "ja-JP"), ("zh-hans", "zh-CN")])
def test_the_room_link_fits_a_phone_and_a_visitor_s_form_goes_at_the_start(
    daphne_server: DaphneServer, new_page: Any, lang: str, locale: str
) -> None:
    """Item 6: a room link without a hyphen made the page 513 px wide at 390. Item 11: a
    visitor who loaded the room before its start kept the nickname/seat form after it."""
    creator = new_page(locale=locale)
    room_url = create_room(creator, daphne_server.url, lang)
    visitor = new_page(locale=locale, viewport={"width": 390, "height": 844}, is_mobile=True)
    visitor.goto(room_url)
    link = visitor.locator(ROOM_FORM_LINK)
    expect(link).to_be_visible()
    # The worst case: the same length with no hyphen to break at.
    link.evaluate("(a) => { a.textContent = a.textContent.replace(/-/g, 'x') + 'x'.repeat(12); }")
    width = visitor.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page {width} px wide at 390"
    expect(visitor.locator("#room-take")).to_be_visible()
    creator.locator('[data-action="fill-and-start"]').click()
    creator.wait_for_url(re.compile(r"/play/[^/]+/$"))
    expect(visitor.locator('[data-testid="spectator"]')).to_be_visible(timeout=10_000)
    expect(visitor.locator("#room-take")).to_have_count(0)
    expect(visitor.locator("#room-name")).to_have_count(0)
    for page in (creator, visitor):
        assert page_problems(page) == []


LOOK = """() => {
  const pick = (el, names) => names.map((n) => getComputedStyle(el).getPropertyValue(n)).join("|");
  const surface = document.querySelector(".felt__surface");
  const plate = document.querySelector(".felt .seat__plate");
  const backs = document.querySelector(".felt .seat__backs");
  return [
    pick(surface, ["border-radius", "border-top-width", "box-shadow", "background-image"]),
    pick(plate, ["border-left-width"]),
    backs ? pick(backs, ["display"]) : "",
  ].join(" / ");
}"""


def test_top_view_and_flat_table_look_different(daphne_server: DaphneServer, new_page: Any) -> None:
    """Item 12: at the table's resting angle "Top view" and "Flat table" drew the same."""
    page = new_page(locale="ja-JP", viewport={"width": 1280, "height": 800})
    start_practice_game(page, daphne_server.url, "ja", "4")
    expect(page.locator(".felt .seat__plate").first).to_be_visible()
    looks = {}
    for view in ("top", "flat"):
        page.locator(f'[data-view="{view}"]').click()
        expect(page.locator("[data-table-stage]")).to_have_attribute("data-table-view", view)
        page.evaluate(SETTLED)
        looks[view] = page.evaluate(LOOK)
    assert looks["top"] != looks["flat"], looks
    assert page_problems(page) == []


def test_the_statistics_switch_saves_when_toggled(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    """Section 3: unticking the switch without pressing "Save" was silently lost."""
    page = new_page(locale="ja-JP")
    page.goto(f"{daphne_server.url}/ja/play/")
    switch = page.locator('[data-testid="stats-switch"]')
    expect(switch).to_be_checked()
    switch.uncheck()
    expect(page.locator("#stats-switch-saved")).to_have_text("設定を保存しました。")
    page.reload()
    expect(page.locator('[data-testid="stats-switch"]')).not_to_be_checked()
    assert page_problems(page) == []
