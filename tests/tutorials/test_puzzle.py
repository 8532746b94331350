"""Puzzles: the learner plays the line out against a defence the solver picks; a move that
does not force the goal is refused with a line that shows why."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tests.html import find_all, find_one
from tests.tutorials.conftest import PUZZLE
from tests.tutorials.helpers import act, current, feedback_text, lesson_url, step_state
from tutorials import engine

pytestmark = pytest.mark.usefixtures("loaded")

RULES = {"preset": "basic", "jokers": 0}
TABLE = {"hands": ["D5 C5 S9 H2", "H9 D9 SQ", "S5 H7 ST"], "leader": 0}


def t(text: str, lang: str = "zh-hans") -> str:
    with translation.override(lang):
        return str(translation.gettext(text))


def test_the_defence_is_deterministic_and_strongest() -> None:
    r = engine.build_table(RULES, TABLE).round.apply("S9")
    oracle = engine.Oracle(place=0)
    assert str(oracle.defence(r)) == "SQ"  # the queen leaves the 2 as your only winner
    assert str(engine.Oracle(place=0).defence(r)) == "SQ"


def test_solving_the_puzzle_move_by_move(client: Client) -> None:
    html = client.get(lesson_url(PUZZLE)).content.decode()
    # Every hand is face up in a puzzle.
    seat1 = find_one(html, "li", data_seat="1")
    assert "1号玩家" in seat1.text
    assert [e.get("data-card") for e in find_all(str_of(html, 'data-seat="1"'), "span")
            if e.get("data-card")] == ["H9", "D9", "SQ"]  # fmt: skip
    html = act(client, PUZZLE, "answer", card=["S9"]).content.decode()
    state = step_state(client, PUZZLE, 0)
    assert state["line"] == [
        {"play": "S9", "by": 0},
        {"play": "SQ", "by": 1},
        {"pass": True, "by": 2},
    ]
    text = feedback_text(html)
    assert "这手出得好。其他人这样应对：" in text
    assert "1号玩家出了黑桃 Q。" in text
    assert t("%(name)s passed.") % {"name": "2号玩家"} in text  # a sentence shared with play
    assert not state.get("done")
    act(client, PUZZLE, "answer", card=["H2"])
    assert len(step_state(client, PUZZLE, 0)["line"]) == 6  # 2, then both pass; you lead
    html = act(client, PUZZLE, "answer", card=["D5", "C5"]).content.decode()
    assert step_state(client, PUZZLE, 0)["done"]
    assert "先出♠9引出♠Q" in feedback_text(html)
    act(client, PUZZLE, "next")
    assert current(client, PUZZLE).completed


def test_a_losing_move_is_refused_with_the_line_that_beats_it(client: Client) -> None:
    client.get(lesson_url(PUZZLE))
    html = act(client, PUZZLE, "answer", card=["D5", "C5"]).content.decode()
    state = step_state(client, PUZZLE, 0)
    assert "line" not in state and state["tries"] == 1  # nothing was played
    assert state["feedback"]["line"][0] == [1, "H9 D9", None]
    assert state["feedback"]["line"][-1] == [1, "SQ", 1]  # player 1 goes out first
    text = feedback_text(html)
    assert "目标是：不管别人怎么出，都要第一个出完。" in text
    assert "1号玩家出完，第1名。" in text


def test_a_refused_move_gets_the_engine_reason(client: Client) -> None:
    client.get(lesson_url(PUZZLE))
    html = act(client, PUZZLE, "answer", card=["S9", "H2"]).content.decode()
    from daifugo_site.ui.reasons import reason_text

    with translation.override("zh-hans"):
        assert reason_text("not_a_combination") in feedback_text(html)


def test_retry_starts_the_puzzle_again(client: Client) -> None:
    client.get(lesson_url(PUZZLE))
    act(client, PUZZLE, "answer", card=["S9"])
    act(client, PUZZLE, "retry")
    assert "line" not in step_state(client, PUZZLE, 0)
    html = client.get(lesson_url(PUZZLE)).content.decode()
    assert find_all(html, "button", data_card="S9")


def test_solution_shows_the_winning_move_of_the_current_position(client: Client) -> None:
    client.get(lesson_url(PUZZLE))
    act(client, PUZZLE, "answer", card=["S9"])
    act(client, PUZZLE, "answer", card=["D5"])
    act(client, PUZZLE, "answer", card=["D5"])
    html = act(client, PUZZLE, "solution").content.decode()
    shown = [e.get("data-move") for e in find_all(html, "li") if e.get("data-move")]
    assert shown == ["H2"]


def test_puzzle_feedback_in_japanese(client: Client) -> None:
    client.get(lesson_url(PUZZLE, "ja"))
    html = act(client, PUZZLE, "answer", lang="ja", card=["H2"]).content.decode()
    text = feedback_text(html)
    assert "目標は、ほかの人がどう出しても一番に上がることです。" in text
    assert "プレイヤー1はパス。" in text
    assert "プレイヤー1がハートの9、ダイヤの9を出す。 プレイヤー1が1位で上がり。" in text


def str_of(html: str, marker: str) -> str:
    """The HTML of the element whose start tag holds ``marker`` (up to its </li>)."""
    start = html.index(marker)
    return html[start : html.index("</li>", start)]
