"""Validation catches each kind of broken lesson, naming the lesson and the step."""

from __future__ import annotations

from typing import Any

import pytest

from tutorials.spec import read_lesson
from tutorials.validation import validate_lesson


def problems(data: dict[str, Any], **kwargs: Any) -> list[str]:
    spec, shape = read_lesson(data)
    assert shape == [], shape
    return [str(p) for p in validate_lesson(spec, **kwargs).problems]


def step(data: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(s for s in data["steps"] if s["kind"] == kind)


def test_the_fixtures_are_valid(lesson_data: dict[str, Any], puzzle_data: dict[str, Any]) -> None:
    assert problems(lesson_data) == []
    assert problems(puzzle_data) == []


def test_illegal_scripted_play(lesson_data: dict[str, Any]) -> None:
    step(lesson_data, "watch")["script"][1]["play"] = "C4"  # does not beat the 5
    (problem,) = problems(lesson_data)
    assert problem.startswith("tutor-test-basics step 2 (watch): script line 2 is not legal")
    assert "not_stronger" in problem


def test_illegal_table_play(lesson_data: dict[str, Any]) -> None:
    step(lesson_data, "play")["table"]["plays"][1] = {"play": "C4"}
    found = problems(lesson_data)
    assert any(p.startswith("tutor-test-basics step 3 (play): table: table play 2") for p in found)


def test_illegal_accepted_move(lesson_data: dict[str, Any]) -> None:
    step(lesson_data, "play")["accept"] = ["S4"]  # the 4 does not beat the 9
    (problem,) = problems(lesson_data)
    assert problem == (
        "tutor-test-basics step 3 (play): accepted move 'S4' is not legal here (not_stronger)"
    )


def test_wrong_move_that_is_illegal_or_accepted(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    play["wrong"][0]["move"] = "S4"
    assert any("wrong move 'S4' is not legal here" in p for p in problems(lesson_data))
    play["wrong"][0]["move"] = "DK"
    assert any("wrong move 'DK' is also accepted" in p for p in problems(lesson_data))


def test_goals(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    del play["accept"]
    play["wrong"] = []
    play["goal"] = "revolution"
    assert problems(lesson_data) == [
        "tutor-test-basics step 3 (play): no legal move meets the goal 'revolution'"
    ]
    play["goal"] = "any_pass"
    assert problems(lesson_data) == []
    play["goal"] = "win_the_game"
    assert "unknown goal 'win_the_game'" in problems(lesson_data)[0]
    play["accept"] = ["DK"]
    assert "give exactly one of accept or goal" in problems(lesson_data)[0]


def test_learner_must_be_to_act(lesson_data: dict[str, Any]) -> None:
    step(lesson_data, "play")["table"]["plays"] = [{"play": "D5"}]
    found = problems(lesson_data)
    assert found == [
        "tutor-test-basics step 3 (play): seat 0 (the learner) must be to act at the table "
        "state, not seat 2"
    ]


def test_wrong_quiz_answer(lesson_data: dict[str, Any]) -> None:
    step(lesson_data, "legal")["answer"] = ["pass", "S9 H9", "D6 C6"]
    (problem,) = problems(lesson_data)
    assert problem == (
        "tutor-test-basics step 5 (legal): answer differs from the engine's legal set: "
        "missing [], not legal ['D6 C6']"
    )
    step(lesson_data, "legal")["answer"] = ["S9 H9"]
    assert "missing ['pass']" in problems(lesson_data)[0]


def test_choice_checks_must_agree(lesson_data: dict[str, Any]) -> None:
    choices = step(lesson_data, "choose")["choices"]
    choices[0]["check"] = {"to_act": 0}  # marked wrong, but it holds
    choices[1]["check"] = {"to_act": 2}  # marked correct, but it fails
    found = problems(lesson_data)
    assert "choice 1 is marked wrong but its check {'to_act': 0} holds" in found[0]
    assert "choice 2 is marked correct but its check fails: to_act: expected 2, got 0" in found[1]
    assert all(p.startswith("tutor-test-basics step 4 (choose)") for p in found)


def test_unproven_puzzle(puzzle_data: dict[str, Any]) -> None:
    # Without the 2 the hero cannot win the lead back.
    puzzle_data["steps"][0]["table"]["hands"][0] = "D5 C5 S9 H3"
    puzzle_data["steps"][0]["solution"] = "S9"
    (problem,) = problems(puzzle_data)
    assert problem == (
        "tutor-test-puzzle step 1 (puzzle): not proven: seat 0 cannot force to go out first "
        "against every defence"
    )


def test_solution_that_does_not_win(puzzle_data: dict[str, Any]) -> None:
    puzzle_data["steps"][0]["solution"] = "H2"
    (problem,) = problems(puzzle_data)
    assert "solution 'H2' does not force the goal; the winning first moves are ['S9']" in problem


def test_false_unique_claim(puzzle_data: dict[str, Any]) -> None:
    puzzle_data["steps"][0]["unique"] = False
    (problem,) = problems(puzzle_data)
    assert problem.endswith("claimed not unique, but only 'S9' wins")
    # Here the 2 first wins, and so does either 5 alone: not unique.
    puzzle_data["steps"][0]["unique"] = True
    puzzle_data["steps"][0]["table"]["hands"] = ["D5 C5 H2", "H9 D9", "S5 H7"]
    puzzle_data["steps"][0]["solution"] = "H2"
    assert problems(puzzle_data) == [
        "tutor-test-puzzle step 1 (puzzle): claimed unique, but 3 first moves win: "
        "['C5', 'D5', 'H2']"
    ]


def test_puzzle_too_big_for_the_solver(puzzle_data: dict[str, Any]) -> None:
    (problem,) = problems(puzzle_data, node_limit=3)
    assert "the solver could not settle this puzzle within 3 positions" in problem


def test_puzzle_shape(puzzle_data: dict[str, Any]) -> None:
    puzzle_data["difficulty"] = 9
    puzzle_data["steps"][0]["place"] = 2
    found = problems(puzzle_data)
    assert "tutor-test-puzzle: a puzzle needs a difficulty from 1 to 5" in found
    assert "tutor-test-puzzle step 1 (puzzle): place must be a place from 0 to 1" in found


def test_missing_texts_name_the_language(lesson_data: dict[str, Any]) -> None:
    del step(lesson_data, "play")["hint2_ja"]
    del lesson_data["summary_zh_hans"]
    found = problems(lesson_data)
    assert "tutor-test-basics [zh_hans]: summary is missing" in found
    assert "tutor-test-basics step 3 (play) [ja]: hint2 is missing" in found
    # --lang narrows the text checks (the engine checks always run).
    assert problems(lesson_data, langs=["ja"]) == [
        "tutor-test-basics step 3 (play) [ja]: hint2 is missing"
    ]


def test_bad_card_shortcode(lesson_data: dict[str, Any]) -> None:
    lesson_data["steps"][0]["text_ja"] = "[[cards: S3 X9]] と [[foo: 1]]"
    found = problems(lesson_data)
    assert (
        "tutor-test-basics step 1 (explain) [ja]: text: [[cards: S3 X9]]: unknown card(s) X9"
        in (found)
    )
    assert any("unknown shortcode [[foo: …]]" in p for p in found)


def test_unknown_keys_are_reported(lesson_data: dict[str, Any]) -> None:
    step(lesson_data, "play")["acept"] = ["DK"]
    lesson_data["titel_ja"] = "x"
    spec, shape = read_lesson(lesson_data)
    assert [str(p) for p in shape] == [
        "tutor-test-basics: lesson: unknown key 'titel_ja'",
        "tutor-test-basics step 3 (play): step: unknown key 'acept'",
    ]


@pytest.mark.parametrize("rules", [{"preset": "nope"}, {"preset": "basic", "jokers": 7}])
def test_bad_rules(lesson_data: dict[str, Any], rules: dict[str, Any]) -> None:
    lesson_data["rules"] = rules
    (problem,) = problems(lesson_data)
    assert problem.startswith("tutor-test-basics: rules:")


# -- "only" / "must" claims are the solver's to check ------------------------------------------


def test_a_claim_word_needs_the_only_flag(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    play["right_zh_hans"] = "只有♦K 比♥9 大。"
    (problem,) = problems(lesson_data)
    assert problem.startswith("tutor-test-basics step 3 (play) [zh_hans]: right claims 只有")
    assert "only = true" in problem
    play["right_ja"] = "♥9より強いのは♦Kだけです。"
    found = problems(lesson_data)
    assert len(found) == 2 and any("[ja]: right claims だけ" in p for p in found)


def test_only_false_says_the_word_is_about_the_rules(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    play["right_zh_hans"] = "单张只能用单张来压，♦K 比♥9 大。"
    play["only"] = False
    assert problems(lesson_data) == []


def test_only_true_is_checked_by_the_solver(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    play["right_zh_hans"] = "只有♦K 能让你第一个出完。"
    play["only"] = True
    assert problems(lesson_data) == []  # DK wins the trick, then S4 goes out
    play["accept"] = ["pass"]
    play["wrong"] = [{"move": "DK", "text_zh_hans": "不对。", "text_ja": "違います。"}]
    (problem,) = problems(lesson_data)
    assert problem == (
        "tutor-test-basics step 3 (play): only = true, but the moves that force seat 0 "
        "to go out first are ['DK'], not ['pass']"
    )


def test_only_true_with_a_place_nobody_can_force(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    play["table"]["hands"][3] = "H9 D6 C2"  # seat 3 keeps a 2: DK no longer wins the trick
    play["only"] = True
    found = problems(lesson_data)
    assert any("only = true, but no move lets seat 0 force to go out first" in p for p in found)
    play["place"] = 7
    assert any("place must be a place from 0 to 2" in p for p in problems(lesson_data))


def test_only_true_on_a_choose_step_needs_a_solution(lesson_data: dict[str, Any]) -> None:
    choose = step(lesson_data, "choose")
    choose["only"] = True
    assert any('needs solution = "<move>"' in p for p in problems(lesson_data))
    choose["solution"] = "DK"
    assert problems(lesson_data) == []
    choose["solution"] = "pass"
    (problem,) = problems(lesson_data)
    assert "are ['DK'], not ['pass']" in problem
    choose["solution"] = "S4"  # does not beat the 9
    assert problems(lesson_data) == [
        "tutor-test-basics step 4 (choose): claimed move 'S4' is not legal here"
    ]


def test_a_claim_in_a_correct_choice_needs_the_flag(lesson_data: dict[str, Any]) -> None:
    choose = step(lesson_data, "choose")
    choose["choices"][1]["explain_ja"] = "プレイヤー3の次はあなたしかいません。"
    (problem,) = problems(lesson_data)
    assert problem.startswith("tutor-test-basics step 4 (choose) [ja]: choice 2 explanation")
    # a wrong choice's explanation may say "only" freely: it is not the step's claim
    choose["choices"][1]["explain_ja"] = "プレイヤー3の次はあなたです。"
    choose["choices"][0]["explain_zh_hans"] = "1号玩家只能等下一轮。"
    assert problems(lesson_data) == []


def test_the_flag_has_a_shape(lesson_data: dict[str, Any]) -> None:
    play = step(lesson_data, "play")
    play["only"] = "yes"
    play["place"] = "first"
    _spec, shape = read_lesson(lesson_data)
    assert [p.message for p in shape] == [
        "only must be true or false",
        "place must be an integer (0 = out first)",
    ]


def test_claim_words_per_language() -> None:
    from tutorials.validation import claim_words

    assert claim_words("你必须第一个出完，唯一的办法是♠2。", "zh_hans") == ["唯一", "必须"]
    assert claim_words("確実に一番で上がれるのはこの手だけです。", "ja") == ["だけ"]
    assert claim_words("♦Kで上回れます。", "ja") == []


# -- house rules' owed choices (issue 40) ---------------------------------------------------

#: A watch step whose seat 3 plays a 7 under the house preset and owes seat 0 one card.
HOUSE_WATCH: dict[str, Any] = {
    "kind": "watch",
    "table": {"hands": ["S4 H9", "D5 CK", "C6 SQ", "S7 D3 HA"], "leader": 3},
    "script": [
        {"play": "S7", "caption_zh_hans": "出7。", "caption_ja": "7を出す。"},
        {"choose": "D3", "caption_zh_hans": "交出♦3。", "caption_ja": "♦3を渡す。"},
    ],
}


def house(lesson_data: dict[str, Any], *steps: dict[str, Any]) -> dict[str, Any]:
    import copy

    lesson_data["rules"] = {"preset": "house"}
    lesson_data["steps"] = [copy.deepcopy(s) for s in steps]
    return lesson_data


def test_a_watch_step_may_make_an_owed_choice(lesson_data: dict[str, Any]) -> None:
    assert problems(house(lesson_data, HOUSE_WATCH)) == []


def test_an_owed_choice_the_engine_refuses_is_reported(lesson_data: dict[str, Any]) -> None:
    data = house(lesson_data, HOUSE_WATCH)
    data["steps"][0]["script"][1]["choose"] = "D3 HA"  # one card is owed, not two
    (problem,) = problems(data)
    assert problem.startswith("tutor-test-basics step 1 (watch): script line 2 is not legal")
    assert "wrong_count" in problem
    # a move while the choice is owed is refused too
    data["steps"][0]["script"][1] = {"play": "HA", "caption_zh_hans": "A", "caption_ja": "A"}
    (problem,) = problems(data)
    assert "choice_owed" in problem


def test_a_table_may_be_built_through_choices_and_named_ranks(
    lesson_data: dict[str, Any],
) -> None:
    # seat 3 names 4 with a Q: seat 0 loses its 4, then answers the Q with an A
    quiz = {
        "kind": "legal",
        "question_zh_hans": "问？",
        "question_ja": "問？",
        "explain_zh_hans": "答。",
        "explain_ja": "答。",
        "answer": ["pass", "HA"],
        "table": {
            "hands": ["S4 HA", "D5 CK", "C6 H8", "SQ D3 H4"],
            "leader": 3,
            "plays": [{"play": "SQ"}, {"name": "4"}],
        },
    }
    data = house(lesson_data, quiz)
    data["rules"]["twelve_bomber"] = "groups"
    assert problems(data) == []
    data["steps"][0]["table"]["plays"][1] = {"name": "JK"}
    (problem,) = problems(data)
    assert "table play 2" in problem and "not_a_rank" in problem


def test_an_action_needs_exactly_one_kind(lesson_data: dict[str, Any]) -> None:
    data = house(lesson_data, HOUSE_WATCH)
    data["steps"][0]["table"]["plays"] = [{"play": "S7", "choose": "D3"}]
    _spec, shape = read_lesson(data)
    assert any("needs exactly one of play, pass, give, choose, name" in str(p) for p in shape)
