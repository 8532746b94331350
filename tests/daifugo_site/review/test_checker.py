"""The rules checker: what the engine says about a table state, in both languages, and a
clear message naming the problem for malformed input."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.utils import translation

from daifugo_site.review import checker

from .test_views import no_english

GOOD = {
    "rules": {"preset": "standard"},
    "hands": ["D5 S2 C4", "H8 C9 S4", "SK H3", "CJ DQ"],
    "leader": 1,
    "steps": [{"play": "D5"}],
}


def check(data: object, move: str = "", lang: str = "zh-hans") -> checker.Result:
    text = data if isinstance(data, str) else json.dumps(data)
    with translation.override(lang):
        return checker.check(text, move)


def test_legal_moves_and_what_they_do() -> None:
    result = check(GOOD)
    assert result.error == ""
    moves = {" ".join(m.codes) or "pass": m for m in result.moves}
    # Seat 2 answers D5: H8 (an 8-cut in standard), C9, or pass; not S4.
    assert set(moves) == {"H8", "C9", "pass"}
    assert any("八切" in line.text for line in moves["H8"].lines)  # narrated effect
    assert [line.kind for line in result.history] == ["play"]


def test_a_refused_move_says_why_in_each_language() -> None:
    zh = check(GOOD, "S4", "zh-hans")
    ja = check(GOOD, "S4", "ja")
    assert zh.tried is None and zh.refused and ja.refused and zh.refused != ja.refused
    ok = check(GOOD, "H8", "ja")
    assert ok.refused == "" and ok.tried is not None and ok.tried.lines


@pytest.mark.parametrize(
    ("data", "needle_zh", "needle_ja"),
    [
        ("{not json", "JSON", "JSON"),
        ([1, 2], "JSON", "JSON"),
        ({**GOOD, "hands": ["D5 S2 X9", "H8"]}, "X9", "X9"),
        ({**GOOD, "rules": {"preset": "nope"}}, "nope", "nope"),
        ({**GOOD, "colour": 1}, "colour", "colour"),
        ({"rules": {"preset": "standard"}}, "hands", "hands"),
        ({**GOOD, "steps": [{"play": "S4"}]}, "第 1 步", "1 手目"),
        ({**GOOD, "hands": ["S3", "S3"]}, "两手牌", "2人"),
        ({**GOOD, "leader": 9}, "leader", "leader"),
        ("x" * (checker.MAX_INPUT + 1), "4000", "4000"),
    ],
)
def test_malformed_input_names_the_problem(data: object, needle_zh: str, needle_ja: str) -> None:
    zh, ja = check(data, lang="zh-hans"), check(data, lang="ja")
    assert needle_zh in zh.error and needle_ja in ja.error
    assert zh.error != ja.error
    assert not zh.moves and not ja.moves


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_checker_page_good_and_bad(client: Client, lang: str) -> None:
    page = client.get(f"/{lang}/review/checker/")
    assert page.status_code == 200 and 'data-testid="checker"' in page.content.decode()
    good = client.get(
        f"/{lang}/review/checker/?" + urlencode({"s": json.dumps(GOOD), "move": "S4"})
    )
    html = good.content.decode()
    assert good.status_code == 200
    assert 'data-testid="checker-moves"' in html and 'data-testid="checker-refused"' in html
    no_english(html.replace(json.dumps(GOOD).replace('"', "&quot;"), ""))
    bad = client.post(f"/{lang}/review/checker/", {"s": '{"rules": 1'})
    assert bad.status_code == 400 and 'data-testid="checker-error"' in bad.content.decode()


def test_rules_page_examples_link_to_the_checker(content: None, client: Client) -> None:
    from daifugo_site.pages.models import RuleSection

    section = RuleSection.objects.filter(body_html__contains="data-example=").first()
    assert section is not None
    html = client.get(f"/zh-hans/rules/{section.slug}/").content.decode()
    assert "/zh-hans/review/checker/?s=" in html
    link = html.split("/zh-hans/review/checker/?s=", 1)[1].split('"', 1)[0]
    from html import unescape
    from urllib.parse import parse_qs

    text = parse_qs("s=" + unescape(link))["s"][0]
    result = check(text)
    assert result.error == "" and result.seats


NESTED = "[" * 2000 + "]" * 2000
NESTED_STEPS = json.dumps({**GOOD, "steps": []}).replace(
    '"steps": []', '"steps": ' + "[" * 1500 + "]" * 1500
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "words"),
    [
        (NESTED, {"zh-hans": "这不是有效的牌局状态", "ja": "有効な局面ではありません"}),
        (NESTED_STEPS, {"zh-hans": "这不是有效的牌局状态", "ja": "有効な局面ではありません"}),
        (
            '{"rules": "\\ud800", "hands": []}',
            {"zh-hans": "这不是有效的牌局状态", "ja": "有効な局面ではありません"},
        ),
        (
            json.dumps({**GOOD, "hands": ["\ud800"]}),
            {"zh-hans": "这不是有效的牌局状态", "ja": "有効な局面ではありません"},
        ),
    ],
)
@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_deep_nesting_and_lone_surrogates_are_refused_not_500(
    client: Client, lang: str, text: str, words: dict[str, str]
) -> None:
    """Issue 45: 2,000 nested brackets (RecursionError, also inside steps) and a lone
    surrogate (UnicodeEncodeError) answered 500. Now the translated refusal, nothing else."""
    for response in (
        client.get(f"/{lang}/review/checker/", {"s": text}),
        client.post(f"/{lang}/review/checker/", {"s": text}),
    ):
        html = response.content.decode("utf-8")
        assert response.status_code == 400
        assert 'data-testid="checker-error"' in html and words[lang] in html
        assert 'data-testid="checker-moves"' not in html


def test_seats_are_numbered_from_one_like_the_rest_of_the_site() -> None:
    """Issue 38, section 3: the checker said "Seat 0"; the tables say seat 1 for the first.
    Its input counts the same way: leader, by and previous name seats 1 to n."""
    result = check({**GOOD, "leader": 1}, lang="ja")
    assert result.error == ""
    assert [s.name for s in result.seats] == ["席 1", "席 2", "席 3", "席 4"]
    assert "席 2" in result.status  # D5 by the first seat: the second is to act
    assert check({**GOOD, "leader": 0}).error  # there is no seat 0
    by = {**GOOD, "leader": 1, "steps": [{"play": "D5", "by": 1}, {"pass": True, "by": 2}]}
    assert check(by).error == ""
    assert "by" in check({**GOOD, "steps": [{"play": "D5", "by": 0}]}).error
    assert json.loads(checker.EXAMPLE)["leader"] == 1
