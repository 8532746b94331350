"""Issue 38, section 3, rooms, in a real browser (compact: one page each): the link's
share button at phone size, the countdown before the next round with the absent person's
seat marked, and named hotseat people (a name that looks like markup stays text)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import COUNT_FRAMES, FIRST_FRAME, SETTLED, DaphneServer, page_problems

# The share sheet of a phone, stubbed: it records what it was given.
SHARE_STUB = """
window.__shared = [];
navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
"""
# A device whose clock is an hour fast: the countdown must not care.
FAST_CLOCK = """
(() => { const real = Date.now; Date.now = () => real() + 3600 * 1000; })();
"""


def _create_room(page: Any, base: str, lang: str) -> str:
    page.goto(f"{base}/{lang}/play/")
    page.locator('[data-action="create-room"]').click()
    page.wait_for_url(re.compile(r"/play/room/[^/]+/$"))
    return str(page.url)


def test_the_room_link_is_copied_or_shared_at_phone_size(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    # A desktop browser with a share sheet (as Chrome on Windows has) copies the link.
    page = new_page(locale="ja-JP", viewport={"width": 390, "height": 844})
    page.add_init_script(SHARE_STUB)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    url = _create_room(page, daphne_server.url, "ja")
    button = page.locator('[data-action="share"]')
    expect(button).to_have_text("リンクをコピー")
    button.click()
    expect(page.locator('[data-testid="share-status"]')).to_have_text("リンクをコピーしました。")
    assert page.evaluate("navigator.clipboard.readText()") == url
    assert page.evaluate("window.__shared") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page_problems(page) == []

    # A phone with a share sheet: the same button shares the link.
    sharer = new_page(locale="zh-CN", **phone)
    sharer.add_init_script(SHARE_STUB)
    sharer.goto(url.replace("/ja/", "/zh-hans/"))
    button = sharer.locator('[data-action="share"]')
    expect(button).to_have_text("分享链接")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    button.click()
    shared = sharer.evaluate("window.__shared")
    assert len(shared) == 1 and shared[0]["url"] == url.replace("/ja/", "/zh-hans/")
    assert page_problems(sharer) == []


def test_the_next_round_counts_down_and_the_absent_persons_seat_says_so(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    out = daphne_server.manage(
        "shell",
        "-c",
        "import json; from tests.daifugo_site.rooms.test_lived_rooms import "
        "round_end_with_an_absent_seat as make; print(json.dumps(make()))",
    )
    made = json.loads(out.stdout.strip().splitlines()[-1])
    page = new_page(locale="ja-JP", viewport={"width": 390, "height": 844}, is_mobile=True)
    page.add_init_script(FAST_CLOCK)
    # The countdown's box is read once the socket's first frame (the table and the panel,
    # swapped in over the page's own) has come.
    page.add_init_script(COUNT_FRAMES)
    page.context.add_cookies(
        [{"name": "sessionid", "value": made["session"], "url": daphne_server.url}]
    )
    page.goto(f"{daphne_server.url}/ja/play/{made['game']}/")
    countdown = page.locator('[data-testid="next-round-countdown"]')
    expect(countdown).to_contain_text("次の回が自動で始まるまでの秒数")
    seconds = countdown.locator("[data-seconds]")
    # Counted from the server's deadline (about 30 s after the round's last move), not
    # from the device's clock, which is an hour fast here.
    # On a phone too, where the round's result covers the bottom of the screen. (The page's
    # socket re-sends the panel once it connects: the box is read after that swap and the
    # sheet's animation, not from the element being replaced.)
    page.wait_for_function(FIRST_FRAME)
    expect(countdown).to_be_in_viewport()
    page.evaluate(SETTLED)
    box = countdown.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert countdown.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return !!document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)"
        ".closest('[data-testid=next-round-countdown]'); }"
    )
    first = int(seconds.inner_text())
    assert 20 <= first <= 30, first
    expect(seconds).not_to_have_text(str(first), timeout=3_000)
    assert 18 <= int(seconds.inner_text()) < first
    # Said once, politely (the live region), not as the number ticks.
    expect(page.locator("#room-news")).to_contain_text("次の回は")
    # The computer played seat 1 for its absent person: the seat and the log say so.
    absent = page.locator('#seats [data-seat="1"][data-seat-state="absent"]')
    expect(absent).to_have_count(1)
    expect(absent).to_contain_text("コンピューターが代行中")
    expect(page.locator('#summary [data-seat-state="absent"]')).to_have_count(1)
    expect(page.locator("#log")).to_contain_text("コンピューターがP1の代わりにプレイしました。")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page_problems(page) == []


def test_hotseat_people_are_named_at_set_up(daphne_server: DaphneServer, new_page: Any) -> None:
    page = new_page(locale="zh-CN")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{daphne_server.url}/zh-hans/play/")
    names = page.locator("[data-person-names]")
    expect(names).to_be_hidden()  # a link room asks for no names
    page.locator('select[name="table"]').select_option("3")
    page.locator('select[name="preset"]').select_option("basic")
    page.locator('select[name="mode"]').select_option("hotseat")
    page.locator('select[name="humans"]').select_option("2")
    expect(names).to_be_visible()
    expect(page.locator('[data-testid="person-name"]:visible')).to_have_count(2)
    page.locator("#room-person-1").fill("<script>x()</script>")
    page.locator("#room-person-2").fill("  美咲  ")
    page.locator('[data-action="create-room"]').click()
    curtain = page.locator('[data-testid="curtain"]')
    expect(curtain).to_be_visible(timeout=30_000)
    title = page.locator("#curtain-title").inner_text()
    assert title in ("请把设备交给<script>x()</script>", "请把设备交给美咲"), title
    summary = page.locator("#summary").inner_text()
    assert "<script>x()</script>" in summary and "美咲" in summary
    assert dialogs == []
    assert page_problems(page) == []
