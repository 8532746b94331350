"""axe-core in a real browser: 0 violations (WCAG 2.1 A/AA and best practices) on every
kind of page, in both languages: content pages, the play set-up, the game page in each
view (and at a round's end, then the next exchange), a room, a hotseat table (curtain
down and hand shown), review, the checker, the account pages, a rated game and a replay;
every page in both themes.

axe-core is an npm package, installed outside the repository's tracked files by
``make axe`` (``npm install --prefix .cache/axe axe-core@4``; .ci/run does it). Without it
these tests skip, saying how to install it, except where ``AXE_REQUIRED`` is set (CI sets
it): there a missing axe-core fails, so CI can never pass by skipping.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    AXE_HINT,
    SETTLED,
    DaphneServer,
    axe_script,
    page_problems,
    sign_up,
)
from tests.browser.test_play_browser import play_round_by_keyboard, start_practice_game
from tests.browser.test_tutor_browser import PUZZLE, PUZZLE_LINE, PUZZLE_REFUSED

# What the site promises: WCAG 2.1 A and AA, plus axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

PAGES = [
    ("home", ""),
    ("rules index", "rules/"),
    ("rules section", "rules/cards-and-strength/"),
    ("presets", "rules/presets/"),
    ("faq", "faq/"),
    ("glossary", "glossary/"),
    ("learn index", "learn/"),
    ("lesson", "learn/card-strength/"),
    ("puzzle", "learn/eight-beats-jack/"),
    ("mined puzzles", "learn/puzzles/"),
    ("mined puzzle", "learn/mined-1-00001/"),
    ("puzzle dashboard", "learn/puzzles/dashboard/"),
    ("play index", "play/"),
    ("rated index", "rated/"),
    ("leaderboard", "rated/leaderboard/"),
    ("checker", "review/checker/"),
    ("statistics", "accounts/statistics/"),
    ("log in", "accounts/login/"),
    ("sign up", "accounts/signup/"),
    ("password reset", "accounts/password/reset/"),
]
SCHEMES = ["light", "dark"]
PASSWORD = "a long pass phrase 7"
LANGUAGES = [("zh-hans", "zh-CN"), ("ja", "ja-JP")]


def run_axe(page: Any) -> list[dict[str, Any]]:
    """Inject axe-core into ``page`` and return its violations, trimmed for a readable
    failure message."""
    # Evaluated through the DevTools protocol, not as a <script> tag: the page's
    # Content-Security-Policy (nonces only) rightly refuses an injected inline script.
    page.evaluate(SETTLED)
    page.evaluate(axe_script())
    result = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})",
        AXE_TAGS,
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [
                (n["target"], n["html"][:160], n.get("failureSummary", "")[:300])
                for n in v["nodes"][:5]
            ],
        }
        for v in result["violations"]
    ]


def assert_no_violations(page: Any, what: str) -> None:
    violations = run_axe(page)
    assert violations == [], f"axe found on {what}:\n{json.dumps(violations, indent=1)}"


@pytest.fixture
def axe_ready() -> None:
    if axe_script() is None:
        pytest.skip(AXE_HINT)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
@pytest.mark.parametrize(("name", "path"), PAGES, ids=[name for name, _ in PAGES])
def test_page_has_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    name: str,
    path: str,
    lang: str,
    locale: str,
    scheme: str,
) -> None:
    """Every page in both themes: a page that draws a table (a lesson, a puzzle, a rules
    section with a worked example) takes the play page's dark theme with it."""
    page = new_page(locale=locale, color_scheme=scheme)
    response = page.goto(f"{daphne_server.url}/{lang}/{path}")
    assert response is not None and response.status == 200
    assert_no_violations(page, f"{name} ({lang}, {scheme})")
    assert page_problems(page) == []


