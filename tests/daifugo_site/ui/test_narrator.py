"""The one narrator: every effect kind told in zh-hans and ja, in the glossary's words."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from django.utils import translation

from daifugo_site.ui.narrator import Line, narrate
from rules_engine import Round, RuleSet, parse_cards
from rules_engine import effects as fx
from rules_engine.effects import KINDS, Effect, visible_to
from rules_engine.moves import analyse
from rules_engine.rules import FORBIDDEN_FINISH_ENTRIES

GLOSSARY = tomllib.loads(
    (Path(__file__).resolve().parents[3] / "daifugo_site/pages/content/glossary.toml").read_text(
        encoding="utf-8"
    )
)
TERMS = {t["slug"]: t for t in GLOSSARY["terms"]}
LANGUAGES = ("zh-hans", "ja")
NAMES = {0: "甲", 1: "乙", 2: "丙", 3: "丁"}


def name(seat: int) -> str:
    return NAMES[seat]


def move(text: str):
    return analyse(parse_cards(text), None, False, 3)


# One effect of each kind, with the glossary entry its sentence must use (None: no term).
CASES: dict[str, tuple[list[Effect], str | None]] = {
    fx.PLAYED: ([Effect(fx.PLAYED, 0, move("S3 H3"))], None),
    fx.PASSED: ([Effect(fx.PASSED, 1)], "pass"),
    fx.EIGHT_CUT: ([Effect(fx.PLAYED, 0, move("S8")), Effect(fx.EIGHT_CUT, 0)], "eight-cut"),
    fx.SPADE3_RETURN: (
        [Effect(fx.PLAYED, 1, move("S3")), Effect(fx.SPADE3_RETURN, 1)],
        "spade-3-return",
    ),
    fx.REVOLUTION: ([Effect(fx.REVOLUTION, on=True)], "revolution"),
    fx.JBACK: ([Effect(fx.JBACK, reason="played", on=True)], "eleven-back"),
    fx.SUIT_LOCK: ([Effect(fx.SUIT_LOCK, suits=0b0011)], "suit-lock"),
    fx.NUMBER_LOCK: ([Effect(fx.NUMBER_LOCK)], "number-lock"),
    fx.CLEARED: ([Effect(fx.CLEARED, 2, reason="all_passed")], "clear"),
    fx.WENT_OUT: ([Effect(fx.WENT_OUT, 3, place=1)], "going-out"),
    fx.PENALISED: ([Effect(fx.PENALISED, 0, place=4, reason="top_rank")], "illegal-finish"),
    fx.MIYAKO_OCHI: ([Effect(fx.MIYAKO_OCHI, 2, place=4)], "miyako-ochi"),
    fx.GIFT: ([Effect(fx.GIFT, 3, to=0, cards=parse_cards("S2 JK"), size=2, on=True)], None),
    fx.EXCHANGE_OVER: ([Effect(fx.EXCHANGE_OVER, 3)], "exchange"),
    fx.ROUND_OVER: ([Effect(fx.ROUND_OVER)], None),
    # House rules (RULES.md section 8); their glossary entries come with the rules pages.
    fx.OWES: ([Effect(fx.OWES, 0, to=1, size=2, reason="give")], None),
    fx.GAVE: ([Effect(fx.GAVE, 0, to=1, cards=parse_cards("S4 H6"), size=2)], None),
    fx.DISCARDED: ([Effect(fx.DISCARDED, 2, cards=parse_cards("S4 HT"), size=2)], None),
    fx.NAMED: ([Effect(fx.NAMED, 3, ranks=0b10000100, size=2)], None),
    fx.SKIPPED: ([Effect(fx.SKIPPED, 1)], None),
    fx.REVERSED: ([Effect(fx.REVERSED, 0, on=True)], None),
    fx.SANDSTORM: ([Effect(fx.PLAYED, 0, move("S3 H3 D3")), Effect(fx.SANDSTORM, 0)], None),
}

# Variants of the kinds that have several sentences.
VARIANTS: list[tuple[Effect, str | None]] = [
    (Effect(fx.REVOLUTION, on=False), "counter-revolution"),
    (Effect(fx.JBACK, reason="played", on=False), "eleven-back"),
    (Effect(fx.JBACK, reason="cleared", on=False), "eleven-back"),
    (Effect(fx.CLEARED, 0, reason="eight_cut"), "eight-cut"),
    (Effect(fx.CLEARED, 0, reason="spade3"), "spade-3-return"),
    (Effect(fx.CLEARED, 0, reason="nobody_left_to_answer"), "clear"),
    (Effect(fx.GIFT, 0, to=3, cards=parse_cards("S4 H5"), size=2), None),
    (Effect(fx.GIFT, 0, to=3, size=2, on=True), None),
    (Effect(fx.GIFT, 0, to=3, size=1), None),
    (Effect(fx.CLEARED, 0, reason="sandstorm"), None),
    (Effect(fx.OWES, 1, size=1, reason="discard"), None),
    (Effect(fx.OWES, 1, size=3, reason="name"), None),
    (Effect(fx.GAVE, 0, to=3, size=2), None),
    (Effect(fx.REVERSED, 0, on=False), None),
] + [
    (Effect(fx.PENALISED, 1, place=3, reason=entry), "illegal-finish")
    for entry in FORBIDDEN_FINISH_ENTRIES
]


def glossary_term(slug: str, language: str) -> str:
    term = TERMS[slug]["term_zh_hans" if language == "zh-hans" else "term_ja"]
    # a Japanese verb is conjugated in a sentence: 場が流れる -> 場が流れ…
    return term[:-1] if term.endswith("る") else term


def assert_natural(text: str, language: str) -> None:
    """No English: only card ranks (J, K, Q, A) and the glossary's J反转 may be Latin."""
    rest = text.replace("J反转", "")
    assert not re.search(r"[A-Za-z]{2,}", rest), text
    assert not re.search(r"%\(|\{", text), text
    if language == "zh-hans":
        # no kana inside Chinese
        assert not re.search(r"[\u3040-\u30ff]", text), text
    else:
        assert re.search(r"[\u3040-\u30ff]", text), text


