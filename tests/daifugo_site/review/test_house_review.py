"""Issue 40: review, hints and the rules checker in games with house rules."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from daifugo_site.review import analysis, presenter
from daifugo_site.review.checker import check
from daifugo_site.review.presenter import hint_sentences
from rules_engine import Action, Match, Round, RuleSet, format_cards, observe
from rules_engine.ai import make_player
from rules_engine.state import NAME_CHOICE, rank_text

BUDGET = analysis.Budget(worlds=8)
RULES = RuleSet.preset("house", twelve_bomber="groups", sandstorm=True)


def house_match(seed: int) -> Match:
    """A one-round house game played by beginners (choices included) to its end."""
    m = Match.new(RULES, 4, 1, seed)
    players = [make_player("beginner") for _ in range(4)]
    rng = random.Random(seed)
    while not m.round.over:
        r = m.round
        if r.to_act < 0:
            seat = next(s for s in range(4) if r.owed[s])
            obs = m.observe(seat)
            action = Action.give(seat, format_cards(players[seat].choose_return(obs, rng)))
        elif (owed := r.owed_choice()) is not None:
            seat = owed[0]
            choice = players[seat].choose_choice(m.observe(seat), rng)
            action = (
                Action.name(seat, rank_text(choice))
                if owed[1] == NAME_CHOICE
                else Action.choose(seat, format_cards(choice))
            )
        else:
            seat = r.to_act
            move = players[seat].choose_move(m.observe(seat), rng)
            action = (
                Action.pass_(seat)
                if move.is_pass
                else Action("play", seat, format_cards(move.cards), move.form_name)
            )
        out = m.apply(action)
        assert isinstance(out, Match), out
        m = out
    return m


def test_a_house_game_is_reviewed_without_trouble() -> None:
    m = house_match(3)
    record = m.to_record()
    assert any("choose" in a or "name" in a for a in record["actions"])
    found = analysis.decisions(record, 0)
    assert found
    for d in found[:3]:
        result = analysis.review_decision(d.obs, d.action, "r", BUDGET, d.pending)
        assert "best" in result


@pytest.mark.parametrize(
    ("hand", "play", "kind", "words_ja"),
    [
        ("S7 S4 S5 D9", "S7", "give", "おすすめ："),
        ("ST S4 S5 D9", "ST", "discard", "おすすめ："),
        ("SQ S4 S5 D9", "SQ", "name", "を指定する。"),
    ],
)
def test_the_hint_for_an_owed_choice_is_the_computers_choice(
    hand: str, play: str, kind: str, words_ja: str
) -> None:
    r = Round.start(RULES, [hand, "HK H3", "D6 C8"], leader=0).apply(play)
    assert isinstance(r, Round) and r.owed_choice() is not None
    result = analysis.hint(observe(r, 0), "h", BUDGET)
    assert result["kind"] == "choice" and result["choice"] == kind
    made = r.name(0, result["best"]) if kind == "name" else r.choose(0, result["best"])
    assert isinstance(made, Round), "the suggestion is a legal choice"
    with translation.override("ja"):
        suggestion, _reasons = hint_sentences(result)
    assert words_ja in suggestion


def test_the_checker_takes_the_house_preset_and_choices() -> None:
    data = (
        '{"rules": {"preset": "house", "twelve_bomber": "groups"},'
        ' "hands": ["S7 S4 S5", "HK H4", "D6 C8"], "leader": 1,'
        ' "steps": [{"play": "S7"}, {"choose": "S4"}]}'
    )
    with translation.override("zh-hans"):
        result = check(data)
    assert not result.error, result.error
    assert any("七传" in line.text for line in result.history)
    with translation.override("ja"):
        owed = check(data.replace(', {"choose": "S4"}', ""))
    assert not owed.error and "7渡し" in owed.status


def test_a_house_games_choices_are_decisions_of_the_review() -> None:
    record = house_match(3).to_record()
    kinds = {d.action.kind for seat in range(4) for d in analysis.decisions(record, seat)}
    assert kinds & {"choose", "name"}


CHOICE_BUDGET = analysis.Budget(worlds=120)
OTHERS = ["HK H3 C9 D8 S6", "D6 C8 CJ H5 C5"]


@pytest.mark.parametrize(
    ("hand", "play", "bad", "good", "zh", "ja"),
    [
        ("S7 JK S2 H2 S4 D5", "S7", "JK", "S4", "七传时你交出了", "7渡しで"),
        ("ST JK S2 H2 S4 D5", "ST", "JK", "S4", "十弃时你弃掉了", "10捨てで"),
        ("SQ S4 H4 D4 S2 D7", "SQ", "2", "K", "十二炸弹时你指定了", "12ボンバーで"),
    ],
)
def test_a_costly_house_choice_is_listed_with_the_better_one(
    hand: str, play: str, bad: str, good: str, zh: str, ja: str
) -> None:
    r = Round.start(RULES, [hand, *OTHERS], leader=0).apply(play)
    assert isinstance(r, Round)
    obs = observe(r, 0)
    naming = play == "SQ"

    def act(choice: str) -> Action:
        return Action.name(0, choice) if naming else Action.choose(0, choice)

    result = analysis.review_decision(obs, act(bad), "c", CHOICE_BUDGET)
    assert result["kind"] == "choice" and result["mistake"], result
    assert result["made"] == bad and result["best"] != bad and result["cost"] >= 0.25
    fine = analysis.review_decision(obs, act(good), "c", CHOICE_BUDGET)
    assert not fine["mistake"], fine
    item = {**result, "i": 0, "round": 0}
    with translation.override("zh-hans"):
        zh_text = " ".join(presenter._sentences(item, 3))
    with translation.override("ja"):
        ja_text = " ".join(presenter._sentences(item, 3))
        label = presenter.choice_label(item, item["best"])
    assert zh in zh_text and ja in ja_text
    assert label in ja_text, "the better choice is named"
    if naming:
        assert "スペードの2" in ja_text, "the seat's own cards the naming discarded are named"
    else:
        assert "JK" not in ja_text and "ジョーカー" in ja_text


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_a_choice_decision_renders_with_its_position_and_the_engines_lines(lang: str) -> None:
    from types import SimpleNamespace

    r = Round.start(RULES, ["ST JK S2 H2 S4 D5", *OTHERS], leader=0).apply("ST")
    assert isinstance(r, Round)
    obs = observe(r, 0)
    result = analysis.review_decision(obs, Action.choose(0, "JK"), "c", CHOICE_BUDGET)
    item = {**result, "i": 1, "round": 0}
    game = SimpleNamespace(seats=[{}, {}, {}], human_seat=0, players=3)
    with translation.override(lang):
        view = presenter.decision_view(game, item, (r, obs, 0))
    assert view.made_codes == ["JK"] and view.best_codes and view.mistake
    assert view.position is not None and "JK" in view.position.hand_codes
    # The engine's effects of each discard, narrated in the page's language.
    assert [(line.effects, line.cards) for line in view.made_lines] == [(("discarded",), ["JK"])]
    assert view.best_lines and view.best_lines[0].cards == view.best_codes
    assert view.made_lines[0].text != "" and "JK" not in view.made_lines[0].text
    term = "十弃" if lang == "zh-hans" else "10捨て"
    assert view.sentences[0].startswith(term)


def test_a_choice_is_judged_on_the_seats_observation_only() -> None:
    results = []
    for others in (
        OTHERS,
        ["D6 C8 CJ H5 C5", "HK H3 C9 D8 S6"],
        ["HK H3 C9 D8 C5", "D6 C8 CJ H5 S6"],
    ):
        r = Round.start(RULES, ["S7 JK S2 H2 S4 D5", *others], leader=0).apply("S7")
        assert isinstance(r, Round)
        results.append(analysis.review_decision(observe(r, 0), Action.choose(0, "JK"), "h", BUDGET))
    assert results[0] == results[1] == results[2]
