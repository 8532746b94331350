"""The table's sounds and quick messages in real browsers (issue 38, section 3), kept to
one short room in ja: the sound switch is on by default, remembered, and nothing is
played before the person's first gesture; a quick message from one person shows on their
seat in the other browser and in its log, and the other's switch hides it."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, page_problems
from tests.browser.test_rooms_browser import act

SWITCH = '[data-testid="sound-switch"]'
SOUNDS = "[data-sounds]"


def _room(daphne_server: DaphneServer, new_page: Any) -> tuple[Any, Any]:
    host = new_page(locale="ja-JP")
    host.goto(f"{daphne_server.url}/ja/play/")
    host.locator('select[name="table"]').select_option("1v1")
    host.locator("#room-nickname").fill("Aki")
    host.locator('[data-action="create-room"]').click()
    url = host.locator('[data-testid="room-link"]').get_attribute("href")
    guest = new_page(locale="ja-JP")
    guest.goto(url)
    guest.locator("#room-name").fill("Bo")
    guest.locator('[data-testid="room-seats"] [data-action="take-seat"][data-seat="1"]').click()
    expect(guest.locator('[data-testid="room-seats"] [data-seat="1"]')).to_contain_text("Bo")
    host.reload()
    host.locator('[data-action="start-room"]').click()
    expect(host.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    guest.wait_for_url("**/play/*/", timeout=15000)
    expect(guest.locator('[data-testid="hand"] button[data-card]').first).to_be_visible()
    return host, guest


def _one_move(page: Any) -> None:
    """``page``'s person plays (or passes) once, by the keyboard (and only that page acts:
    the other page's keys would be a gesture there)."""
    acted: dict[int, str | None] = {}
    deadline = time.monotonic() + 15
    while not acted and time.monotonic() < deadline:
        act(page, acted, 0)
        page.wait_for_timeout(100)
    assert acted, "the page could not move"


def test_sound_switch_and_a_quick_message_between_two_browsers(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    host, guest = _room(daphne_server, new_page)
    # Both table pages came by navigation: no gesture on either yet.
    for page in (host, guest):
        expect(page.locator(SWITCH)).to_be_checked()
        expect(page.locator(SWITCH)).to_have_accessible_name("効果音")
    turn = '[data-testid="hand"][data-your-turn="true"]'
    deadline = time.monotonic() + 10
    while not (host.locator(turn).count() or guest.locator(turn).count()):
        assert time.monotonic() < deadline, "nobody's turn"
        host.wait_for_timeout(100)
    mover, waiter = (host, guest) if host.locator(turn).count() else (guest, host)
    before = waiter.locator("#table-version").get_attribute("data-version") or ""
    _one_move(mover)  # the mover's keys are its gesture; the waiter made none
    expect(waiter.locator("#table-version")).not_to_have_attribute("data-version", before)
    expect(mover.locator("#table-version")).not_to_have_attribute("data-version", before)
    # The mover's push named its sounds (its move, and nothing more in a 1v1): played.
    cues = (mover.locator("#table-version").get_attribute("data-cues") or "").split()
    assert cues and cues[-1] == "play"
    expect(mover.locator(SOUNDS)).to_have_attribute("data-last-cue", cues[0])
    # The file came through the static pipeline and the browser played it.
    expect(mover.locator(SOUNDS)).to_have_attribute("data-played", cues[0])
    # The waiter's push named "your turn", but no sound before a gesture on that page.
    assert "turn" in (waiter.locator("#table-version").get_attribute("data-cues") or "")
    waiter.wait_for_timeout(200)
    assert waiter.locator(SOUNDS).get_attribute("data-last-cue") is None

    # Off, and still off after a reload (remembered in this browser).
    host.locator(SWITCH).uncheck()
    host.reload()
    expect(host.locator(SWITCH)).not_to_be_checked()
    host.locator(SWITCH).check()

    # A quick message: the host says hello; the guest sees it on the host's seat plate
    # and in the log, marked as a message, and it is announced.
    picker = host.locator('[data-testid="quick-messages"]')
    expect(picker.get_by_role("button", name="こんにちは！")).to_be_visible()
    picker.get_by_role("button", name="こんにちは！").click()
    said = guest.locator('#seats .seat[data-seat="0"] [data-testid="seat-said"]')
    expect(said).to_have_text("こんにちは！")
    expect(guest.locator("#log-list .log__item--message")).to_contain_text("Aki：「こんにちは！」")
    expect(guest.locator("[data-quick-live]")).to_have_text("Aki：「こんにちは！」")
    # Sent too soon after: refused, and told so in the host's language.
    picker.get_by_role("button", name="ありがとうございます！").click()
    expect(host.locator("#play-error")).to_contain_text("数秒")

    # The guest's switch hides others' messages and its own picker (remembered).
    guest.locator('[data-testid="quick-switch"]').uncheck()
    expect(guest.locator("#log-list .log__item--message")).to_be_hidden()
    expect(guest.locator("[data-quick-picker]")).to_be_hidden()
    guest.reload()
    expect(guest.locator('[data-testid="quick-switch"]')).not_to_be_checked()
    expect(guest.locator("[data-quick-picker]")).to_be_hidden()
    assert page_problems(host) == [] and page_problems(guest) == []
