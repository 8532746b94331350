"""The rules-page example box tells what the engine recorded, never a guess from two states."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from daifugo_site.pages.example_view import build

NOBODY_LEFT: dict[str, Any] = {
    "name": "a lone 8 with nobody left to answer, 8-cut off",
    "rules": {"preset": "basic", "pass_until_clear": True},
    "hands": ["S6", "C3 C4", "D3 D4", "H8 S9 SK"],
    "leader": 0,
    "steps": [{"play": "S6"}, {"pass": True}, {"pass": True}, {"play": "H8"}],
}

JBACK_ENDS: dict[str, Any] = {
    "name": "11-back ends when the field clears",
    "rules": {"preset": "basic", "jback": "groups"},
    "hands": ["SJ D3 D4", "HQ C3 C4", "H5 H6 H7"],
    "leader": 0,
    "steps": [{"play": "SJ"}, {"pass": True}, {"pass": True}],
}


def notes(scenario: dict[str, Any], language: str) -> list[list[str]]:
    with translation.override(language):
        view = build("t", "caption", scenario, {})
    return [step.notes for step in view.steps]


@pytest.mark.parametrize(
    "language, cut, nobody",
    [("zh-hans", "八切", "没有人可以接着出牌"), ("ja", "8切り", "返せる人が残っていません")],
)
def test_a_clear_with_nobody_left_is_not_an_eight_cut(language: str, cut: str, nobody: str):
    steps = notes(NOBODY_LEFT, language)
    assert not any(cut in note for step in steps for note in step), steps
    assert any(nobody in note for note in steps[-1]), steps[-1]
    # the first play went out in first place
    assert any("1" in note for note in steps[0]), steps[0]


@pytest.mark.parametrize(
    "language, start, end",
    [("zh-hans", "J反转：", "J反转随清场结束"), ("ja", "11バック：", "11バックが終わり")],
)
def test_the_example_reports_eleven_back_starting_and_ending(language: str, start: str, end: str):
    steps = notes(JBACK_ENDS, language)
    assert any(note.startswith(start) for note in steps[0]), steps[0]
    assert any(end in note for note in steps[-1]), steps[-1]


def _scenario(name: str) -> dict[str, Any]:
    import json

    from daifugo_site.pages.loader import CONTENT_DIR

    return json.loads((CONTENT_DIR / "examples" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "language, gave, refused",
    [("zh-hans", "七传：", "七传、十弃或十二炸弹"), ("ja", "7渡し：", "7渡し・10捨て・12ボンバー")],
)
def test_a_gift_is_a_step_of_its_own_told_by_the_narrator(
    language: str, gave: str, refused: str
) -> None:
    with translation.override(language):
        view = build("seven-pass", "caption", _scenario("seven-pass"), {})
    kinds = [step.kind for step in view.steps]
    assert kinds == ["play", "illegal", "choose"]
    assert refused in view.steps[1].reason  # a play while the gift is owed
    assert any(note.startswith(gave) for note in view.steps[2].notes), view.steps[2].notes


@pytest.mark.parametrize(
    "language, named, out",
    [("zh-hans", "十二炸弹：", "出完"), ("ja", "12ボンバー：", "上がりました")],
)
def test_a_named_rank_step_shows_the_ranks_and_who_went_out(
    language: str, named: str, out: str
) -> None:
    with translation.override(language):
        view = build("twelve-bomber", "caption", _scenario("twelve-bomber"), {})
    name = view.steps[-1]
    assert name.kind == "name" and name.ranks == "4"
    # the named ranks are the step's own line, not said again; the discards and the one
    # emptied hand going out are
    assert not any(note.startswith(named) for note in name.notes)
    assert len(name.notes) == 4 and any(out in note for note in name.notes), name.notes


def test_a_refused_choice_says_the_count_owed_not_the_fields() -> None:
    with translation.override("ja"):
        view = build("ten-discard", "caption", _scenario("ten-discard"), {})
    refused = next(step for step in view.steps if step.kind == "illegal_choose")
    assert refused.reason == "選ぶ枚数と違う"


def test_the_hands_a_gift_or_a_bomber_reaches_are_shown() -> None:
    with translation.override("ja"):
        gift = build("seven-pass", "caption", _scenario("seven-pass"), {})
        bomber = build("twelve-bomber", "caption", _scenario("twelve-bomber"), {})
    # the receiver of the gift; every hand that lost a 4 (seat 4 held none)
    assert [hand.who for hand in gift.hands] == ["プレイヤー1", "プレイヤー2"]
    assert [hand.who for hand in bomber.hands] == ["プレイヤー1", "プレイヤー2", "プレイヤー3"]
