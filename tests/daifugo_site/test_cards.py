"""The card component: {% card %}, {% cards %} and |card_name."""

from __future__ import annotations

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from daifugo_site.ui.templatetags.cards import RANKS, SUIT_SYMBOLS
from tests.html import find_all, find_one

ALL_CODES = [suit + rank for suit in SUIT_SYMBOLS for rank in RANKS] + ["JK"]


def render(source: str, language: str = "zh-hans", **context: object) -> str:
    with translation.override(language):
        return Template("{% load cards %}" + source).render(Context(context))


@pytest.mark.parametrize(
    ("code", "language", "name", "symbol", "rank", "colour"),
    [
        ("S3", "zh-hans", "黑桃 3", "♠", "3", "black"),
        ("HT", "zh-hans", "红心 10", "♥", "10", "red"),
        ("DQ", "zh-hans", "方块 Q", "♦", "Q", "red"),
        ("CA", "zh-hans", "梅花 A", "♣", "A", "black"),
        ("S3", "ja", "スペードの3", "♠", "3", "black"),
        ("HT", "ja", "ハートの10", "♥", "10", "red"),
        ("DK", "ja", "ダイヤのK", "♦", "K", "red"),
        ("CJ", "ja", "クラブのJ", "♣", "J", "black"),
        ("S2", "ja", "スペードの2", "♠", "2", "black"),
    ],
)
def test_card_face_and_accessible_name(
    code: str, language: str, name: str, symbol: str, rank: str, colour: str
) -> None:
    html = render(f'{{% card "{code}" %}}', language)
    card = find_one(html, "span", class_=f"card card--{colour}")
    assert card.get("data-card") == code
    assert card.get("role") == "img"
    assert card.get("aria-label") == name
    assert find_one(html, class_="card__rank").text == rank
    assert find_one(html, class_="card__suit").text == symbol
    # The visible face is hidden from screen readers: the label says it all once.
    assert all(child.get("aria-hidden") == "true" for child in card.children)


@pytest.mark.parametrize(("language", "name"), [("zh-hans", "鬼牌"), ("ja", "ジョーカー")])
def test_joker(language: str, name: str) -> None:
    html = render('{% card "JK" %}', language)
    card = find_one(html, "span", class_="card card--joker")
    assert (card.get("data-card"), card.get("aria-label")) == ("JK", name)
    assert find_all(html, class_="card__suit") == []
    # The face prints the name it is called by (label in name, WCAG 2.5.3).
    assert find_one(html, class_="card__pip card__pip--joker").text == name


def test_every_name_contains_what_the_face_prints() -> None:
    # Voice control: "click Q" must reach the card that shows a Q (axe
    # label-content-name-mismatch), in both languages.
    for language in ("zh-hans", "ja"):
        for suit in "SHDC":
            for rank in "3456789TJQKA2":
                html = render(f'{{% card "{suit}{rank}" as_button=True %}}', language)
                button = find_one(html, "button")
                printed = find_one(html, class_="card__rank").text
                assert printed in button.get("aria-label"), (language, suit + rank)


def test_card_as_toggle_button() -> None:
    html = render('{% card "H7" as_button=True %}{% card "S7" as_button=True pressed=True %}')
    first, second = find_all(html, "button")
    assert first.attrs == {
        "type": "button",
        "class": "card card--red",
        "data-card": "H7",
        "aria-pressed": "false",
        "aria-label": "红心 7",
    }
    assert second.get("aria-pressed") == "true"


def test_cards_row_from_a_string_or_a_list() -> None:
    from_string = render('{% cards "S7 H7 JK" label="Hand" %}')
    from_list = render("{% cards hand label='Hand' %}", hand=["S7", "H7", "JK"])
    assert from_string == from_list
    row = find_one(from_string, "ul", class_="cards")
    assert row.get("aria-label") == "Hand"
    codes = [item.children[0].get("data-card") for item in row.children]
    assert codes == ["S7", "H7", "JK"]


def test_cards_row_of_buttons() -> None:
    html = render('{% cards "S3 D3" as_button=True %}', "ja")
    assert [b.get("aria-label") for b in find_all(html, "button")] == ["スペードの3", "ダイヤの3"]


def test_card_name_filter() -> None:
    assert render('{{ "HT"|card_name }}', "ja") == "ハートの10"
    assert render('{{ "JK"|card_name }}') == "鬼牌"


@pytest.mark.parametrize("bad", ["S1", "X3", "s3", "S10", "ST ", "", "JK2", "Jk", "H"])
def test_unknown_codes_raise_a_clear_error(bad: str) -> None:
    with pytest.raises(TemplateSyntaxError, match="Unknown card code"):
        render("{% card code %}", code=bad)


def test_unknown_code_in_a_row_raises() -> None:
    with pytest.raises(TemplateSyntaxError, match="'Z9'"):
        render('{% cards "S3 Z9" %}')


@given(st.sampled_from(ALL_CODES), st.sampled_from(["zh-hans", "ja"]), st.booleans())
def test_every_card_renders_one_element_with_its_code(
    code: str, language: str, as_button: bool
) -> None:
    html = render("{% card code as_button=as_button %}", language, code=code, as_button=as_button)
    (card,) = find_all(html, data_card=code)
    assert card.tag == ("button" if as_button else "span")
    assert card.get("aria-label")
    assert html.count("data-card=") == 1


@given(st.text(max_size=4).filter(lambda text: text not in ALL_CODES))
def test_anything_else_is_rejected(text: str) -> None:
    with pytest.raises(TemplateSyntaxError):
        render("{% card code %}", code=text)