@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
@pytest.mark.parametrize(
    ("view", "scheme"), [("oblique", "light"), ("top", "dark"), ("flat", "light")]
)
def test_game_page_has_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    view: str,
    scheme: str,
) -> None:
    """The game page, in each way of showing the table and both themes, with a card
    selected (the pressed state and the enabled Play button are part of what axe checks)."""
    page = new_page(locale=locale, color_scheme=scheme)
    start_practice_game(page, daphne_server.url, lang, "4")
    page.wait_for_selector('[data-testid="hand"] button[data-card]')
    page.evaluate(
        "(view) => { localStorage.setItem('daifugo.table.view', view); }",
        view,
    )
    page.reload()
    page.wait_for_selector('[data-testid="hand"] button[data-card]')
    page.wait_for_selector(f'[data-table-stage][data-table-view="{view}"]')
    # On the player's turn the computers wait, so nothing lands on the field while axe
    # reads the page.
    page.wait_for_selector('[data-testid="hand"][data-your-turn="true"]', timeout=30_000)
    page.locator('[data-testid="hand"] button[data-card]').first.click()
    assert_no_violations(page, f"the game page, {view} view, {scheme} theme ({lang})")
    assert page_problems(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_checker_result_has_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    scheme: str,
) -> None:
    """The rules checker with the engine's answer on the page (its example submitted)."""
    page = new_page(locale=locale, color_scheme=scheme)
    page.goto(f"{daphne_server.url}/{lang}/review/checker/")
    page.locator("main form [type=submit]").first.click()
    page.wait_for_load_state()
    assert "s=" in page.url or page.url.endswith("/checker/")
    assert_no_violations(page, f"the checker's result ({lang}, {scheme})")
    assert page_problems(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_room_hotseat_and_review_pages_have_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    scheme: str,
) -> None:
    """A room's page (seats and link), a hotseat table with its curtain down and then with
    the hand shown, and the review page of a practice game."""
    base = daphne_server.url
    page = new_page(locale=locale, color_scheme=scheme)
    page.goto(f"{base}/{lang}/play/")
    page.locator('select[name="table"]').select_option("1v1")
    page.locator("#room-nickname").fill("Aki")
    page.locator('[data-action="create-room"]').click()
    expect(page.locator('[data-testid="room-link"]')).to_be_visible()
    assert_no_violations(page, f"a room's page ({lang}, {scheme})")

    page.goto(f"{base}/{lang}/play/")
    page.locator('select[name="table"]').select_option("1v1")
    page.locator('select[name="mode"]').select_option("hotseat")
    page.locator('select[name="humans"]').select_option("2")
    page.locator('[data-action="create-room"]').click()
    expect(page.locator('[data-testid="curtain"]')).to_be_visible()
    assert_no_violations(page, f"the hotseat curtain ({lang}, {scheme})")
    page.locator('[data-action="reveal"]').click()
    expect(page.locator("#hand button[data-card]").first).to_be_visible()
    assert_no_violations(page, f"a hotseat table, hand shown ({lang}, {scheme})")

    page.goto(f"{base}/{lang}/play/")
    page.locator('select[name="table"]').select_option("1v1")
    page.locator('[data-action="start"]').click()
    page.wait_for_selector("#hand button[data-card]")
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    response = page.goto(f"{base}/{lang}/review/game/{game_id}/")
    assert response is not None and response.status == 200
    assert_no_violations(page, f"the review page ({lang}, {scheme})")
    assert page_problems(page) == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_profile_rated_and_replay_pages_have_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    scheme: str,
) -> None:
    """A new account's profile, a rated game (playing, then resigned), the profile with the
    game listed and its replay."""
    base = daphne_server.url
    pages = [new_page(locale=locale, color_scheme=scheme) for _ in range(2)]
    for n, page in enumerate(pages):
        sign_up(page, daphne_server, lang, f"axe-{lang}-{scheme}-{n}@example.com", PASSWORD)
    assert_no_violations(pages[0], f"a new profile ({lang}, {scheme})")
    for page in pages:
        page.goto(f"{base}/{lang}/rated/")
        page.locator('[data-action="queue"]').click()
    for page in pages:
        expect(page).to_have_url(re.compile(rf"/{lang}/rated/[A-Za-z0-9_-]+/$"), timeout=15_000)
    player = pages[0]
    expect(player.locator('.table[data-synced="true"]')).to_be_attached()
    expect(player.locator("#hand button[data-card]").first).to_be_visible()
    assert_no_violations(player, f"a rated game ({lang}, {scheme})")
    player.locator('[data-action="resign"]').click()
    player.locator('[data-action="resign-confirm"]').click()
    expect(player.locator('[data-testid="rated-result"]')).to_be_visible()
    assert_no_violations(player, f"a rated game, resigned ({lang}, {scheme})")
    player.goto(f"{base}/{lang}/accounts/profile/")
    assert_no_violations(player, f"a profile with a game ({lang}, {scheme})")
    player.locator('[data-testid="recent-games"] a').first.click()
    expect(player.locator('[data-testid="replay"]')).to_be_visible()
    assert_no_violations(player, f"a replay ({lang}, {scheme})")
    assert page_problems(pages[0]) == [] and page_problems(pages[1]) == []