def test_every_kind_has_a_case():
    assert set(CASES) == set(KINDS)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_effect_kind_is_narrated(kind: str, language: str) -> None:
    effects, slug = CASES[kind]
    with translation.override(language):
        lines = narrate(effects, name)
    assert lines, kind
    text = lines[-1].text
    assert_natural(text, language)
    if slug is not None:
        assert glossary_term(slug, language) in text, (slug, text)
    # the seats the effect names appear in its sentence (a cut follows the play's own
    # line, which names the player)
    e = effects[-1]
    if kind not in (fx.EIGHT_CUT, fx.SPADE3_RETURN, fx.SANDSTORM, fx.REVERSED):
        for seat in (e.seat, e.to):
            if seat >= 0:
                assert NAMES[seat] in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("effect, slug", VARIANTS)
def test_every_variant_is_narrated(effect: Effect, slug: str | None, language: str) -> None:
    with translation.override(language):
        (line,) = narrate([effect], name)
    assert_natural(line.text, language)
    if slug is not None:
        assert glossary_term(slug, language) in line.text, (slug, line.text)
    if effect.place:
        assert str(effect.place) in line.text


def test_the_penalty_sentences_differ_per_entry() -> None:
    with translation.override("ja"):
        texts = {
            narrate([Effect(fx.PENALISED, 1, place=3, reason=entry)], name)[0].text
            for entry in FORBIDDEN_FINISH_ENTRIES
        }
    assert len(texts) == len(FORBIDDEN_FINISH_ENTRIES)


def test_a_play_line_shows_its_cards_and_names_them() -> None:
    with translation.override("zh-hans"):
        (line,) = narrate([Effect(fx.PLAYED, 0, move("S3 H3"))], name)
    assert line == Line("甲出了黑桃 3、红心 3。", ["S3", "H3"], "play")


