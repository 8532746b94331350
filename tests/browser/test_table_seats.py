"""Every table size on the oblique (3D) view, in a real browser: a round played at 2 (the
1v1), 3, 5 and 6 seats (6 at a phone's and a laptop's size), and all along it every seat's
name plate is visible, inside the stage, clear of every other plate and of the hand fanned
on the near side; the page is never wider than the screen; no console error."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SETTLED, DaphneServer, page_problems

ROUND_TIMEOUT = 150.0
# Boxes may touch (sub-pixel rounding of the 3D projection), not overlap.
SLACK = 1.0

MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; };
  const fan = document.querySelector('[data-hand-fan]');
  return {
    stage: box(document.querySelector('[data-table-stage]')),
    fan: fan && fan.children.length ? box(fan) : null,
    plates: Array.from(document.querySelectorAll('#seats .seat')).map((s) => ({
      seat: s.dataset.seat, side: s.dataset.side, box: box(s.querySelector('.seat__plate')),
      name: s.querySelector('.seat__name').textContent,
      nameLines: Math.round(s.querySelector('.seat__name').getBoundingClientRect().height
        / parseFloat(getComputedStyle(s.querySelector('.seat__name')).lineHeight)),
    })),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["l"] < b["r"] - SLACK
        and b["l"] < a["r"] - SLACK
        and a["t"] < b["b"] - SLACK
        and b["t"] < a["b"] - SLACK
    )


def check_layout(page: Any, players: int) -> None:
    plates = page.locator("#seats .seat__plate")
    expect(plates).to_have_count(players)
    for i in range(players):
        expect(plates.nth(i)).to_be_visible()
    # Measured at rest: a push may have started the felt's refit (a 0.25 s transform
    # transition that carries every plate) or a card's animation; the layout is judged
    # once they are over, not half way through.
    page.evaluate(SETTLED)
    m = page.evaluate(MEASURE)
    assert m["scrollWidth"] <= m["innerWidth"], "the page is wider than the screen"
    stage = m["stage"]
    for p in m["plates"]:
        b = p["box"]
        assert b["w"] > 0 and b["h"] > 0, p
        inside = (
            b["l"] >= stage["l"] - SLACK
            and b["r"] <= stage["r"] + SLACK
            and b["t"] >= stage["t"] - SLACK
            and b["b"] <= stage["b"] + SLACK
        )
        assert inside, f"plate of seat {p['seat']} ({p['side']}) leaves the stage: {b} {stage}"
        # A plate squeezed against the edge breaks its name over lines: not readable.
        assert p["nameLines"] == 1, f"the name on the plate of seat {p['seat']} wraps: {p}"
        if m["fan"]:
            assert not overlap(b, m["fan"]), f"plate of seat {p['seat']} covers the hand"
    for i, p in enumerate(m["plates"]):
        for q in m["plates"][i + 1 :]:
            assert not overlap(p["box"], q["box"]), f"plates overlap: {p}, {q}"
    sides = sorted(p["side"] for p in m["plates"])
    assert sides.count("near") == 1


def press_keys(page: Any, codes: list[str]) -> None:
    keys = page.locator("#hand .cards__item").evaluate_all(
        "items => Object.fromEntries(items.map(i =>"
        " [i.querySelector('button[data-card]').dataset.card, i.dataset.key]))"
    )
    page.locator("main").focus()
    for code in codes:
        page.keyboard.press(keys[code])


def play_round_checking(page: Any, players: int) -> int:
    """Play (keyboard shortcuts) until the round's result shows, checking the layout at
    every move of ours; returns how many times it was checked."""
    deadline = time.monotonic() + ROUND_TIMEOUT
    acted_at: str | None = None
    checks = 0
    while time.monotonic() < deadline:
        if page.locator('[data-testid="round-result"]').count():
            return checks
        version = page.locator("#table-version").get_attribute("data-version")
        hand = page.locator('[data-testid="hand"]')
        if version != acted_at and hand.get_attribute("data-your-turn") == "true":
            check_layout(page, players)
            checks += 1
            legal = json.loads(hand.get_attribute("data-legal") or "[]")
            if legal:
                press_keys(page, legal[0]["cards"])
                expect(page.locator('[data-action="play"]')).to_be_enabled()
                page.keyboard.press("Enter")
            else:
                page.keyboard.press("p")
            acted_at = version
        page.wait_for_timeout(100)
    pytest.fail("the round did not end in time")


@pytest.mark.parametrize(
    ("lang", "locale", "table", "preset", "width", "height"),
    [
        ("ja", "ja-JP", "1v1", "standard", 390, 844),
        ("zh-hans", "zh-CN", "3", "basic", 390, 844),
        ("ja", "ja-JP", "5", "basic", 1280, 800),
        ("ja", "ja-JP", "6", "basic", 390, 844),
        ("zh-hans", "zh-CN", "6", "basic", 1280, 800),
        ("ja", "ja-JP", "5", "basic", 320, 700),
    ],
    ids=["2-phone-ja", "3-phone-zh", "5-laptop-ja", "6-phone-ja", "6-laptop-zh", "5-320px-ja"],
)
def test_every_seat_is_placed_clear_around_the_table(
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    table: str,
    preset: str,
    width: int,
    height: int,
) -> None:
    players = 2 if table == "1v1" else int(table)
    page = new_page(locale=locale, viewport={"width": width, "height": height})
    page.goto(f"{daphne_server.url}/{lang}/play/")
    page.locator('select[name="table"]').select_option(table)
    page.locator('select[name="preset"]').select_option(preset)
    page.locator('select[name="speed"]').select_option("300")
    page.locator('[data-action="start"]').click()
    page.wait_for_selector("[data-hand-fan] [data-fan-card]")
    expect(page.locator("[data-table-stage]")).to_have_attribute("data-table-view", "oblique")
    expect(page.locator("#seats")).to_have_attribute("data-players", str(players))
    check_layout(page, players)
    assert play_round_checking(page, players) >= 1
    check_layout(page, players)  # the places written on the plates
    assert page_problems(page) == []
