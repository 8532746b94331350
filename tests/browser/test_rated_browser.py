"""Two browsers sign up, queue for a rated game, are paired, play a move, one resigns; both
see the result, and both ratings have changed."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import DaphneServer, page_problems
from tests.browser.conftest import sign_up as conftest_sign_up

PASSWORD = "a long pass phrase 7"


def sign_up(page: Any, server: DaphneServer, email: str) -> None:
    conftest_sign_up(page, server, "zh-hans", email, PASSWORD)
    expect(page.locator('[data-testid="rating"]')).to_contain_text("1500")


def test_two_browsers_play_a_rated_game(daphne_server: DaphneServer, new_page: Any) -> None:
    url = daphne_server.url
    pages = [new_page(locale="zh-CN"), new_page(locale="ja-JP")]
    for n, page in enumerate(pages):
        sign_up(page, daphne_server, f"player{n}@example.com")
    pages[0].goto(f"{url}/zh-hans/rated/")
    pages[0].locator('[data-action="queue"]').click()
    expect(pages[0].locator('[data-action="leave-queue"]')).to_be_visible()
    expect(pages[0].locator('[data-testid="queue-status"]')).to_be_visible()
    # The second player is paired at once (same rating): both pages open the game.
    pages[1].goto(f"{url}/zh-hans/rated/")
    pages[1].locator('[data-action="queue"]').click()
    game_url = re.compile(r"/zh-hans/rated/[A-Za-z0-9_-]+/$")
    for page in pages:
        expect(page).to_have_url(game_url, timeout=15_000)
    assert pages[0].url == pages[1].url
    for page in pages:
        expect(page.locator('.table[data-synced="true"]')).to_be_attached()
        expect(page.locator('[data-testid="clock"] [data-seconds]')).to_be_visible()
        expect(page.locator("#hand button[data-card]")).to_have_count(13)
    # Whoever leads plays the first legal move with the mouse.
    leader = next(p for p in pages if p.locator("#hand").get_attribute("data-your-turn") == "true")
    other = pages[1 - pages.index(leader)]
    legal = json.loads(leader.locator("#hand").get_attribute("data-legal") or "[]")
    for code in legal[0]["cards"]:
        leader.locator(f'#hand button[data-card="{code}"]').click()
    leader.locator('[data-action="play"]').click()
    expect(other.locator("#hand")).to_have_attribute("data-your-turn", "true")
    expect(other.locator('[data-testid="field"] [data-card]').first).to_be_visible()
    other.locator('[data-action="resign"]').click()
    other.locator('[data-action="resign-confirm"]').click()
    expect(leader.locator('[data-testid="rated-result"]')).to_contain_text("你赢了")
    expect(other.locator('[data-testid="rated-result"]')).to_contain_text("你输了")
    for page in pages:
        page.goto(f"{url}/zh-hans/accounts/profile/")
        expect(page.locator('[data-testid="rating"]')).not_to_contain_text("1500 ±")
        page.locator('[data-testid="recent-games"] a').first.click()
        expect(page.locator('[data-testid="replay"]')).to_be_visible()
        page.locator('[data-action="replay-next"]').click()
        page.keyboard.press("ArrowRight")
        assert page_problems(page) == []


def take_turn(page: Any) -> None:
    """The page whose turn it is plays its first legal move (with the mouse), or passes."""
    legal = json.loads(page.locator("#hand").get_attribute("data-legal") or "[]")
    if not legal:
        page.locator('[data-action="pass"]').click()
        return
    move = next((m for m in legal if not m["ambiguous"]), legal[0])
    for code in move["cards"]:
        page.locator(f'#hand button[data-card="{code}"]').click()
    if move["ambiguous"]:
        page.locator(f'input[name="shape"][value="{move["form"]}"]').check()
    page.locator('[data-action="play"]').click()


def rating_numbers(page: Any) -> list[int]:
    text = page.locator('[data-testid="rating"]').inner_text()
    return [int(n) for n in re.findall(r"\d+", text)]


def test_two_browsers_play_a_rated_game_to_the_end(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    from daifugo_site.ratings import rate_1v1

    url = daphne_server.url
    pages = [new_page(locale="zh-CN"), new_page(locale="zh-CN")]
    for n, page in enumerate(pages):
        sign_up(page, daphne_server, f"whole{n}@example.com")
        page.goto(f"{url}/zh-hans/rated/")
        page.locator('[data-action="queue"]').click()
    game_url = re.compile(r"/zh-hans/rated/[A-Za-z0-9_-]+/$")
    for page in pages:
        expect(page).to_have_url(game_url, timeout=15_000)
        expect(page.locator('.table[data-synced="true"]')).to_be_attached()
        # Both reserves on both pages, whole at the start.
        expect(page.locator('[data-reserve="mine"] [data-reserve-seconds]')).to_have_text("60")
        expect(page.locator('[data-reserve="theirs"] [data-reserve-seconds]')).to_have_text("60")
    for _ in range(80):
        if pages[0].locator('[data-testid="rated-result"] h2').count():
            break
        mover = next(
            (p for p in pages if p.locator("#hand").get_attribute("data-your-turn") == "true"),
            None,
        )
        if mover is None:
            pages[0].wait_for_timeout(100)
            continue
        version = mover.locator("#table-version").get_attribute("data-version")
        take_turn(mover)
        for page in pages:
            expect(page.locator("#table-version")).not_to_have_attribute("data-version", version)
    won = [p for p in pages if "你赢了" in p.locator('[data-testid="rated-result"]').inner_text()]
    lost = [p for p in pages if "你输了" in p.locator('[data-testid="rated-result"]').inner_text()]
    assert len(won) == 1 and len(lost) == 1
    # The pages' reports reached the game's anonymous statistics: one device per seat.
    out = daphne_server.manage(
        "shell",
        "-c",
        "import json; from daifugo_site.accounts.models import SiteStat; "
        "print(json.dumps(SiteStat.objects.filter(kind='rated').latest('id').devices))",
    )
    devices = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(devices) == 2
    for device in devices:
        assert device["phone"] is False and device["browser"] == "chrome"
        assert device["memory"] in ("<2", "2", "4", "8+") and device["cores"]
    (win_mu, win_sigma), (lose_mu, lose_sigma) = rate_1v1((1500.0, 350.0), (1500.0, 350.0))
    for page, mu, sigma in ((won[0], win_mu, win_sigma), (lost[0], lose_mu, lose_sigma)):
        page.goto(f"{url}/zh-hans/accounts/profile/")
        # Rating ± deviation (provisional: 1 rated game): changed once, by the model's amount.
        assert rating_numbers(page)[:3] == [round(mu), round(sigma), 1]
        assert page_problems(page) == []
