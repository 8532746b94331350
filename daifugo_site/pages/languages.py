"""The site's languages as modeltranslation names its columns (no models here, so that
the markup, the models and the translation options all import it without a cycle)."""

from __future__ import annotations

from django.conf import settings
from modeltranslation.utils import build_localized_fieldname

LANGUAGES: tuple[str, ...] = tuple(code for code, _name in settings.LANGUAGES)


def language_fields(field: str) -> list[tuple[str, str]]:
    """``[("title_zh_hans", "zh-hans"), ("title_ja", "ja")]`` for ``"title"``."""
    return [(build_localized_fieldname(field, language), language) for language in LANGUAGES]
