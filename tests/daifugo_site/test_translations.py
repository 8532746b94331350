"""The catalogues: complete, well-formed, and in step with the code and templates."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
CATALOGUES = {
    "zh_Hans": BASE_DIR / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po",
    "ja": BASE_DIR / "locale" / "ja" / "LC_MESSAGES" / "django.po",
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
# The same extraction as `make makemessages`.
MAKEMESSAGES = [
    "makemessages", "-l", "zh_Hans", "-l", "ja", "--no-obsolete", "--add-location", "file",
    "-i", "staticfiles", "-i", "tests",
]  # fmt: skip


@pytest.mark.parametrize("locale", CATALOGUES)
def test_every_string_is_translated(locale: str) -> None:
    catalogue = polib.pofile(str(CATALOGUES[locale]))
    assert catalogue.metadata["Language"] == locale
    assert catalogue.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
    problems = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        # Plural entries keep their text in msgstr_plural (one form in zh-hans and ja).
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        wanted = sorted(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        problem = (
            "fuzzy"
            if entry.fuzzy
            else "untranslated"
            if not texts or not all(texts)
            else "placeholders"
            if any(sorted(PLACEHOLDER.findall(text)) != wanted for text in texts)
            else None
        )
        if problem:
            problems.append(f"{entry.msgctxt or ''}|{entry.msgid!r}: {problem}")
    assert problems == []


def test_both_catalogues_hold_the_same_strings() -> None:
    keys = {
        locale: {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(path))}
        for locale, path in CATALOGUES.items()
    }
    assert keys["zh_Hans"] == keys["ja"]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext (xgettext) not installed")
def test_catalogues_contain_every_string_in_the_code(tmp_path: Path) -> None:
    """Run makemessages on a copy of the project: no string may be missing or stale."""
    copy = tmp_path / "project"
    shutil.copytree(
        BASE_DIR,
        copy,
        ignore=shutil.ignore_patterns(
            ".*", "__pycache__", "staticfiles", "node_modules", "*.sqlite3", "*.mo", "tests"
        ),
    )
    script = (
        "import sys, django; sys.path.insert(0, '.'); "
        "import daifugo_site; assert daifugo_site.__file__.startswith(sys.argv[1]), "
        "daifugo_site.__file__; "
        "from django.core.management import execute_from_command_line; "
        "execute_from_command_line(['manage.py', *sys.argv[2:]])"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(copy), *MAKEMESSAGES],
        cwd=copy,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "daifugo_site.settings.dev"},
        check=True,
        capture_output=True,
        timeout=120,
    )
    for locale, path in CATALOGUES.items():
        extracted = polib.pofile(str(copy / path.relative_to(BASE_DIR)))
        ours = {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(path))}
        theirs = {(entry.msgctxt, entry.msgid) for entry in extracted if not entry.obsolete}
        assert theirs - ours == set(), f"{locale}: new strings, run `make makemessages`"
        assert ours - theirs == set(), f"{locale}: strings no longer used, run `make makemessages`"
