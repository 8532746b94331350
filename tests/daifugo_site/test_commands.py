"""Site-wide management commands: load_site_content and compile_translations."""

from __future__ import annotations

import gettext
from io import StringIO
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from daifugo_site.translations import compile_catalogues


def test_load_site_content_calls_each_apps_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def loader(*, verbosity: int) -> str:
        calls.append(verbosity)
        return "3 lessons"

    monkeypatch.setattr(
        apps.get_app_config("tutorials"), "load_site_content", loader, raising=False
    )
    out = StringIO()
    call_command("load_site_content", "--app", "tutorials", stdout=out, verbosity=2)
    assert calls == [2]
    assert "tutorials: 3 lessons" in out.getvalue()


def test_load_site_content_rejects_unknown_apps() -> None:
    with pytest.raises(CommandError, match="No installed app with label 'nope'"):
        call_command("load_site_content", "--app", "nope")


def test_compile_catalogues_is_pure_python_and_skips_fuzzy(tmp_path: Path) -> None:
    po_path = tmp_path / "ja" / "LC_MESSAGES" / "django.po"
    po_path.parent.mkdir(parents=True)
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ja"}
    catalogue.append(polib.POEntry(msgid="Play", msgstr="対戦"))
    catalogue.append(polib.POEntry(msgid="Rules", msgstr="ルール?", flags=["fuzzy"]))
    catalogue.append(polib.POEntry(msgid="Joker", msgstr="ジョーカー", msgctxt="card"))
    catalogue.save(str(po_path))

    assert compile_catalogues([tmp_path]) == [po_path]
    assert compile_catalogues([tmp_path]) == [], "an up-to-date .mo is left alone"

    with po_path.with_suffix(".mo").open("rb") as mo:
        translations = gettext.GNUTranslations(mo)
    assert translations.gettext("Play") == "対戦"
    assert translations.gettext("Rules") == "Rules", "fuzzy entries fall back to the source"
    assert translations.pgettext("card", "Joker") == "ジョーカー"


def test_compile_translations_command() -> None:
    out = StringIO()
    call_command("compile_translations", stdout=out)
    assert "catalogues compiled" in out.getvalue()