@pytest.mark.parametrize(
    ("lang", "locale", "view", "scheme"),
    [("zh-hans", "zh-CN", "oblique", "light"), ("ja", "ja-JP", "flat", "dark")],
)
def test_a_finished_round_has_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    view: str,
    scheme: str,
) -> None:
    """The game page once a round is over: every seat has gone out, so the seats' plates
    show their places in the look of a finished seat (at reduced opacity, their grey text
    fell below 4.5:1), and the round's result is on the page; then the next round's
    exchange."""
    page = new_page(locale=locale, color_scheme=scheme)
    # The view is stored before any page of the site loads (table.js reads it at load).
    page.add_init_script(f"localStorage.setItem('daifugo.table.view', '{view}');")
    start_practice_game(page, daphne_server.url, lang, "4", rounds="3")
    page.wait_for_selector(f'[data-table-stage][data-table-view="{view}"]')
    play_round_by_keyboard(page)
    expect(page.locator('[data-testid="round-result"]')).to_be_visible()
    assert page.locator(".seat--out").count() >= 3
    assert_no_violations(page, f"a finished round, {view} view, {scheme} theme ({lang})")
    # The next round opens with the exchange (at four seats every seat takes part): the
    # cards given and received, or the choice still owed.
    page.locator('[data-action="next"]').click()
    expect(page.locator('[data-testid="exchange"]')).to_be_visible(timeout=30_000)
    # Read it once nothing more is coming: the player owes a choice, or the exchange is over
    # and it is the player's turn (the computers wait). Before that, the cards still to
    # arrive would be read mid-flight, fading in (a contrast axe rightly measures).
    page.wait_for_function(
        """() => document.querySelector('[data-testid="exchange"]').dataset.owe !== '0'
          || document.querySelector('[data-testid="hand"]').dataset.yourTurn === 'true'""",
        timeout=30_000,
    )
    expect(page.locator('[data-testid="exchange"] [data-card]').first).to_be_visible()
    assert_no_violations(page, f"the exchange, {view} view, {scheme} theme ({lang})")
    assert page_problems(page) == []


@pytest.mark.parametrize(
    ("lang", "locale", "scheme"), [("zh-hans", "zh-CN", "light"), ("ja", "ja-JP", "dark")]
)
def test_a_hint_the_match_over_and_its_review_have_no_axe_violations(
    axe_ready: None,
    daphne_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    scheme: str,
) -> None:
    """A practice game with a hint shown, the same game once the match is over, and the
    finished review of it (its mistakes listed)."""
    page = new_page(locale=locale, color_scheme=scheme)
    start_practice_game(page, daphne_server.url, lang, "1v1")
    expect(page.locator('[data-testid="hand"]')).to_have_attribute(
        "data-your-turn", "true", timeout=20_000
    )
    page.locator('[data-action="hint"]').click()
    expect(page.locator('[data-testid="hint"] .hint-box__suggestion')).not_to_be_empty(
        timeout=20_000
    )
    assert_no_violations(page, f"a hint ({lang}, {scheme})")
    play_round_by_keyboard(page)
    expect(page.locator('[data-testid="match-over"]')).to_be_visible()
    assert_no_violations(page, f"the match over ({lang}, {scheme})")
    page.locator('a[data-action="review"]').click()
    page.locator('button[data-action="review"]').click()
    expect(page.locator('[data-testid="review"]')).to_be_visible(timeout=60_000)
    assert_no_violations(page, f"a finished review ({lang}, {scheme})")
    assert page_problems(page) == []


@pytest.mark.parametrize(
    ("lang", "locale", "scheme"), [("zh-hans", "zh-CN", "light"), ("ja", "ja-JP", "dark")]
)
def test_a_puzzle_answered_has_no_axe_violations(
    axe_ready: None,
    tutor_server: DaphneServer,
    new_page: Any,
    lang: str,
    locale: str,
    scheme: str,
) -> None:
    """A puzzle after a refused answer (the line that beats it shown), then solved."""
    page = new_page(locale=locale, color_scheme=scheme)
    page.goto(f"{tutor_server.url}/{lang}/learn/{PUZZLE}/")
    page.locator(f'#tutor button[data-card="{PUZZLE_REFUSED}"]').click()
    page.locator('#tutor button[data-action="play"]').click()
    page.wait_for_selector('#tutor-feedback [data-feedback="wrong"] .tutor-feedback__details li')
    assert_no_violations(page, f"a refused answer ({lang}, {scheme})")
    for cards in PUZZLE_LINE:
        for card in cards:
            page.locator(f'#tutor button[data-card="{card}"]').click()
        page.locator('#tutor button[data-action="play"]').click()
        move = f'.tutor-feedback__move [data-card="{cards[0]}"]'
        page.wait_for_selector(f'#tutor-feedback [data-feedback="right"] {move}')
    page.wait_for_selector('#tutor section[data-done="true"]')
    assert_no_violations(page, f"a solved puzzle ({lang}, {scheme})")
    assert page_problems(page) == []
