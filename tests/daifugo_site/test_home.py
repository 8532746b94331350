"""The home page and the layout every page shares, in both languages."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.html import find_all, find_one

LANGUAGES = [
    # prefix, html lang, site name, heading
    ("zh-hans", "zh-Hans", "大富豪牌社", "学会大富豪，再来打一局"),
    ("ja", "ja", "大富豪クラブ", "大富豪を覚えて、遊んでみよう"),
]


@pytest.mark.parametrize(("prefix", "html_lang", "site_name", "heading"), LANGUAGES)
def test_home_page_in_each_language(
    client: Client, prefix: str, html_lang: str, site_name: str, heading: str
) -> None:
    response = client.get(f"/{prefix}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert find_one(html, "html").get("lang") == html_lang
    assert find_one(html, "a", class_="site-name").text.strip() == site_name
    assert find_one(html, "h1").text.strip() == heading
    assert site_name in find_one(html, "title").text
    # Nothing of the other language leaks in (its name in the switcher aside).
    for _, _, other_name, other_heading in LANGUAGES:
        if other_name != site_name:
            assert other_name not in html
            assert other_heading not in html
    assert response["Content-Language"] == prefix


def test_home_page_describes_all_three_parts(client: Client) -> None:
    html = client.get("/ja/").content.decode()
    parts = find_all(html, "li", class_="part")
    assert [part.get("data-section") for part in parts] == ["rules", "learn", "play"]
    titles = [part.children[0].text.strip() for part in parts]
    assert titles == ["ルール", "レッスン", "対戦"]


@pytest.mark.parametrize(
    ("accept_language", "expected"),
    [("ja", "/ja/"), ("ja-JP,ja;q=0.9", "/ja/"), ("zh-CN,zh;q=0.9", "/zh-hans/"),
     ("fr-FR", "/zh-hans/"), ("", "/zh-hans/")],
)  # fmt: skip
def test_root_redirects_to_the_readers_language(
    client: Client, accept_language: str, expected: str
) -> None:
    response = client.get("/", headers={"accept-language": accept_language})
    assert response.status_code == 302
    assert response["Location"] == expected
    assert "Accept-Language" in response["Vary"]


def test_root_redirect_prefers_the_language_cookie(client: Client) -> None:
    client.cookies["django_language"] = "ja"
    response = client.get("/", headers={"accept-language": "zh-CN"})
    assert response["Location"] == "/ja/"


@pytest.mark.parametrize(
    ("prefix", "other", "other_lang"), [("zh-hans", "ja", "ja"), ("ja", "zh-hans", "zh-Hans")]
)
def test_language_switcher_links_to_the_twin_page(
    client: Client, prefix: str, other: str, other_lang: str
) -> None:
    html = client.get(f"/{prefix}/").content.decode()
    switcher = find_one(html, "nav", class_="language-switcher")
    links = [child.children[0] for child in switcher.children[0].children]
    by_language = {link.get("data-language"): link for link in links}
    assert by_language[other].get("href") == f"/{other}/"
    assert by_language[other].get("lang") == other_lang
    assert by_language[prefix].get("aria-current") == "true"
    assert by_language[other].get("aria-current") is None
    # Each language is named in itself.
    assert by_language["zh-hans"].text == "简体中文"
    assert by_language["ja"].text == "日本語"


@pytest.mark.urls("tests.daifugo_site.urls_i18n_demo")
def test_switcher_keeps_path_arguments_and_query(client: Client) -> None:
    html = client.get("/ja/demo/7/?seat=2").content.decode()
    link = find_one(html, "a", data_language="zh-hans")
    assert link.get("href") == "/zh-hans/demo/7/?seat=2"


@pytest.mark.parametrize("prefix", ["zh-hans", "ja"])
def test_hreflang_alternates(client: Client, prefix: str) -> None:
    html = client.get(f"/{prefix}/").content.decode()
    alternates = {
        link.get("hreflang"): link.get("href") for link in find_all(html, "link", rel="alternate")
    }
    assert alternates == {
        "zh-Hans": "http://testserver/zh-hans/",
        "ja": "http://testserver/ja/",
        "x-default": "http://testserver/zh-hans/",
    }
    assert find_one(html, "link", rel="canonical").get("href") == f"http://testserver/{prefix}/"


def _routed() -> dict[str, str]:
    """Each site part's URL in Chinese, or "" while its app has no route yet."""
    from django.urls import NoReverseMatch, reverse
    from django.utils import translation

    from daifugo_site.ui.sections import SECTIONS

    routed = {}
    with translation.override("zh-hans"):
        for section in SECTIONS:
            try:
                routed[section.key] = reverse(section.url_name)
            except NoReverseMatch:
                routed[section.key] = ""
    return routed


def test_navigation_links_exactly_the_parts_with_routes(client: Client) -> None:
    routed = _routed()
    html = client.get("/zh-hans/").content.decode()
    nav_links = {a.get("data-section"): a.get("href") for a in find_all(html, "a")
                 if a.get("data-section")}  # fmt: skip
    assert nav_links == {key: url for key, url in routed.items() if url}
    # The home page describes every part; a part without a route has no link.
    for part in find_all(html, "li", class_="part"):
        heading = part.children[0]
        assert heading.tag == "h3"
        if routed[part.get("data-section") or ""]:
            assert heading.children[0].get("href") == routed[part.get("data-section") or ""]
        else:
            assert heading.children == [], "no link while the part has no route"


@pytest.mark.django_db
def test_navigation_marks_the_current_part(client: Client) -> None:
    # The rules pages exist (daifugo_site/pages/rules_urls.py): their nav link is current.
    html = client.get("/ja/rules/").content.decode()
    link = find_one(html, "a", data_section="rules")
    assert (link.get("href"), link.text, link.get("aria-current")) == (
        "/ja/rules/",
        "ルール",
        "page",
    )
    home = client.get("/zh-hans/").content.decode()
    part_link = find_one(home, "li", data_section="rules").children[0].children[0]
    assert (part_link.tag, part_link.get("href"), part_link.text) == (
        "a",
        "/zh-hans/rules/",
        "规则",
    )


def test_layout_has_htmx_with_ws_from_our_static_files(client: Client) -> None:
    html = client.get("/zh-hans/").content.decode()
    sources = [script.get("src") for script in find_all(html, "script")]
    assert "/static/django_htmx/htmx-2.min.js" in sources
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in sources
    assert all(src and src.startswith("/static/") for src in sources), "no CDN scripts"
    assert find_one(html, "link", rel="stylesheet").get("href") == "/static/css/site.css"


def test_layout_landmarks_and_live_region(client: Client) -> None:
    html = client.get("/ja/").content.decode()
    announcer = find_one(html, "div", id="announcer")
    assert announcer.get("aria-live") == "polite"
    assert find_one(html, "main").get("id") == "main"
    assert find_one(html, "a", class_="skip-link").get("href") == "#main"
    assert find_one(html, "a", class_="skip-link").text == "本文へ移動"
    assert find_all(html, "header") and find_all(html, "footer")


@pytest.mark.parametrize(
    ("prefix", "lang", "text"),
    [("ja", "ja", "ページが見つかりません"), ("zh-hans", "zh-Hans", "找不到这个页面")],
)
def test_not_found_page_is_translated(client: Client, prefix: str, lang: str, text: str) -> None:
    response = client.get(f"/{prefix}/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert find_one(html, "html").get("lang") == lang
    assert find_one(html, "h1").text == text
    # The switcher still leads somewhere real: the other language's home.
    other = "zh-hans" if prefix == "ja" else "ja"
    assert find_one(html, "a", data_language=other).get("href") == f"/{other}/"
