"""Compile gettext catalogues (.po -> .mo) in pure Python, with polib.

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``; a fresh machine may not have
it, and the site should start with only Python. ``manage.py compile_translations`` and the
test suite call :func:`compile_catalogues`. Authors still need GNU gettext for
``makemessages`` (extraction), see README.

Fuzzy and untranslated entries are left out of the .mo, as msgfmt does, so they fall back
to the source text instead of showing a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import polib


def find_catalogues(locale_dirs: Iterable[Path]) -> list[Path]:
    """Every ``<locale_dir>/<locale>/LC_MESSAGES/*.po``, sorted."""
    found: set[Path] = set()
    for locale_dir in locale_dirs:
        found.update(Path(locale_dir).glob("*/LC_MESSAGES/*.po"))
    return sorted(found)


def compile_catalogue(po_path: Path, *, force: bool = False) -> bool:
    """Write the .mo beside ``po_path`` if it is missing or older; True if written."""
    mo_path = po_path.with_suffix(".mo")
    if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        return False
    catalogue = polib.pofile(str(po_path))
    tmp_path = mo_path.with_suffix(".mo.tmp")
    catalogue.save_as_mofile(str(tmp_path))
    # Replace atomically: a running server or a parallel test never reads half a file.
    tmp_path.replace(mo_path)
    return True


def compile_catalogues(locale_dirs: Iterable[Path], *, force: bool = False) -> list[Path]:
    """Compile every stale catalogue under ``locale_dirs``; returns the .po files compiled."""
    return [po for po in find_catalogues(locale_dirs) if compile_catalogue(po, force=force)]
