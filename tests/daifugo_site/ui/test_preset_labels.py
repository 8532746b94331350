"""Issue 38, item 9: a rules preset has one name per language, shown everywhere a preset is
named (set-up lists, error messages, profile, statistics, rules pages), never the raw key."""

from __future__ import annotations

import os
import re

import pytest
from django.test import Client
from django.utils import translation

from daifugo_site.accounts.models import GameResult
from daifugo_site.ui.labels import preset_label
from tests.daifugo_site.rated.conftest import account
from tests.html import find_all

pytestmark = pytest.mark.django_db

NAMES = {
    "zh-hans": {
        "standard": "标准",
        "party": "派对",
        "classic": "经典",
        "basic": "基础",
        "house": "家规",
    },
    "ja": {
        "standard": "スタンダード",
        "party": "パーティー",
        "classic": "クラシック",
        "basic": "ベーシック",
        "house": "ハウスルール",
    },
}
RAW = re.compile(r"\b(standard|party|classic|basic|house)\b", re.I)


@pytest.mark.parametrize("lang", NAMES)
def test_one_name_per_preset_and_language(lang: str) -> None:
    with translation.override(lang):
        assert {key: preset_label(key) for key in NAMES[lang]} == NAMES[lang]


@pytest.mark.parametrize("lang", NAMES)
@pytest.mark.parametrize("path", ["/play/"])
def test_the_set_up_lists_name_presets_in_the_language(lang: str, path: str) -> None:
    html = Client().get(f"/{lang}{path}").content.decode()
    select = html[html.index('name="preset"') :]
    select = select[: select.index("</select>")]
    texts = [o.text for o in find_all(select, "option")]
    assert len(texts) == 5  # the four presets and house (issue 40)
    assert not any(RAW.search(t) for t in texts), texts
    assert all(any(name in t for t in texts) for name in NAMES[lang].values())


@pytest.mark.parametrize("lang", NAMES)
def test_profile_and_site_statistics_name_presets_in_the_language(lang: str) -> None:
    user, key = account("kana@example.com")
    GameResult.objects.create(
        user=user, game_id="g1", kind="practice", preset="party", players=4, rounds=1,
        place=1, average_place=1.0, revolutions=0, moves=5,
    )  # fmt: skip
    client = Client()
    client.cookies["sessionid"] = key
    profile = client.get(f"/{lang}/accounts/profile/").content.decode()
    row = profile[profile.index('data-preset="party"') :]
    row = row[: row.index("</tr>")]
    assert NAMES[lang]["party"] in row and not RAW.search(row.split(">", 1)[1])


@pytest.mark.parametrize("lang", NAMES)
def test_the_presets_page_heads_its_columns_with_the_names(lang: str) -> None:
    from django.core.management import call_command

    call_command("load_site_content", "--app", "pages", "-v", "0", stdout=open(os.devnull, "w"))  # noqa: SIM115
    html = Client().get(f"/{lang}/rules/presets/").content.decode()
    heads = [th.text.strip() for th in find_all(html, "th", scope="col")][1:]
    # The four presets and house, which the rules pages compare too (issue 40).
    assert heads == list(NAMES[lang].values())
