"""One device passed around (hotseat) on a phone: at the end of a round the result comes up
as a sheet from the bottom, and Next round is at its foot, in view and in thumb reach,
without scrolling, as in a practice game (docs/phone-table.md).

Found walking a hotseat match on a phone (390×844): the result's sheet had no Next (a
hotseat page is nobody's own seat), and the room panel's Next round lay below the screen,
under the sheet; a person had to scroll to find it or wait for the round to start by
itself."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WHOLE_IN_VIEW, DaphneServer, page_problems, phone_page
from tests.browser.test_journeys import (
    NAMES,
    TOUCH,
    name_hotseat_players,
    set_up_form,
    take_my_turn,
)

pytestmark = pytest.mark.browser

ROUND_TIMEOUT = 180.0


# One screen (a whole round takes about 40 s): the hotseat journey checks the match's end in
# all four combinations (test_journeys.py).
def test_next_round_is_at_the_foot_of_the_result_on_a_phone(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    lang = "zh-hans"
    page = phone_page(new_page, "zh-CN")
    setattr(page, TOUCH, True)  # the journeys' helpers tap, as on a phone
    page.goto(f"{daphne_server.url}/{lang}/play/")
    set_up_form(page, "4", rounds="3")
    page.locator("#room-mode").select_option("hotseat")
    page.locator("#room-humans").select_option("2")
    name_hotseat_players(page, NAMES[lang])
    page.locator('[data-action="create-room"]').tap()
    page.wait_for_url(re.compile(r"/play/[^/]+/$"), timeout=15_000)

    result = page.locator('[data-testid="round-result"]')
    acted: dict[Any, Any] = {}
    deadline = time.monotonic() + ROUND_TIMEOUT
    while not result.count():
        assert time.monotonic() < deadline, "the round did not end in time"
        if not take_my_turn(page, acted, 0):
            page.wait_for_timeout(100)

    # The person has not scrolled (the helpers may have brought a control into view).
    page.evaluate("window.scrollTo(0, 0)")
    expect(result).to_be_in_viewport()
    next_round = page.locator('[data-action="next"]')
    expect(next_round).to_have_count(1)
    page.wait_for_timeout(400)  # the sheet has risen
    assert next_round.evaluate(WHOLE_IN_VIEW), "Next round is not whole in view"
    box = next_round.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    # Nothing of the result is under it: its sheet makes room at its foot.
    rows = page.locator("#results tbody tr")
    assert rows.last.evaluate(WHOLE_IN_VIEW), "the result's last row is covered"

    # A tap where it is, as a thumb does: the next round starts (its curtain comes down).
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator('[data-testid="curtain"]')).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    assert page_problems(page) == []
