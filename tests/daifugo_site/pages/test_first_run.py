"""Right on the first run: HTML rendered before the catalogues existed never reaches a reader.

A fresh clone used to load the content (rendering every example's "Hands at the start",
"Player A plays"... in English, since no .mo file existed yet), then compile the
catalogues; the stored English HTML was then served in both languages until the content
was loaded again. These tests replay that order in one process: the catalogues live in a
temporary LOCALE_PATHS holding only the .po files; changing LOCALE_PATHS makes Django drop
its loaded translations, as a new server process would start without them.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import translation

from daifugo_site.translations import compile_catalogues
from tests.html import find_all

LOCALES = {"zh-hans": "zh_Hans", "ja": "ja"}
PAGES = ["/{lang}/rules/", "/{lang}/rules/forms-and-jokers/", "/{lang}/faq/"]


@pytest.fixture(autouse=True)
def _fresh_memos() -> Iterator[None]:
    """Per-process memos of translated text (card names) belong to the catalogues this
    process loaded: a "new process" in these tests starts without them, and the tests
    after these find none of their catalogues either."""
    from daifugo_site.ui import cardviews
    from daifugo_site.ui.templatetags import cards

    cardviews._CARD_VIEWS.clear()
    cards._CARD_HTML.clear()
    yield
    cardviews._CARD_VIEWS.clear()
    cards._CARD_HTML.clear()


def _new_process(settings: pytest.FixtureRequest, locale_dir: Path) -> None:
    """What a server started now would have: the catalogues on disk, no memo."""
    from daifugo_site.ui import cardviews
    from daifugo_site.ui.templatetags import cards

    settings.LOCALE_PATHS = [str(locale_dir)]  # type: ignore[attr-defined]
    cardviews._CARD_VIEWS.clear()
    cards._CARD_HTML.clear()


def _english_sentences() -> set[str]:
    """The catalogue's English source sentences (long enough never to be a card or a key)."""
    po = polib.pofile(str(Path(django_settings.BASE_DIR) / "locale/ja/LC_MESSAGES/django.po"))
    return {
        entry.msgid
        for entry in po
        if " " in entry.msgid and len(entry.msgid) >= 12 and "%(" not in entry.msgid
    }


def _copy_sources(target: Path) -> None:
    for locale in LOCALES.values():
        folder = target / locale / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(
            Path(django_settings.BASE_DIR) / "locale" / locale / "LC_MESSAGES" / "django.po",
            folder / "django.po",
        )


def _visible_text(html: str) -> str:
    main = find_all(html, "main")
    return re.sub(r"\s+", " ", main[0].text if main else html)


@pytest.mark.django_db
def test_content_loaded_before_compiling_is_served_translated(
    tmp_path: Path, settings: pytest.FixtureRequest, client: Client
) -> None:
    from daifugo_site.pages.loader import load
    from daifugo_site.pages.models import RuleSection

    _copy_sources(tmp_path)
    settings.LOCALE_PATHS = [tmp_path]  # type: ignore[attr-defined]
    english = _english_sentences()

    # 1. make's first step on a fresh clone: load the content, no catalogue compiled yet.
    load()
    with translation.override("ja"):
        stored = RuleSection.objects.get(slug="forms-and-jokers").body_html_ja
    assert "Hands at the start" in stored or "Player A" in stored, "the reproduction broke"

    # 2. compile, then a "new process" (Django reloads the catalogues) serves the pages.
    assert compile_catalogues([tmp_path])
    _new_process(settings, tmp_path)
    for lang in LOCALES:
        for page in PAGES:
            response = client.get(page.format(lang=lang))
            assert response.status_code == 200
            text = _visible_text(response.content.decode())
            leaked = sorted(sentence for sentence in english if sentence in text)
            assert not leaked, f"{page.format(lang=lang)} shows English: {leaked[:5]}"
    section = RuleSection.objects.get(slug="forms-and-jokers")
    assert "開始時" in section.body_html_ja or "最初の手札" in section.body_html_ja
    assert "Hands at the start" not in section.body_html_zh_hans
    assert "黑桃" in section.body_html_zh_hans and "Spades" not in section.body_html_zh_hans


@pytest.mark.django_db
def test_current_html_is_not_rendered_again(
    content: None, client: Client, django_assert_max_num_queries: pytest.FixtureRequest
) -> None:
    from daifugo_site.pages.markup import STAMP_FIELD, catalogue_version
    from daifugo_site.pages.models import RuleSection

    client.get("/ja/rules/")  # whatever the loader stamped, this brings it up to date
    stamps = set(RuleSection.objects.values_list(f"{STAMP_FIELD}_ja", flat=True))
    assert stamps == {catalogue_version("ja")}
    before = list(RuleSection.objects.values_list("pk", "body_html_ja"))
    with django_assert_max_num_queries(8):  # type: ignore[operator]
        assert client.get("/ja/rules/").status_code == 200
    assert list(RuleSection.objects.values_list("pk", "body_html_ja")) == before


def test_catalogue_version_follows_the_loaded_catalogue(
    tmp_path: Path, settings: pytest.FixtureRequest
) -> None:
    from daifugo_site.pages.markup import catalogue_version

    _copy_sources(tmp_path)
    settings.LOCALE_PATHS = [tmp_path]  # type: ignore[attr-defined]
    empty = catalogue_version("ja")
    assert catalogue_version("ja") == empty  # memoised, stable
    compile_catalogues([tmp_path])
    assert catalogue_version("ja") == empty  # still the catalogue this process loaded
    settings.LOCALE_PATHS = [str(tmp_path)]  # type: ignore[attr-defined]
    assert catalogue_version("ja") != empty
    assert catalogue_version("ja") != catalogue_version("zh-hans")
