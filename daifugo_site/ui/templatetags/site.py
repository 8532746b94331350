"""Layout tags: ``{% load site %}``.

- ``{% site_sections as sections %}``: the three parts (see ``daifugo_site.ui.sections``).
- ``{% language_alternates as alternates %}``: the current page in every language, for the
  language switcher (``url``, query kept) and the canonical / ``hreflang`` links
  (``absolute_url``, never a query string).
- ``{{ language_code|bcp47 }}``: Django's ``zh-hans`` as the HTML/BCP 47 tag ``zh-Hans``.
- ``{{ name|preset_label }}``: a rules preset's name in the active language.
- ``{{ items|list_text }}``: items listed the language's way ("A, B" / "A、B").
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils.encoding import iri_to_uri
from django.utils.translation import get_language, to_locale

from daifugo_site.ui import labels
from daifugo_site.ui.sections import SECTIONS

register = template.Library()


@register.filter
def bcp47(language_code: str) -> str:
    """``zh-hans`` -> ``zh-Hans``, ``ja`` -> ``ja`` (script subtags are title case)."""
    return to_locale(language_code).replace("_", "-")


@register.filter
def preset_label(name: str) -> str:
    return labels.preset_label(name)


@register.filter
def list_text(items: Any) -> str:
    return labels.list_text(str(item) for item in items)


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
    path = request.path if request is not None else "/"
    # The switcher keeps the query (a lesson's ?step=2 stays on its step); canonical and
    # hreflang links never repeat it: one address per page, whatever a link added to it.
    query = request.META.get("QUERY_STRING", "") if request is not None else ""
    alternates = []
    for code, name in settings.LANGUAGES:
        bare = translate_url(path, code)
        if bare == path and code != current:
            bare = f"/{code}/"
        url = f"{bare}?{iri_to_uri(query)}" if query and bare != f"/{code}/" else bare
        alternates.append(
            {
                "code": code,
                "name": name,
                "lang": bcp47(code),
                "url": url,
                "absolute_url": request.build_absolute_uri(bare) if request is not None else bare,
                "current": code == current,
                "default": code == settings.LANGUAGE_CODE,
            }
        )
    return alternates
