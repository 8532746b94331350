"""The rules pages: both languages, no fallback, stable hooks, query counts, presets, sitemap."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from daifugo_site.pages.models import (
    OPTION_NAMES,
    Example,
    FAQEntry,
    GlossaryTerm,
    RuleOption,
    RuleSection,
)
from rules_engine import PRESET_NAMES, RuleSet
from tests.html import find_all, find_one

LANGUAGES = ("zh-hans", "ja")
OTHER = {"zh-hans": "ja", "ja": "zh-hans"}
SUFFIX = {"zh-hans": "zh_hans", "ja": "ja"}

PAGES = [
    # url name, kwargs, h1 in zh-hans, h1 in ja (None: the section's title)
    ("rules:index", {}, "大富豪规则", "大富豪のルール"),
    ("rules:section", {"slug": "suit-lock"}, None, None),
    ("rules:presets", {}, "预设对照", "プリセットの比較"),
    ("rules:faq", {}, "常见问题", "よくある質問"),
    ("rules:glossary", {}, "术语表", "用語集"),
]


def _url(name: str, kwargs: dict[str, str], language: str) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "kwargs", "zh_h1", "ja_h1"), PAGES)
def test_page_renders_in_each_language_with_its_heading(
    client: Client,
    content: None,
    language: str,
    name: str,
    kwargs: dict[str, str],
    zh_h1: str | None,
    ja_h1: str | None,
) -> None:
    url = _url(name, kwargs, language)
    assert url.startswith(f"/{language}/")
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    html = response.content.decode()
    expected = zh_h1 if language == "zh-hans" else ja_h1
    if expected is None:
        section = RuleSection.objects.get(slug=kwargs["slug"])
        expected = getattr(section, f"title_{SUFFIX[language]}")
    assert find_one(html, "h1").text.strip() == expected
    assert find_one(html, "html").get("lang") == ("zh-Hans" if language == "zh-hans" else "ja")
    # hreflang alternates point at the same page in both languages.
    alternates = {
        link.get("hreflang"): link.get("href") for link in find_all(html, "link", rel="alternate")
    }
    assert alternates["ja"].endswith(_url(name, kwargs, "ja"))
    assert alternates["zh-Hans"].endswith(_url(name, kwargs, "zh-hans"))


def _texts(language: str) -> list[str]:
    """Every text of the content in one language, long enough to be recognisable."""
    suffix = SUFFIX[language]
    texts = []
    for section in RuleSection.objects.all():
        texts += [getattr(section, f"title_{suffix}"), getattr(section, f"summary_{suffix}")]
    for example in Example.objects.all():
        texts.append(getattr(example, f"caption_{suffix}"))
    for option in RuleOption.objects.all():
        texts += [getattr(option, f"label_{suffix}"), getattr(option, f"description_{suffix}")]
        texts += [getattr(value, f"label_{suffix}") for value in option.values.all()]
    for entry in FAQEntry.objects.all():
        texts.append(getattr(entry, f"question_{suffix}"))
    for term in GlossaryTerm.objects.all():
        # Not the readings: the Chinese text quotes some Japanese names on purpose.
        texts.append(getattr(term, f"explanation_{suffix}"))
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_the_other_language(client: Client, content: None, language: str) -> None:
    own = set(_texts(language))
    foreign = [text for text in set(_texts(OTHER[language])) if text not in own and len(text) >= 6]
    assert len(foreign) > 100
    urls = [_url(name, kwargs, language) for name, kwargs, _zh, _ja in PAGES]
    urls += [_url("rules:section", {"slug": s.slug}, language) for s in RuleSection.objects.all()]
    for url in urls:
        html = client.get(url).content.decode()
        leaked = [text for text in foreign if text in html]
        assert leaked == [], url


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_section_page_shows_its_own_language(
    client: Client, content: None, language: str
) -> None:
    suffix = SUFFIX[language]
    for section in RuleSection.objects.all():
        html = client.get(_url("rules:section", {"slug": section.slug}, language)).content.decode()
        article = find_one(html, "article", data_section=section.slug)
        assert getattr(section, f"summary_{suffix}") in article.text


def test_index_has_every_section_with_an_anchor_and_a_grouped_contents(
    client: Client, content: None
) -> None:
    html = client.get("/ja/rules/").content.decode()
    slugs = list(RuleSection.objects.values_list("slug", flat=True))
    sections = find_all(html, "section", class_="rule-section")
    assert [s.get("data-section") for s in sections] == slugs
    assert [s.get("id") for s in sections] == slugs
    toc_links = [
        a.get("href") for a in find_all(html, "a") if (a.get("href") or "").startswith("#")
    ]
    for slug in slugs:
        assert f"#{slug}" in toc_links
    groups = [h.text.strip() for h in find_all(html, "h3", class_="rules-toc__group")]
    assert groups[:3] == ["基本ルール", "ローカルルール", "プリセット・コツ・背景"]
    assert 'href="/static/css/rules.css"' in html or "css/rules" in html


def test_section_page_has_previous_and_next(client: Client, content: None) -> None:
    sections = list(RuleSection.objects.all())
    html = client.get(sections[1].get_absolute_url().replace("/zh-hans/", "/ja/")).content.decode()
    previous = find_one(html, "a", rel="prev")
    following = find_one(html, "a", rel="next")
    assert previous.get("href") == f"/ja/rules/{sections[0].slug}/"
    assert following.get("href") == f"/ja/rules/{sections[2].slug}/"
    first = client.get(f"/ja/rules/{sections[0].slug}/").content.decode()
    assert find_all(first, "a", rel="prev") == []


def test_section_page_describes_its_options_with_the_presets_values(
    client: Client, content: None
) -> None:
    html = client.get("/zh-hans/rules/eight-cut/").content.decode()
    box = find_one(html, "div", id="option-eight_cut")
    assert "八切" in box.text
    values = [dd.text for dd in find_all(str(html), "dd") if dd.text]
    assert "单张8或只由8组成的组合" in values  # standard: groups
    assert "含有真正8的任何出法，包括顺子" in values  # party: any


def test_unknown_section_is_a_404(client: Client, content: None) -> None:
    assert client.get("/ja/rules/no-such-rule/").status_code == 404


def test_faq_and_glossary_hooks(client: Client, content: None) -> None:
    html = client.get("/zh-hans/faq/").content.decode()
    items = find_all(html, None, data_testid="faq-item")
    assert len(items) == FAQEntry.objects.count() >= 12
    assert "大富豪和大贫民是两个不同的游戏吗？" in html
    html = client.get("/ja/glossary/").content.decode()
    terms = find_all(html, None, data_testid="glossary-term")
    assert len(terms) == GlossaryTerm.objects.count() >= 20
    assert "だいひんみん" in html
    assert 'href="/ja/rules/going-out-and-titles/"' in html


TABLE_PRESETS = (*PRESET_NAMES, "house")


def _presets_table(html: str) -> dict[str, dict[str, str]]:
    """{option name: {preset: cell text}} from the presets page."""
    table: dict[str, dict[str, str]] = {}
    for row in find_all(html, "tr"):
        option = row.get("data-option")
        if not option:
            continue
        cells = [child for child in row.children if child.tag == "td"]
        table[option] = {
            cell.get("data-preset") or TABLE_PRESETS[i]: re.sub(r"\*$", "", cell.text.strip())
            for i, cell in enumerate(cells)
        }
    return table


def test_presets_table_is_generated_from_the_engine(client: Client, content: None) -> None:
    html = client.get("/ja/rules/presets/").content.decode()
    headers = [th.get("data-preset") for th in find_all(html, "th", scope="col")][1:]
    assert headers == list(TABLE_PRESETS)  # the house rules' preset too (issue 40)
    table = _presets_table(html)
    assert set(OPTION_NAMES) <= set(table)
    assert table["jokers"]["party"] == "2"
    assert table["jokers"]["standard"] == "1"
    assert table["revolution_sequence_min"]["standard"] == "5"
    assert table["revolution_sequence_min"]["classic"] == "4"
    assert table["revolution_sequence_min"]["party"] == "設定なし"
    assert table["pass_until_clear"]["party"] == "あり"
    assert table["pass_until_clear"]["standard"] == "なし"
    labels = RuleOption.objects.get(name="eight_cut")
    with translation.override("ja"):
        eight = labels.value_labels()
    for preset in PRESET_NAMES:
        assert table["eight_cut"][preset] == eight[RuleSet.preset(preset).eight_cut]
        assert table["suit_lock_after"][preset] == str(RuleSet.preset(preset).suit_lock_after)
        assert table["jokers"][preset] == str(RuleSet.preset(preset).jokers)
    # Only the house preset turns the house rules on; 12-bomber is a switch only.
    seven = RuleOption.objects.get(name="seven_pass")
    with translation.override("ja"):
        seven_labels = seven.value_labels()
    assert table["seven_pass"] == {
        **{preset: seven_labels["off"] for preset in PRESET_NAMES},
        "house": seven_labels["groups"],
    }
    assert table["twelve_bomber"]["house"] == seven_labels["off"]
    assert table["jback"]["house"] == "Jの1枚出し・Jだけの組"


def test_presets_rows_link_to_each_options_description(client: Client, content: None) -> None:
    html = client.get("/zh-hans/rules/presets/").content.decode()
    for option in RuleOption.objects.select_related("section"):
        with translation.override("zh-hans"):
            href = option.get_absolute_url()
        assert href == f"/zh-hans/rules/{option.section.slug}/#option-{option.name}"
        assert f'href="{href}"' in html
        page = client.get(href.split("#")[0]).content.decode()
        assert f'id="option-{option.name}"' in page


def test_standard_forbidden_finishes_in_zh(client: Client, content: None) -> None:
    html = client.get("/zh-hans/rules/presets/").content.decode()
    table = _presets_table(html)
    standard = table["forbidden_finish"]["standard"]
    for label in ("含有鬼牌的一手", "八切", "黑桃3反击"):
        assert label in standard
    assert table["forbidden_finish"]["basic"] == "无"


MAX_QUERIES = 5


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "kwargs", "zh_h1", "ja_h1"), PAGES)
def test_each_page_is_a_handful_of_queries(
    client: Client,
    content: None,
    django_assert_max_num_queries: pytest.FixtureRequest,
    language: str,
    name: str,
    kwargs: dict[str, str],
    zh_h1: str | None,
    ja_h1: str | None,
) -> None:
    url = _url(name, kwargs, language)
    with django_assert_max_num_queries(MAX_QUERIES):  # type: ignore[operator]
        assert client.get(url).status_code == 200


def test_sitemap_lists_every_page_in_both_languages(client: Client, content: None) -> None:
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    root = ET.fromstring(response.content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    locations = [loc.text or "" for loc in root.findall("s:url/s:loc", ns)]
    paths = {re.sub(r"^https?://[^/]+", "", loc) for loc in locations}
    for language in LANGUAGES:
        assert f"/{language}/" in paths
        for name, kwargs, _zh, _ja in PAGES:
            assert _url(name, kwargs, language) in paths
        for section in RuleSection.objects.all():
            assert f"/{language}/rules/{section.slug}/" in paths
    hreflangs = {link.get("hreflang") for link in root.findall("s:url/x:link", ns)}
    assert {"zh-Hans", "ja", "x-default"} <= hreflangs
