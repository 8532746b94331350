"""Issue 38, item 8: the site's buttons are styled on every page that has one, not only
where the play page's stylesheet happens to be loaded (the rated lobby's "Play rated" and
the profile's "Save" were browser-default buttons)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.daifugo_site.rated.conftest import account
from tests.html import find_all

pytestmark = pytest.mark.django_db


def stylesheets(html: str) -> str:
    css = []
    for link in find_all(html, "link", rel="stylesheet"):
        href = link.get("href") or ""
        path = finders.find(href.split("/static/", 1)[1])
        assert path, href
        css.append(open(path, encoding="utf-8").read())  # noqa: SIM115
    return "\n".join(css)


@pytest.mark.parametrize("path", ["/ja/rated/", "/zh-hans/accounts/profile/", "/ja/play/"])
def test_every_button_class_is_styled_by_the_pages_own_stylesheets(path: str) -> None:
    _user, key = account("kana@example.com")
    client = Client()
    client.cookies["sessionid"] = key
    html = client.get(path).content.decode()
    assert 'class="button' in html
    css = stylesheets(html)
    rule = re.search(r"(?:^|[}\s,])\.button\s*\{([^}]*)\}", css)
    assert rule and "background" in rule.group(1) and "border" in rule.group(1), path
    assert re.search(r"\.button--primary\s*\{[^}]*background", css), path
