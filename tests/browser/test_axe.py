"""axe-core in a real browser: 0 violations (WCAG 2.1 A/AA and best practices) on every
kind of page, in both languages.

axe-core is an npm package, installed outside the repository's tracked files by
``make axe`` (``npm install --prefix .cache/axe axe-core@4``; .ci/run does it). Without it
these tests skip, saying how to install it, except where ``AXE_REQUIRED`` is set (CI sets
it): there a missing axe-core fails, so CI can never pass by skipping.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import AXE_HINT, DaphneServer, axe_script, page_problems

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
    ("play index", "play/"),
]
LANGUAGES = [("zh-hans", "zh-CN"), ("ja", "ja-JP")]


def run_axe(page: Any) -> list[dict[str, Any]]:
    """Inject axe-core into ``page`` and return its violations, trimmed for a readable
    failure message."""
    # Evaluated through the DevTools protocol, not as a <script> tag: the page's
    # Content-Security-Policy (nonces only) rightly refuses an injected inline script.
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
) -> None:
    page = new_page(locale=locale)
    response = page.goto(f"{daphne_server.url}/{lang}/{path}")
    assert response is not None and response.status == 200
    assert_no_violations(page, f"{name} ({lang})")
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
    page.goto(f"{daphne_server.url}/{lang}/play/")
    page.locator('select[name="table"]').select_option("4")
    page.locator('select[name="speed"]').select_option("300")
    page.locator('[data-action="start"]').click()
    page.wait_for_selector('[data-testid="hand"] button[data-card]')
    page.evaluate(
        "(view) => { localStorage.setItem('daifugo.table.view', view); }",
        view,
    )
    page.reload()
    page.wait_for_selector('[data-testid="hand"] button[data-card]')
    page.wait_for_selector(f'[data-table-stage][data-table-view="{view}"]')
    page.locator('[data-testid="hand"] button[data-card]').first.click()
    assert_no_violations(page, f"the game page, {view} view, {scheme} theme ({lang})")
    assert page_problems(page) == []
