"""Mined puzzles (残局题 / 詰め問題) in a real browser, by keyboard: one solved and one
failed in each language, the rating change shown after each (the shipped puzzles, loaded by
the server's load_site_content)."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine import Refusal
from tests.browser.conftest import page_problems
from tests.browser.test_tutor_browser import press_on, wait_done, wait_for, wait_step
from tutorials import engine, mined


def _simple(move: str) -> bool:
    return move != "pass" and "/" not in move and "JK" not in move


def _pick() -> tuple[dict[str, Any], dict[str, Any], str]:
    """A one-move puzzle to solve, and a puzzle with a plain losing first move."""
    records = mined.read_records()
    solve = next(r for r in records if r["length"] == 1 and _simple(r["solution"]))
    for r in records:
        if r is solve or r["length"] != 1:
            continue
        table = engine.build_table({"preset": r["preset"]}, r["table"]).round
        oracle = engine.Oracle(r["place"])
        for move in table.legal_moves():
            nxt = table.apply(move)
            assert not isinstance(nxt, Refusal)
            if _simple(str(move)) and not oracle.wins(nxt):
                return solve, r, str(move)
    raise AssertionError("no puzzle with a plain losing move")


def _play(page: Any, move: str) -> None:
    for card in move.split():
        press_on(page, f'#tutor button[data-card="{card}"]', " ")
    press_on(page, 'button[data-action="play"]')


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "locale", "word"), [("zh-hans", "zh-CN", "残局题"), ("ja", "ja-JP", "詰め問題")]
)
def test_solve_one_and_fail_one(
    daphne_server: Any, new_page: Any, lang: str, locale: str, word: str
) -> None:
    good, bad, losing = _pick()
    page = new_page(locale=locale)

    page.goto(f"{daphne_server.url}/{lang}/learn/mined-{good['id'].lower()}/")
    wait_step(page, "0", swapped=False)
    assert word in page.inner_text('[data-testid="puzzle-panel"]')
    _play(page, good["solution"])
    wait_done(page)
    wait_for(page, '[data-testid="puzzle-result"][data-solved="true"]')
    assert "→" in page.inner_text('[data-testid="puzzle-result"]')

    page.goto(f"{daphne_server.url}/{lang}/learn/mined-{bad['id'].lower()}/")
    wait_step(page, "0", swapped=False)
    _play(page, losing)
    wait_for(page, '#tutor-feedback [data-feedback="wrong"]')
    wait_for(page, '[data-testid="puzzle-result"][data-solved="false"]')

    page.goto(f"{daphne_server.url}/{lang}/learn/puzzles/dashboard/")
    history = page.inner_text('[data-testid="puzzle-history"]')
    assert good["id"] in history and bad["id"] in history
    assert page_problems(page) == []