def test_an_eight_cut_is_said_once_with_its_clear() -> None:
    effects = [
        Effect(fx.PLAYED, 0, move("S8")),
        Effect(fx.EIGHT_CUT, 0),
        Effect(fx.CLEARED, 0, reason="eight_cut"),
    ]
    with translation.override("zh-hans"):
        texts = [line.text for line in narrate(effects, name)]
    assert len(texts) == 2 and sum("八切" in t for t in texts) == 1


def test_a_sandstorm_is_said_once_with_its_clear() -> None:
    # A sandstorm's own line gives way to its clear's, as an 8-cut's does (it used to raise).
    effects = [
        Effect(fx.PLAYED, 0, move("S3 H3 D3")),
        Effect(fx.SANDSTORM, 0),
        Effect(fx.CLEARED, 0, reason="sandstorm"),
    ]
    with translation.override("zh-hans"):
        texts = [line.text for line in narrate(effects, name)]
    assert len(texts) == 2 and sum("沙尘暴" in t for t in texts) == 1


def test_hidden_gift_cards_are_told_by_number_only() -> None:
    gift = Effect(fx.GIFT, 0, to=3, cards=parse_cards("S2 H2"), size=2, on=True)
    with translation.override("ja"):
        (own,) = narrate(visible_to([gift], 3), name)
        (other,) = narrate(visible_to([gift], 1), name)
    assert own.cards == ["S2", "H2"] and "スペード" in own.text
    assert other.cards == [] and "2 枚" in other.text and "スペード" not in other.text


def test_skip_leaves_out_the_kinds_a_page_shows_itself() -> None:
    effects = CASES[fx.EIGHT_CUT][0] + [Effect(fx.CLEARED, 0, reason="eight_cut")]
    with translation.override("ja"):
        lines = narrate(effects, name, skip=(fx.PLAYED,))
    assert [line.kind for line in lines] == ["clear"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_nobody_left_to_answer_is_never_called_an_eight_cut(language: str) -> None:
    """The reported bug, end to end: basic + pass_until_clear, seat 0 goes out, two
    passes, seat 3 plays H8: no 8-cut (the rule is off), nobody is left to answer."""
    r = Round.start(
        RuleSet.preset("basic", pass_until_clear=True),
        ["S6", "C3 C4", "D3 D4", "H8 S9 SK"],
        leader=0,
    )
    for action in ("S6", "pass", "pass", "H8"):
        r = r.apply(action)
    with translation.override(language):
        texts = [line.text for line in narrate(r.effects, name)]
    eight_cut = glossary_term("eight-cut", language)
    assert not any(eight_cut in t for t in texts), texts
    assert "丁" in texts[-1] and glossary_term("clear", language) in texts[-1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_house_rule_sentences_use_the_players_terms(language: str) -> None:
    """7渡し, 10捨て, 12ボンバー, 5スキップ, 9リバース and 砂嵐 as Japanese players say them;
    the Chinese renderings one each; a hidden gift says how many cards, never which."""
    effects = [
        Effect(fx.OWES, 0, to=1, size=2, reason="give"),
        Effect(fx.OWES, 0, size=1, reason="discard"),
        Effect(fx.NAMED, 0, ranks=0b10000100, size=2),
        Effect(fx.SKIPPED, 1),
        Effect(fx.REVERSED, 0, on=True),
        Effect(fx.CLEARED, 0, reason="sandstorm"),
        Effect(fx.GAVE, 2, to=3, size=2),
    ]
    terms = {
        "ja": ["7渡し", "10捨て", "12ボンバー", "5スキップ", "9リバース", "砂嵐", "7渡し"],
        "zh-hans": ["七传", "十弃", "十二炸弹", "五跳", "九转向", "沙尘暴", "七传"],
    }[language]
    with translation.override(language):
        lines = narrate(effects, name)
    assert len(lines) == len(effects)
    for line, term in zip(lines, terms, strict=True):
        assert term in line.text, (term, line.text)
        assert_natural(line.text, language)
    assert "5" in lines[2].text and "10" in lines[2].text  # the ranks named
    assert "2" in lines[-1].text and lines[-1].cards == []
