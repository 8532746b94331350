"""Layout tags: ``{% load site %}``.

- ``{% site_sections as sections %}``: the three parts (see ``daifugo_site.ui.sections``).
- ``{% language_alternates as alternates %}``: the current page in every language, for the
  language switcher and the ``hreflang`` links.
- ``{{ language_code|bcp47 }}``: Django's ``zh-hans`` as the HTML/BCP 47 tag ``zh-Hans``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils.translation import get_language, to_locale

from daifugo_site.ui.sections import SECTIONS

register = template.Library()


@register.filter
def bcp47(language_code: str) -> str:
    """``zh-hans`` -> ``zh-Hans``, ``ja`` -> ``ja`` (script subtags are title case)."""
    return to_locale(language_code).replace("_", "-")


@register.simple_tag
def site_sections(available_only: bool = False) -> list[dict[str, Any]]:
    """The site's parts with their URL in the active language ("" while a part has no route).

    ``available_only=True`` keeps only the parts whose route exists: the navigation shows
    a part as soon as its app registers the URL name, and never a dead link.
    """
    result = []
    for section in SECTIONS:
        try:
            url = reverse(section.url_name)
        except NoReverseMatch:
            url = ""
        if url or not available_only:
            result.append(
                {
                    "section": section,
                    "key": section.key,
                    "url": url,
                    "title": section.title,
                    "summary": section.summary,
                }
            )
    return result


@register.simple_tag(takes_context=True)
def language_alternates(context: template.Context) -> list[dict[str, Any]]:
    """One entry per language: code, name, lang (BCP 47), url, absolute_url, current.

    ``translate_url`` maps /zh-hans/x/ to /ja/x/ (translated path segments included); a
    path that does not resolve (a 404 page) falls back to that language's home.
    """
    request = context.get("request")
    current = get_language()
    path = request.get_full_path() if request is not None else "/"
    alternates = []
    for code, name in settings.LANGUAGES:
        url = translate_url(path, code)
        if url == path and code != current:
            url = f"/{code}/"
        alternates.append(
            {
                "code": code,
                "name": name,
                "lang": bcp47(code),
                "url": url,
                "absolute_url": request.build_absolute_uri(url) if request is not None else url,
                "current": code == current,
                "default": code == settings.LANGUAGE_CODE,
            }
        )
    return alternates
