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
    assert [e.get("data-card") for e in seat1.children[-1].children[0].children] == [
        "H9",
        "D9",
        "SQ",
    ] or find_all(html, "span", data_card="SQ")
    html = act(client, PUZZLE, "answer", card=["S9"]).content.decode()
    state = step_state(client, PUZZLE, 0)
    assert state["line"] == [
        {"play": "S9", "by": 0},
        {"play": "SQ", "by": 1},
        {"pass": True, "by": 2},
    ]
    text = feedback_text(html)
    assert t("Good move. The others answer:") in text
    assert (
        t("%(name)s played %(cards)s.")
        % {"name": t("Player %(number)s") % {"number": 1}, "cards": "黑桃 Q"}
        in text
        or "SQ" in html
    )
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
    assert t("The goal is to go out first whatever the others do.") in text
    player1 = t("Player %(number)s") % {"number": 1}
    assert t("%(name)s is out, in place %(place)d.") % {"name": player1, "place": 1} in text


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
    assert t("The goal is to go out first whatever the others do.", "ja") in feedback_text(html)
    assert "プレイヤー1" in feedback_text(html) or t("Player %(number)s", "ja") != (
        "Player %(number)s"
    )
