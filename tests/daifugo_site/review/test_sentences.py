"""The mistake sentences: facts found from the engine's effects, the public card count and
the solver, told in both languages with the narrator's labels."""

from __future__ import annotations

import pytest
from django.utils import translation

from daifugo_site.review import analysis, presenter
from rules_engine import Move, Observation, Round, RuleSet, observe

from .conftest import PLANTED_INDEX, PLANTED_SEED, scripted_actions

LANGS = ("zh-hans", "ja")


def _move(obs: Observation, text: str) -> Move:
    from rules_engine import parse_cards

    cards = parse_cards(text) if text != "pass" else 0
    return next(m for m in obs.legal if (m.is_pass if text == "pass" else m.cards == cards))


def _facts(preset: str, hands: list[str], made: str, best: str, leader: int = 0) -> list[dict]:  # type: ignore[type-arg]
    r = Round.start(RuleSet.preset(preset), hands, leader=leader)
    obs = observe(r, 0)
    return analysis.facts(obs, _move(obs, made), _move(obs, best), None, list(r.hands))


def kinds(found: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [f["kind"] for f in found]


def said(fact: dict, lang: str, give: bool = False) -> str:  # type: ignore[type-arg]
    with translation.override(lang):
        text = presenter.fact_sentence(fact, give)
    assert text
    return text


def test_broke_a_pair_is_found_and_told() -> None:
    found = _facts("basic", ["S9 H9 D4 C6", "HK", "D5"], "S9", "D4")
    assert {"kind": "broke", "cards": "S9 H9", "played": "S9"} in found
    fact = next(f for f in found if f["kind"] == "broke")
    zh, ja = said(fact, "zh-hans"), said(fact, "ja")
    assert "对子" in zh and "ペア" in ja
    with translation.override("ja"):
        assert "スペードの9とハートの9のペア" in ja
    assert "ペア" in said({**fact, "cards": "S9 H9", "played": "S9"}, "ja", give=True)
    assert "三条" in said({**fact, "cards": "S9 H9 D9"}, "zh-hans")
    assert "階段" in said({**fact, "cards": "S3 S4 S5"}, "ja")


def test_a_card_no_one_can_beat_is_found_from_the_public_count() -> None:
    # This seat holds the only joker: nothing unseen beats its 2, while its 3 is beaten.
    found = _facts("basic", ["JK S2 S3", "HK", "D4"], "S3", "S2")
    assert {"kind": "unbeatable", "cards": "S2"} in found
    zh = said(found[kinds(found).index("unbeatable")], "zh-hans")
    ja = said(found[kinds(found).index("unbeatable")], "ja")
    assert "领出" in zh and "親" in ja
    # With the joker unseen, the 2 can be beaten: not said.
    assert "unbeatable" not in kinds(_facts("basic", ["S2 S3 D5", "HK", "JK"], "S3", "S2"))


def test_an_eight_cut_the_player_missed() -> None:
    found = _facts("standard", ["S8 D4 H6", "HK", "D5", "C9"], "D4", "S8")
    assert {"kind": "eight_cut", "cards": "S8"} in found
    assert "八切" in said(found[kinds(found).index("eight_cut")], "zh-hans")
    assert "8切り" in said(found[kinds(found).index("eight_cut")], "ja")


def test_a_revolution_spent() -> None:
    found = _facts("standard", ["S9 H9 D9 C9 H4 D6", "HK", "D5", "C7"], "S9 H9 D9 C9", "H4")
    fact = {"kind": "revolution", "by": "made", "on": True}
    assert fact in found
    assert "革命" in said(fact, "zh-hans") and "革命" in said(fact, "ja")
    other = _facts("standard", ["S9 H9 D9 C9 H4 D6", "HK", "D5", "C7"], "H4", "S9 H9 D9 C9")
    assert {"kind": "revolution", "by": "best", "on": True} in other


def test_a_strong_card_spent_early() -> None:
    hand = "S2 S4 H6 D7 C9 HJ DK"
    found = _facts("standard", [hand, "HK", "D5", "C7"], "S2", "S4")
    fact = next(f for f in found if f["kind"] == "early")
    assert fact["cards"] == "S2" and fact["left"] == 6
    assert "6" in said(fact, "zh-hans") and "6" in said(fact, "ja")


def test_an_illegal_finish() -> None:
    # Seat 0 answers H5 with its last card, a 2: a forbidden finish in standard.
    r = Round.start(RuleSet.preset("standard"), ["S2", "H5 D6", "C7 D9", "S9 H9"], leader=1)
    r = r.apply("H5")
    r = r.apply("pass")  # type: ignore[union-attr]
    r = r.apply("pass")  # type: ignore[union-attr]
    obs = observe(r, 0)  # type: ignore[arg-type]
    assert obs.my_turn
    found = analysis.facts(obs, _move(obs, "S2"), _move(obs, "pass"), None, list(r.hands))  # type: ignore[union-attr]
    fact = {"kind": "penalised", "cards": "S2"}
    assert fact in found
    assert "违规出完" in said(fact, "zh-hans") and "反則上がり" in said(fact, "ja")


def test_a_pass_when_a_play_won_for_sure_is_told_by_the_solver() -> None:
    m, _ = scripted_actions(PLANTED_SEED)
    d = {d.index: d for d in analysis.decisions(m.to_record(), 0)}[PLANTED_INDEX]
    item = analysis.review_decision(d.obs, d.action, "t", analysis.Budget(worlds=4))
    assert item["facts"][0]["kind"] == "lost_win"
    passed = {**item, "made": "pass"}
    for lang in LANGS:
        with translation.override(lang):
            text = presenter._sentences(passed, 4)[0]
            title = presenter.place_text(item["verdict"]["place"], 4)
        assert title in text
    with translation.override("ja"):
        assert "パス" in presenter._sentences(passed, 4)[0]
        assert "大富豪" in presenter.place_text(1, 4)
    with translation.override("zh-hans"):
        assert "大富豪" in presenter.place_text(1, 4)


@pytest.mark.parametrize("lang", LANGS)
def test_every_fact_kind_reads_in_both_languages(lang: str) -> None:
    facts = [
        {"kind": "broke", "cards": "S9 H9", "played": "S9"},
        {"kind": "unbeatable", "cards": "H9"},
        {"kind": "eight_cut", "cards": "S8"},
        {"kind": "revolution", "by": "made", "on": True},
        {"kind": "revolution", "by": "made", "on": False},
        {"kind": "revolution", "by": "best", "on": True},
        {"kind": "revolution", "by": "best", "on": False},
        {"kind": "early", "cards": "JK", "left": 7},
        {"kind": "penalised", "cards": "S2"},
    ]
    from .test_views import no_english

    texts = [said(f, lang) for f in facts]
    assert len(set(texts)) == len(texts)
    assert no_english("<p>" + "</p><p>".join(texts) + "</p>")


def test_a_hint_says_when_no_one_can_beat_its_suggestion_or_it_cuts() -> None:
    result = {
        "kind": "hint",
        "best": "H2 D2",
        "obvious": "SK CK",
        "best_mean": 3.0,
        "made_mean": 0.0,
        "verdict": None,
        "facts": [{"kind": "unbeatable", "cards": "H2 D2"}],
    }
    cut = {**result, "best": "S8", "facts": [{"kind": "eight_cut", "cards": "S8"}]}
    for lang, word, cut_word in (("zh-hans", "领出", "八切"), ("ja", "親", "8切り")):
        with translation.override(lang):
            _suggestion, reasons = presenter.hint_sentences(result)
            _suggestion, cut_reasons = presenter.hint_sentences(cut)
        assert len(reasons) == 2 and word in reasons[1]
        assert cut_word in cut_reasons[1]


def test_a_broken_pair_reads_naturally_in_japanese() -> None:
    """Issue 38, item 9: it read 「ペアハートの6、クラブの6を崩して」; the cards name the pair
    ("A and B"), then what was made of them."""
    fact = {"kind": "broke", "cards": "H6 C6", "played": "H6"}
    assert said(fact, "ja") == "ハートの6とクラブの6のペアを崩して、ハートの6だけを出しました。"
    assert said({**fact, "cards": "H4 H5 H6"}, "ja").startswith(
        "ハートの4、ハートの5とハートの6の階段を崩して"
    )
    zh = said(fact, "zh-hans")
    assert "和" in zh and "、" not in zh, zh


def test_being_left_to_finish_on_a_2_is_the_reason_given() -> None:
    """Issue 38, item 15: holding ♥A ♣2 under standard, leading ♥A leaves ♣2 to go out
    with, which standard forbids. The sentence must say that, not "no one can beat ♣2"."""
    rules = RuleSet.preset("standard", jokers=0)
    r = Round.start(rules, ["HA C2", "S5 S6 S7", "D5 D6 D7", "C5 C6 C7"], leader=0)
    obs = observe(r, 0)
    found = analysis.facts(obs, _move(obs, "HA"), _move(obs, "C2"), None, list(r.hands))
    assert {"kind": "stuck", "cards": "C2"} in found
    assert "unbeatable" not in kinds(found)
    fact = next(f for f in found if f["kind"] == "stuck")
    with translation.override("ja"):
        from daifugo_site.ui.labels import cards_text

        two = cards_text(["C2"])
    ja = said(fact, "ja")
    assert two in ja and "反則上がり" in ja
    assert "违规出完" in said(fact, "zh-hans")
    # Where the 2 may finish (basic: no illegal finish), nothing is said of it.
    basic = Round.start(RuleSet.preset("basic", jokers=0), ["HA C2", "S5", "D5", "C5"], leader=0)
    obs = observe(basic, 0)
    found = analysis.facts(obs, _move(obs, "HA"), _move(obs, "C2"), None, list(basic.hands))
    assert "stuck" not in kinds(found)
